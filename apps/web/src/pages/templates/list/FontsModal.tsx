import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { type BrandFont, CALLS } from '@esl/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Modal, Popconfirm, Space, Table, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { forgetBrandFonts } from '../../../editor/fonts';
import { queryKeys } from '../../../platform/queryKeys';
import { request, requestList, upload } from '../../../platform/request';

interface Props {
  open: boolean;
  canWrite: boolean;
  onClose: () => void;
}

/**
 * The tenant's brand fonts (docs/LABELS.md "Fonts a retailer brings"): upload a TTF, OTF or WOFF2
 * file (the server checks it by its content and size), list them with the templates that use each
 * family, delete one no template uses (the server refuses otherwise, naming the templates).
 */
export function FontsModal({ open, canWrite, onClose }: Props) {
  const { t } = useTranslation('templates');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [family, setFamily] = useState('');
  const key = queryKeys.list('fontList', undefined, {});
  // Read again each time it opens: templates saved meanwhile change which fonts are in use.
  const list = useQuery({
    queryKey: key,
    queryFn: () => requestList('fontList', {}),
    enabled: open,
  });
  const { refetch } = list;
  useEffect(() => {
    if (open) void refetch();
  }, [open, refetch]);
  const changed = () => {
    forgetBrandFonts();
    void queryClient.invalidateQueries({ queryKey: queryKeys.area('templates') });
  };
  const send = useMutation({
    mutationFn: (file: File) =>
      upload(CALLS.uploadFont.path, file, {
        timeout: 120_000,
        fields: family.trim() ? { family: family.trim() } : {},
      }) as Promise<BrandFont>,
    onSuccess: (font) => {
      message.success(t('fonts.uploaded', { family: font.family }));
      setFamily('');
      changed();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => request('delFont', { id }),
    onSuccess: () => {
      message.success(t('fonts.deleted'));
      changed();
    },
  });

  return (
    <Modal open={open} title={t('fonts.title')} onCancel={onClose} footer={null} width={760} destroyOnHidden>
      <Space orientation="vertical" style={{ display: 'flex' }} data-testid="fonts-modal">
        <Typography.Text type="secondary">{t('fonts.help')}</Typography.Text>
        {canWrite && (
          <Space wrap>
            <Input
              placeholder={t('fonts.familyPlaceholder')}
              aria-label={t('fonts.family')}
              value={family}
              maxLength={64}
              onChange={(e) => setFamily(e.target.value)}
              style={{ width: 240 }}
              data-testid="fonts-family"
            />
            <Upload
              showUploadList={false}
              multiple={false}
              maxCount={1}
              accept=".ttf,.otf,.woff2"
              beforeUpload={(file) => {
                // The server checks the file by its content (and its size) and says what is wrong.
                send.mutate(file);
                return false;
              }}
            >
              <Button type="primary" icon={<UploadOutlined />} loading={send.isPending} data-testid="fonts-upload">
                {t('fonts.upload')}
              </Button>
            </Upload>
          </Space>
        )}
        <Table<BrandFont>
          rowKey="id"
          size="small"
          loading={list.isPending}
          dataSource={list.data?.rows ?? []}
          pagination={false}
          data-testid="fonts-table"
          locale={{ emptyText: t('fonts.empty') }}
          columns={[
            { title: t('fonts.family'), dataIndex: 'family' },
            {
              title: t('fonts.weight'),
              dataIndex: 'weight',
              width: 90,
              render: (w: number) => (w >= 600 ? t('fonts.bold') : t('fonts.regular')),
            },
            { title: t('fonts.file'), dataIndex: 'name', ellipsis: true },
            {
              title: t('fonts.size'),
              dataIndex: 'size',
              width: 90,
              render: (n: number) => `${(n / 1024).toFixed(0)} KB`,
            },
            {
              title: t('fonts.usedBy'),
              dataIndex: 'templates',
              ellipsis: true,
              render: (names: string[]) => (names.length ? names.join(t('fonts.sep')) : '—'),
            },
            ...(canWrite
              ? [
                  {
                    title: '',
                    key: 'actions',
                    width: 60,
                    render: (_: unknown, row: BrandFont) => (
                      <Popconfirm
                        title={t('fonts.deleteConfirm', { family: row.family })}
                        onConfirm={() => remove.mutateAsync(row.id)}
                      >
                        <Button
                          type="text"
                          danger
                          size="small"
                          icon={<DeleteOutlined />}
                          aria-label={t('fonts.delete')}
                          data-testid={`fonts-delete-${row.id}`}
                        />
                      </Popconfirm>
                    ),
                  },
                ]
              : []),
          ]}
        />
      </Space>
    </Modal>
  );
}
