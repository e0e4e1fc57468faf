import { UploadOutlined } from '@ant-design/icons';
import type { DataOf, FirmwareChoice } from '@esl/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Result, Space, Table, Typography, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { CALL_PATHS } from '../../../api/callPaths';
import { EmptyState } from '../../../components/EmptyState';
import { queryKeys } from '../../../platform/queryKeys';
import { requestList, upload } from '../../../platform/request';
import { useUserStore } from '../../../store/user';
import { parseTime } from '../../../utils/time';

type Version = DataOf<'firmwareList'>;

/** The platform operator's firmware files: upload one at a time, and the version list. */
export default function FirmwareFilesPage() {
  const permissions = useUserStore((s) => s.permissions);
  if (!permissions.includes('platform.tenants')) {
    return <Result status="403" title="403" />;
  }
  return <FirmwareFiles />;
}

function FirmwareFiles() {
  const { t } = useTranslation('firmware');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: queryKeys.firmwareFiles(),
    queryFn: () => requestList('firmwareList', { page: 1, limit: 200 }),
  });
  const send = useMutation({
    mutationFn: (file: File) =>
      upload(CALL_PATHS.uploadFirmware, file, { timeout: 120_000 }) as Promise<FirmwareChoice>,
    onSuccess: (fw) => {
      message.success(t('platform.uploaded', { version: fw.version }));
      void queryClient.invalidateQueries({ queryKey: queryKeys.area('firmware') });
    },
  });

  return (
    <Card title={t('platform.title')} size="small" data-testid="firmware-page">
      <Space orientation="vertical" style={{ display: 'flex' }}>
        <Space wrap>
          <Upload
            showUploadList={false}
            multiple={false}
            maxCount={1}
            beforeUpload={(file, files) => {
              if (files.length > 1) {
                if (file === files[0]) message.error(t('platform.oneFile'));
                return Upload.LIST_IGNORE;
              }
              // The server checks the file by its content and answers 'not an upgrade file'.
              send.mutate(file);
              return false;
            }}
          >
            <Button type="primary" icon={<UploadOutlined />} loading={send.isPending} data-testid="firmware-upload">
              {t('platform.upload')}
            </Button>
          </Upload>
          <Typography.Text type="secondary">{t('platform.uploadHint')}</Typography.Text>
        </Space>
        <Table<Version>
          rowKey="id"
          size="small"
          loading={list.isPending}
          dataSource={list.data?.rows ?? []}
          pagination={{ pageSize: 20, showSizeChanger: false }}
          locale={{ emptyText: <EmptyState title={t('platform.empty')} hint={t('platform.emptyHint')} /> }}
          data-testid="firmware-table"
          columns={[
            {
              title: t('platform.col.kind'),
              dataIndex: 'kind',
              width: 140,
              render: (k: Version['kind']) => t(`platform.kind.${k}`),
            },
            { title: t('platform.col.version'), dataIndex: 'version', width: 140 },
            { title: t('platform.col.name'), dataIndex: 'name', ellipsis: true },
            {
              title: t('platform.col.size'),
              dataIndex: 'size',
              width: 120,
              align: 'right',
              render: (n: number) => (n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`),
            },
            {
              title: t('platform.col.created'),
              dataIndex: 'createdAt',
              width: 180,
              render: (v: number) => parseTime(v),
            },
          ]}
        />
      </Space>
    </Card>
  );
}
