import { StopOutlined } from '@ant-design/icons';
import type { Promotion, PromotionState } from '@esl/contract';
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useEditDialog } from '../../components/FormModal';
import type { ListAction } from '../../components/list/ActionButton';
import { orDash } from '../../components/list/cells';
import { addAction, editAction, useRowsCall } from '../../components/list/commonActions';
import { selectFilter } from '../../components/list/filters';
import { ListPage } from '../../components/list/ListPage';
import { useListQuery } from '../../components/list/useListQuery';
import { useUserStore } from '../../store/user';
import { parseTime } from '../../utils/time';
import { storeScreen } from '../shared/StoreRequired';
import { PromotionModal } from './PromotionModal';

export default storeScreen('promotions', Promotions);

const STATE_COLOUR: Record<PromotionState, string> = {
  pending: 'processing',
  started: 'success',
  ended: 'default',
  cancelled: 'default',
};

/** The store's promotions (docs/PROMOTIONS.md): running first, then upcoming, then the rest. */
function Promotions({ storeId }: { storeId: number }) {
  const { t } = useTranslation('promotions');
  const canWrite = useUserStore((s) => s.permissions).includes('product.write');
  const dialog = useEditDialog<Promotion>();
  const list = useListQuery('promotionList', {
    storeId,
    toFilter: (v: { state?: PromotionState }) => ({ state: v.state }),
    related: ['tags'],
  });
  const cancel = useRowsCall('cancelPromotion', list, (a) => t('cancelled', { count: a.cancelled }), false);
  const cancelAction = (description: string, onClick: () => unknown): ListAction => ({
    key: 'cancel',
    label: t('cancelAction'),
    icon: <StopOutlined />,
    danger: true,
    confirm: { title: t('cancelAction'), description },
    onClick,
  });
  const nameOf = (row: Promotion) => row.name || t('unnamed', { id: row.id });
  const time = (local: string, row: Promotion) => (
    <span>
      <Typography.Text strong>{local.replace('T', ' ')}</Typography.Text>{' '}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {row.timeZone}
      </Typography.Text>
    </span>
  );

  return (
    <ListPage
      list={list}
      ns="promotions"
      formName="promotionFilter"
      testId="promotion-table"
      filters={[
        selectFilter(
          t,
          'state',
          140,
          (['started', 'pending', 'ended', 'cancelled'] as const).map((s) => ({ value: s, label: t(`state.${s}`) })),
        ),
      ]}
      toolbar={[canWrite && addAction(t, () => dialog.edit(null), 'promotion-add')]}
      columns={[
        {
          title: t('col.name'),
          dataIndex: 'name',
          width: 170,
          fixed: 'left',
          ellipsis: true,
          render: (_: string, row: Promotion) => nameOf(row),
        },
        {
          title: t('col.state'),
          dataIndex: 'state',
          width: 100,
          render: (s: PromotionState) => <Tag color={STATE_COLOUR[s]}>{t(`state.${s}`)}</Tag>,
        },
        { title: t('col.price'), dataIndex: 'price', width: 100 },
        // When it runs comes before what it covers: at 1280 px the start and end stay in view.
        {
          title: t('col.start'),
          dataIndex: 'startAt',
          width: 160,
          render: (v: string, row: Promotion) => time(v, row),
        },
        { title: t('col.end'), dataIndex: 'endAt', width: 160, render: (v: string, row: Promotion) => time(v, row) },
        {
          title: t('col.products'),
          dataIndex: 'barcodes',
          width: 220,
          ellipsis: true,
          render: (_: unknown, row: Promotion) =>
            row.barcodes.length
              ? t('products.barcodes', { count: row.barcodes.length, list: row.barcodes.join(', ') })
              : t('products.match', { key: row.matchKey, value: row.matchValue }),
        },
        { title: t('col.text'), dataIndex: 'text', width: 140, ellipsis: true, render: orDash },
        { title: t('col.created'), dataIndex: 'createdAt', width: 170, render: (v: number) => parseTime(v) },
      ]}
      actions={
        canWrite
          ? {
              width: 190,
              items: (row) =>
                row.state === 'pending' || row.state === 'started'
                  ? [
                      editAction(t, () => dialog.edit(row)),
                      cancelAction(t('cancelConfirm', { name: nameOf(row) }), () => cancel.mutateAsync([row.id])),
                    ]
                  : [],
            }
          : undefined
      }
      bulk={
        canWrite
          ? [
              cancelAction(t('cancelManyConfirm', { count: list.selected.length }), () =>
                cancel.mutateAsync(list.selected),
              ),
            ]
          : undefined
      }
    >
      <PromotionModal
        open={dialog.open}
        promotion={dialog.record}
        onClose={dialog.close}
        onSaved={() => {
          dialog.close();
          list.changed();
        }}
      />
    </ListPage>
  );
}
