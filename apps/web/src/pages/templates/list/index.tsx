import { CopyOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { type TagColourType, TagColourType as TagColourTypes, type Template } from '@esl/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Popconfirm, Select, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { request, requestList } from '../../../platform/request';
import { useUserStore } from '../../../store/user';
import { parseTime } from '../../../utils/time';
import { AddTemplateModal, MODEL_OPTIONS } from './AddTemplateModal';
import { ColourType } from './ColourType';
import './templates.css';
import { FilterActions } from '../../../components/FilterActions';
import { listPagination } from '../../../components/pagination';

interface Filter {
  name?: string;
  model?: string;
  colourType?: TagColourType;
}

/** Where the editor opens a template. */
export function editorPath(id: number): string {
  return `/tmpl/tmpledit?id=${id}`;
}

export default function TemplatesPage() {
  const { t } = useTranslation('templates');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const permissions = useUserStore((s) => s.permissions);
  const canWrite = permissions.includes('template.write');

  const [filterForm] = Form.useForm<Filter>();
  const [filter, setFilter] = useState<Filter>({});
  const [paging, setPaging] = useState({ page: 1, limit: 20 });
  const [adding, setAdding] = useState(false);

  const templates = useQuery({
    queryKey: ['templates', 'list', filter, paging],
    queryFn: () => requestList('templateList', { ...paging, ...filter }),
    placeholderData: keepPreviousData,
  });
  const changed = () => void queryClient.invalidateQueries({ queryKey: ['templates'] });

  const copy = useMutation({
    mutationFn: (id: number) => request('copyTemplate', { id }),
    onSuccess: (copyRow) => {
      message.success(t('copied', { name: copyRow.name }));
      changed();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => request('delTemplate', { ids: [id] }),
    onSuccess: () => {
      message.success(t('deleted'));
      changed();
    },
  });

  const columns: ColumnsType<Template> = [
    {
      title: t('col.thumbnail'),
      dataIndex: 'thumbnail',
      width: 170,
      render: (src: string, row) => (
        <button type="button" className="tmpl-thumb" onClick={() => navigate(editorPath(row.id))} title={t('open')}>
          <img
            src={src}
            alt={row.name}
            style={{ maxWidth: 150, maxHeight: 80, imageRendering: 'pixelated', display: 'block' }}
            loading="lazy"
          />
        </button>
      ),
    },
    {
      title: t('col.name'),
      dataIndex: 'name',
      ellipsis: true,
      render: (name: string, row) => (
        <Typography.Link onClick={() => navigate(editorPath(row.id))}>{name}</Typography.Link>
      ),
    },
    {
      title: t('col.model'),
      dataIndex: 'modelName',
      // Rotation, when the template has one, follows the size ("296×152 · 90°").
      width: 180,
      render: (modelName: string, row) => (
        <span>
          {row.model ? modelName : <Typography.Text type="secondary">{t('customSize')}</Typography.Text>}
          <Typography.Text type="secondary" style={{ marginLeft: 6 }}>
            {row.width}×{row.length}
            {row.rotation ? ` · ${row.rotation}°` : ''}
          </Typography.Text>
        </span>
      ),
    },
    {
      title: t('col.colourType'),
      dataIndex: 'colourType',
      // Long names ("Black/white/red/yellow") wrap below their inks rather than run into the next column.
      width: 180,
      render: (v: TagColourType) => <ColourType value={v} />,
    },
    { title: t('col.updated'), dataIndex: 'updatedAt', width: 170, render: (v: number) => parseTime(v) },
    {
      title: t('col.actions'),
      key: 'actions',
      width: canWrite ? 220 : 90,
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          <Button type="link" size="small" icon={<EditOutlined />} onClick={() => navigate(editorPath(row.id))}>
            {t('edit')}
          </Button>
          {canWrite && (
            <>
              <Button
                type="link"
                size="small"
                icon={<CopyOutlined />}
                loading={copy.isPending && copy.variables === row.id}
                onClick={() => copy.mutate(row.id)}
              >
                {t('copy')}
              </Button>
              <Popconfirm
                title={t('deleteTitle')}
                description={t('deleteConfirm', { name: row.name })}
                okText={t('delete')}
                okButtonProps={{ danger: true }}
                cancelText={t('cancel')}
                onConfirm={() => remove.mutateAsync(row.id).catch(() => undefined)}
              >
                <Button type="link" size="small" danger icon={<DeleteOutlined />}>
                  {t('delete')}
                </Button>
              </Popconfirm>
            </>
          )}
        </Space>
      ),
    },
  ];

  const search = (values: Filter) => {
    setFilter({
      name: values.name?.trim() || undefined,
      model: values.model || undefined,
      colourType: values.colourType || undefined,
    });
    setPaging((p) => ({ ...p, page: 1 }));
  };

  return (
    <Space orientation="vertical" size="middle" style={{ display: 'flex' }}>
      <Card size="small">
        <Form form={filterForm} name="tmpl-filter" layout="inline" onFinish={search} style={{ rowGap: 8 }}>
          <Form.Item name="name" label={t('filter.name')}>
            <Input allowClear placeholder={t('filter.namePlaceholder')} style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="model" label={t('filter.model')}>
            <Select
              allowClear
              showSearch
              optionFilterProp="label"
              placeholder={t('filter.allModels')}
              style={{ width: 190 }}
              options={MODEL_OPTIONS}
            />
          </Form.Item>
          <Form.Item name="colourType" label={t('filter.colourType')}>
            <Select
              allowClear
              placeholder={t('filter.allColours')}
              style={{ width: 170 }}
              options={TagColourTypes.options.map((c) => ({ value: c, label: <ColourType value={c} /> }))}
            />
          </Form.Item>
          <FilterActions
            onReset={() => {
              filterForm.resetFields();
              search({});
            }}
          />
        </Form>
      </Card>
      <Card
        size="small"
        title={t('title')}
        extra={
          canWrite && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="tmpl-add">
              {t('add')}
            </Button>
          )
        }
      >
        <Table<Template>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={templates.data?.rows ?? []}
          loading={templates.isFetching}
          scroll={{ x: 1080 }}
          locale={{ emptyText: templates.isError ? t('loadFailed') : t('empty') }}
          pagination={listPagination(paging, templates.data?.count ?? 0, setPaging, (total) =>
            t('total', { count: total }),
          )}
        />
      </Card>
      <AddTemplateModal
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={(template) => {
          setAdding(false);
          changed();
          navigate(editorPath(template.id));
        }}
      />
    </Space>
  );
}
