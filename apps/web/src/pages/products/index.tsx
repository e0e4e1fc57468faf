import { ClockCircleOutlined, ExportOutlined, ImportOutlined, SwapOutlined } from '@ant-design/icons';
import { PRODUCT_EXPORT_PATH, type Product } from '@esl/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Badge, Tag, Tooltip, Typography } from 'antd';
import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEditDialog } from '../../components/FormModal';
import { dash, orDash } from '../../components/list/cells';
import { addAction, deleteAction, editAction, useRowsCall } from '../../components/list/commonActions';
import { selectFilter, textFilter } from '../../components/list/filters';
import { ListPage } from '../../components/list/ListPage';
import { useListQuery } from '../../components/list/useListQuery';
import { OnceOpened } from '../../components/OnceOpened';
import { download } from '../../platform/request';
import { MONO_FAMILY } from '../../platform/theme';
import { useUserStore } from '../../store/user';
import { saveBlob } from '../../utils/download';
import { parseTime } from '../../utils/time';
import { storeScreen } from '../shared/StoreRequired';
import { productFilter } from './body';

// The dialogs load when they first open, not with the list.
const FieldMapModal = lazy(() => import('./FieldMapModal').then((m) => ({ default: m.FieldMapModal })));
const ImportWizard = lazy(() => import('./ImportWizard').then((m) => ({ default: m.ImportWizard })));
const ProductFormModal = lazy(() => import('./ProductFormModal').then((m) => ({ default: m.ProductFormModal })));
const ScheduleModal = lazy(() => import('../schedule/ScheduleModal').then((m) => ({ default: m.ScheduleModal })));

const PAGE_SIZES = [20, 50, 100, 200, 500];
/** An export of a whole store takes longer than an ordinary call. */
const EXPORT_TIMEOUT_MS = 180_000;

export default storeScreen('products', Products);

function Products({ storeId }: { storeId: number }) {
  const { t } = useTranslation('products');
  const { message } = App.useApp();
  const permissions = useUserStore((s) => s.permissions);
  const canWrite = permissions.includes('product.write');
  const canImport = permissions.includes('product.import');
  const dialog = useEditDialog<Product>();
  const [importOpen, setImportOpen] = useState(false);
  const [mapOpen, setMapOpen] = useState(false);
  const [scheduling, setScheduling] = useState<Product | null>(null);
  const { t: ts } = useTranslation('schedule');

  // Tag rows show their product's name and price, so a change here refreshes them too.
  const list = useListQuery('productList', { storeId, toFilter: productFilter, related: ['tags'] });
  const selected = list.selected;

  const remove = useRowsCall('delProduct', list, (answer) => t('deletedCount', { count: answer.deleted }));
  const exportFile = useMutation({
    mutationFn: () => download(PRODUCT_EXPORT_PATH, list.body, { timeout: EXPORT_TIMEOUT_MS }),
    onSuccess: ({ blob, filename }) => {
      saveBlob(blob, filename ?? t('exportFile'));
      message.success(t('exported'));
    },
  });

  return (
    <ListPage
      list={list}
      ns="products"
      formName="productFilter"
      testId="product-table"
      pageSizes={PAGE_SIZES}
      filters={[
        textFilter(t, 'text', 220),
        selectFilter(t, 'bound', 140, [
          { value: 'bound', label: t('filter.boundYes') },
          { value: 'unbound', label: t('filter.boundNo') },
        ]),
      ]}
      columns={[
        {
          title: t('col.barcode'),
          dataIndex: 'barcode',
          width: 160,
          fixed: 'left',
          sort: 'barcode',
          render: (v: string) => <Typography.Text style={{ fontFamily: MONO_FAMILY }}>{v}</Typography.Text>,
        },
        { title: t('col.name'), dataIndex: 'name', width: 200, ellipsis: true, sort: 'name' },
        {
          title: t('col.price'),
          dataIndex: 'price',
          width: 100,
          align: 'right',
          sort: 'price',
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
          sort: 'priceChanges',
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
        { title: t('col.unit'), dataIndex: 'unit', width: 70, render: orDash },
        { title: t('col.spec'), dataIndex: 'spec', width: 100, ellipsis: true, render: orDash },
        { title: t('col.origin'), dataIndex: 'origin', width: 100, ellipsis: true, render: orDash },
        { title: t('col.grade'), dataIndex: 'grade', width: 70, render: orDash },
        { title: t('col.qrcode'), dataIndex: 'qrcode', width: 140, ellipsis: true, render: orDash },
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
          sort: 'updatedAt',
          render: (v: number) => parseTime(v),
        },
      ]}
      actions={
        canWrite
          ? {
              width: 250,
              items: (row) => [
                editAction(t, () => dialog.edit(row)),
                {
                  key: 'schedule',
                  label: ts('schedule'),
                  icon: <ClockCircleOutlined />,
                  testId: 'schedule-product',
                  onClick: () => setScheduling(row),
                },
                deleteAction(
                  t,
                  row.tags > 0
                    ? t('deleteBoundConfirm', { name: row.name, count: row.tags })
                    : t('deleteConfirm', { name: row.name }),
                  () => remove.mutateAsync([row.id]),
                ),
              ],
            }
          : undefined
      }
      toolbar={[
        {
          key: 'map',
          label: t('map.open'),
          icon: <SwapOutlined />,
          testId: 'field-map',
          onClick: () => setMapOpen(true),
        },
        canImport && {
          key: 'import',
          label: t('import.open'),
          icon: <ImportOutlined />,
          testId: 'import-products',
          onClick: () => setImportOpen(true),
        },
        {
          key: 'export',
          label: t('export'),
          icon: <ExportOutlined />,
          tooltip: t('exportHint'),
          loading: exportFile.isPending,
          testId: 'export-products',
          onClick: () => exportFile.mutate(),
        },
        canWrite && addAction(t, () => dialog.edit(null), 'add-product'),
      ]}
      bulk={
        canWrite
          ? [deleteAction(t, t('deleteManyConfirm', { count: selected.length }), () => remove.mutateAsync(selected))]
          : undefined
      }
    >
      <OnceOpened open={dialog.open}>
        <ProductFormModal
          open={dialog.open}
          product={dialog.record}
          onClose={dialog.close}
          onSaved={() => {
            dialog.close();
            list.changed();
          }}
        />
      </OnceOpened>
      <OnceOpened open={importOpen}>
        <ImportWizard open={importOpen} onClose={() => setImportOpen(false)} onImported={() => list.changed()} />
      </OnceOpened>
      <OnceOpened open={mapOpen}>
        <FieldMapModal open={mapOpen} editable={canImport} onClose={() => setMapOpen(false)} />
      </OnceOpened>
      <OnceOpened open={scheduling !== null}>
        <ScheduleModal
          open={scheduling !== null}
          target={scheduling ? { kind: 'add', productId: scheduling.id, name: scheduling.name } : null}
          chain
          onClose={() => setScheduling(null)}
          onSaved={() => setScheduling(null)}
        />
      </OnceOpened>
    </ListPage>
  );
}
