import {
  DeleteOutlined,
  EditOutlined,
  ExportOutlined,
  ImportOutlined,
  PlusOutlined,
  SwapOutlined,
} from '@ant-design/icons';
import { PRODUCT_EXPORT_PATH, type Product } from '@esl/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Badge,
  Button,
  Card,
  Flex,
  Form,
  Input,
  Popconfirm,
  Select,
  Space,
  Table,
  type TableProps,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { SortOrder } from 'antd/es/table/interface';
import { type Key, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterActions } from '../../components/FilterActions';
import { download, request, requestList } from '../../platform/request';
import { useUserStore } from '../../store/user';
import { saveBlob } from '../../utils/download';
import { parseTime } from '../../utils/time';
import { type Paging, useKeepPageInRange } from '../shared/paging';
import { StoreRequired } from '../shared/StoreRequired';
import { SELECTION_WIDTH, tableWidth, VIRTUAL_FROM, VIRTUAL_HEIGHT } from '../shared/table';
import {
  type ProductFilterValues,
  type ProductSort,
  type ProductSortState,
  productFilter,
  productSortOf,
} from './body';
import { FieldMapModal } from './FieldMapModal';
import { ImportModal } from './ImportModal';
import { ProductFormModal } from './ProductFormModal';

const PAGE_SIZES = [20, 50, 100, 200, 500];
/** An export of a whole store takes longer than an ordinary call. */
const EXPORT_TIMEOUT_MS = 180_000;

const dash = <Typography.Text type="secondary">—</Typography.Text>;

export default function ProductsPage() {
  const { t } = useTranslation('products');
  return (
    <StoreRequired title={t('needStore')} hint={t('needStoreHint')}>
      {(storeId) => <Products storeId={storeId} />}
    </StoreRequired>
  );
}

function Products({ storeId }: { storeId: number }) {
  const { t } = useTranslation('products');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const permissions = useUserStore((s) => s.permissions);
  const canWrite = permissions.includes('product.write');
  const canImport = permissions.includes('product.import');

  const [filterForm] = Form.useForm<ProductFilterValues>();
  const [filter, setFilter] = useState<ProductFilterValues>({});
  const [paging, setPaging] = useState<Paging>({ page: 1, limit: 20 });
  const [sort, setSort] = useState<ProductSortState | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<Product | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const [mapOpen, setMapOpen] = useState(false);

  const products = useQuery({
    queryKey: ['products', storeId, 'list', filter, paging, sort],
    queryFn: () => requestList('productList', { ...paging, ...productFilter(filter, sort) }),
    placeholderData: keepPreviousData,
  });
  useKeepPageInRange(products.data?.count, paging, setPaging);
  const rows = products.data?.rows ?? [];

  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: ['products', storeId] });
    // Tag rows show their product's name and price.
    void queryClient.invalidateQueries({ queryKey: ['tags', storeId] });
  };

  const remove = useMutation({
    mutationFn: (ids: number[]) => request('delProduct', { ids }),
    onSuccess: (answer, ids) => {
      message.success(t('deletedCount', { count: answer.deleted }));
      setSelected((keys) => keys.filter((k) => !ids.includes(k)));
      changed();
    },
  });

  const exportFile = useMutation({
    mutationFn: () => download(PRODUCT_EXPORT_PATH, productFilter(filter, sort), { timeout: EXPORT_TIMEOUT_MS }),
    onSuccess: ({ blob, filename }) => {
      saveBlob(blob, filename ?? t('exportFile'));
      message.success(t('exported'));
    },
  });

  const sortOrderOf = (key: ProductSort): SortOrder =>
    sort?.sort === key ? (sort.order === 'asc' ? 'ascend' : 'descend') : null;
  const sortable = (key: ProductSort) => ({ key, sorter: true, sortOrder: sortOrderOf(key) });

  const columns: ColumnsType<Product> = [
    {
      title: t('col.barcode'),
      dataIndex: 'barcode',
      width: 160,
      fixed: 'left',
      ...sortable('barcode'),
      render: (v: string) => <Typography.Text style={{ fontFamily: 'monospace' }}>{v}</Typography.Text>,
    },
    { title: t('col.name'), dataIndex: 'name', width: 200, ellipsis: true, ...sortable('name') },
    {
      title: t('col.price'),
      dataIndex: 'price',
      width: 100,
      align: 'right',
      ...sortable('price'),
      render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
    },
    {
      title: t('col.originalPrice'),
      dataIndex: 'originalPrice',
      width: 100,
      align: 'right',
      render: (v: string | null) => (v === null ? dash : <Typography.Text delete>{v}</Typography.Text>),
    },
    {
      title: t('col.priceChanges'),
      dataIndex: 'priceChanges',
      width: 110,
      align: 'center',
      ...sortable('priceChanges'),
      render: (n: number) => (
        <Badge
          count={n}
          showZero
          color={n > 0 ? '#fa8c16' : '#d9d9d9'}
          overflowCount={9999}
          data-testid="price-changes"
        />
      ),
    },
    { title: t('col.unit'), dataIndex: 'unit', width: 70, render: (v: string) => v || dash },
    { title: t('col.spec'), dataIndex: 'spec', width: 100, ellipsis: true, render: (v: string) => v || dash },
    { title: t('col.origin'), dataIndex: 'origin', width: 100, ellipsis: true, render: (v: string) => v || dash },
    { title: t('col.grade'), dataIndex: 'grade', width: 70, render: (v: string) => v || dash },
    { title: t('col.qrcode'), dataIndex: 'qrcode', width: 140, ellipsis: true, render: (v: string) => v || dash },
    {
      title: t('col.custom'),
      dataIndex: 'custom',
      width: 120,
      render: (custom: Record<string, string>) => {
        const entries = Object.entries(custom);
        if (entries.length === 0) return dash;
        return (
          <Tooltip
            title={entries.map(([k, v]) => (
              <div key={k}>
                {k}: {v}
              </div>
            ))}
          >
            <Tag>{t('customCount', { count: entries.length })}</Tag>
          </Tooltip>
        );
      },
    },
    {
      title: t('col.tags'),
      dataIndex: 'tags',
      width: 80,
      align: 'center',
      render: (n: number) => (n > 0 ? n : dash),
    },
    {
      title: t('col.updated'),
      dataIndex: 'updatedAt',
      width: 170,
      ...sortable('updatedAt'),
      render: (v: number) => parseTime(v),
    },
  ];
  if (canWrite) {
    columns.push({
      title: t('col.actions'),
      key: 'actions',
      width: 160,
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            icon={<EditOutlined />}
            onClick={() => {
              setEditing(row);
              setFormOpen(true);
            }}
          >
            {t('edit')}
          </Button>
          <Popconfirm
            title={t('deleteTitle')}
            description={
              row.tags > 0
                ? t('deleteBoundConfirm', { name: row.name, count: row.tags })
                : t('deleteConfirm', { name: row.name })
            }
            okText={t('delete')}
            okButtonProps={{ danger: true }}
            cancelText={t('cancel')}
            onConfirm={() => remove.mutateAsync([row.id]).catch(() => undefined)}
          >
            <Button type="link" size="small" danger icon={<DeleteOutlined />}>
              {t('delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    });
  }

  // A new filter starts a new selection: rows chosen under the old one would be out of sight.
  const search = (values: ProductFilterValues) => {
    setFilter(values);
    setSelected([]);
    setPaging((p) => ({ ...p, page: 1 }));
  };

  const onTableChange: TableProps<Product>['onChange'] = (pagination, _filters, sorter, extra) => {
    if (extra.action === 'sort') {
      const one = Array.isArray(sorter) ? sorter[0] : sorter;
      const key = productSortOf(one?.columnKey);
      setSort(key && one.order ? { sort: key, order: one.order === 'ascend' ? 'asc' : 'desc' } : null);
      setPaging((p) => ({ ...p, page: 1 }));
    } else if (extra.action === 'paginate') {
      setPaging({ page: pagination.current ?? 1, limit: pagination.pageSize ?? paging.limit });
    }
  };

  const virtual = rows.length > VIRTUAL_FROM;
  const width = tableWidth(columns, canWrite ? SELECTION_WIDTH : 0);

  return (
    <Space orientation="vertical" size="middle" style={{ display: 'flex' }}>
      <Card size="small">
        <Form form={filterForm} name="productFilter" layout="inline" onFinish={search} style={{ rowGap: 8 }}>
          <Form.Item name="text" label={t('filter.text')}>
            <Input allowClear placeholder={t('filter.textPlaceholder')} style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="bound" label={t('filter.bound')}>
            <Select
              allowClear
              placeholder={t('filter.all')}
              style={{ width: 140 }}
              options={[
                { value: 'bound', label: t('filter.boundYes') },
                { value: 'unbound', label: t('filter.boundNo') },
              ]}
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
          <Space wrap>
            <Button icon={<SwapOutlined />} onClick={() => setMapOpen(true)} data-testid="field-map">
              {t('map.open')}
            </Button>
            {canImport && (
              <Button icon={<ImportOutlined />} onClick={() => setImportOpen(true)} data-testid="import-products">
                {t('import.open')}
              </Button>
            )}
            <Tooltip title={t('exportHint')}>
              <Button
                icon={<ExportOutlined />}
                loading={exportFile.isPending}
                onClick={() => exportFile.mutate()}
                data-testid="export-products"
              >
                {t('export')}
              </Button>
            </Tooltip>
            {canWrite && (
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => {
                  setEditing(null);
                  setFormOpen(true);
                }}
                data-testid="add-product"
              >
                {t('add')}
              </Button>
            )}
          </Space>
        }
      >
        {canWrite && selected.length > 0 && (
          <Flex align="center" gap={8} wrap style={{ marginBottom: 12 }} data-testid="selection-bar">
            <Typography.Text>{t('selected', { count: selected.length })}</Typography.Text>
            <Popconfirm
              title={t('deleteTitle')}
              description={t('deleteManyConfirm', { count: selected.length })}
              okText={t('delete')}
              okButtonProps={{ danger: true }}
              cancelText={t('cancel')}
              onConfirm={() => remove.mutateAsync(selected).catch(() => undefined)}
            >
              <Button size="small" danger icon={<DeleteOutlined />}>
                {t('delete')}
              </Button>
            </Popconfirm>
            <Button size="small" type="link" onClick={() => setSelected([])}>
              {t('clearSelection')}
            </Button>
          </Flex>
        )}
        <Table<Product>
          data-testid="product-table"
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={products.isFetching}
          virtual={virtual}
          scroll={virtual ? { x: width, y: VIRTUAL_HEIGHT } : { x: width }}
          rowSelection={
            canWrite
              ? {
                  selectedRowKeys: selected,
                  preserveSelectedRowKeys: true,
                  columnWidth: SELECTION_WIDTH,
                  onChange: (keys: Key[]) => setSelected(keys.map(Number)),
                }
              : undefined
          }
          onChange={onTableChange}
          locale={{ emptyText: products.isError ? t('loadFailed') : t('empty') }}
          pagination={{
            current: paging.page,
            pageSize: paging.limit,
            total: products.data?.count ?? 0,
            showSizeChanger: true,
            pageSizeOptions: PAGE_SIZES,
            showTotal: (total) => t('total', { count: total }),
          }}
        />
      </Card>
      <ProductFormModal
        open={formOpen}
        product={editing}
        onClose={() => setFormOpen(false)}
        onSaved={() => {
          setFormOpen(false);
          changed();
        }}
      />
      <ImportModal open={importOpen} onClose={() => setImportOpen(false)} onImported={changed} />
      <FieldMapModal open={mapOpen} editable={canImport} onClose={() => setMapOpen(false)} />
    </Space>
  );
}
