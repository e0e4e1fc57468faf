import { StopOutlined } from '@ant-design/icons';
import type { ScheduledChange, ScheduleStatus } from '@esl/contract';
import { Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useEditDialog } from '../../components/FormModal';
import type { ListAction } from '../../components/list/ActionButton';
import { orDash } from '../../components/list/cells';
import { editAction, useRowsCall } from '../../components/list/commonActions';
import { selectFilter } from '../../components/list/filters';
import { ListPage } from '../../components/list/ListPage';
import { useListQuery } from '../../components/list/useListQuery';
import { MONO_FAMILY } from '../../platform/theme';
import { useUserStore } from '../../store/user';
import { parseTime } from '../../utils/time';
import { storeScreen } from '../shared/StoreRequired';
import { describeChanges } from './body';
import { ScheduleModal } from './ScheduleModal';

export default storeScreen('schedule', Schedule);

const STATUS_COLOUR: Record<ScheduleStatus, string> = {
  pending: 'processing',
  applied: 'success',
  cancelled: 'default',
};

/** The store's scheduled product changes: pending first (soonest first), editable and cancellable. */
function Schedule({ storeId }: { storeId: number }) {
  const { t } = useTranslation('schedule');
  const canWrite = useUserStore((s) => s.permissions).includes('product.write');
  const dialog = useEditDialog<ScheduledChange>();
  const list = useListQuery('scheduleList', {
    storeId,
    toFilter: (v: { status?: ScheduleStatus }) => ({ status: v.status }),
    related: ['tags'],
  });
  const cancel = useRowsCall('cancelSchedule', list, (a) => t('cancelled', { count: a.cancelled }), false);
  const cancelAction = (description: string, onClick: () => unknown): ListAction => ({
    key: 'cancel',
    label: t('cancelAction'),
    icon: <StopOutlined />,
    danger: true,
    confirm: { title: t('cancelAction'), description },
    onClick,
  });
  const at = (row: ScheduledChange) => row.localAt.replace('T', ' ');
  const when = (row: ScheduledChange) => (
    <span>
      <Typography.Text strong>{at(row)}</Typography.Text>{' '}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {row.timeZone}
      </Typography.Text>
    </span>
  );
  const status = (s: ScheduleStatus) => <Tag color={STATUS_COLOUR[s]}>{t(`status.${s}`)}</Tag>;
  const changes = (row: ScheduledChange) => describeChanges(row, (key, vars) => t(key, vars));
  const progress = (p: ScheduledChange['progress']) => (p ? `${p.held} / ${p.tags}` : '—');
  // A phone shows a row as a card: when and its status, the product, the change, how far ahead.
  const phone = (row: ScheduledChange) => (
    <>
      <Flex justify="space-between" align="center" gap={8} wrap>
        {when(row)}
        {status(row.status)}
      </Flex>
      <span>
        <Typography.Text>{row.productName}</Typography.Text>{' '}
        <Typography.Text type="secondary" style={{ fontSize: 12, fontFamily: MONO_FAMILY }}>
          {row.barcode}
        </Typography.Text>
      </span>
      <Typography.Text strong>{changes(row)}</Typography.Text>
      {row.progress && (
        <span>
          <Typography.Text type="secondary">{t('col.progress')} </Typography.Text>
          {progress(row.progress)}
        </span>
      )}
      {row.note && <Typography.Text type="secondary">{row.note}</Typography.Text>}
    </>
  );

  return (
    <ListPage
      list={list}
      ns="schedule"
      formName="scheduleFilter"
      testId="schedule-table"
      phone={phone}
      filters={[
        selectFilter(
          t,
          'status',
          140,
          (['pending', 'applied', 'cancelled'] as const).map((s) => ({ value: s, label: t(`status.${s}`) })),
        ),
      ]}
      columns={[
        {
          title: t('col.at'),
          dataIndex: 'localAt',
          width: 190,
          fixed: 'left',
          render: (_: string, row: ScheduledChange) => when(row),
        },
        {
          title: t('col.status'),
          dataIndex: 'status',
          width: 100,
          render: status,
        },
        // What changes comes first after the time and status: with how many tags hold it, in view
        // at 1280 px beside the sidebar and the actions (the columns after them scroll).
        { title: t('col.product'), dataIndex: 'productName', width: 160, ellipsis: true },
        {
          title: t('col.changes'),
          dataIndex: 'changes',
          width: 200,
          ellipsis: true,
          render: (_: unknown, row: ScheduledChange) => changes(row),
        },
        {
          // Tags holding the label for the change's time, of the tags showing the product (pending only).
          title: t('col.progress'),
          dataIndex: 'progress',
          width: 110,
          render: progress,
        },
        {
          title: t('col.barcode'),
          dataIndex: 'barcode',
          width: 150,
          render: (v: string) => <Typography.Text style={{ fontFamily: MONO_FAMILY }}>{v}</Typography.Text>,
        },
        { title: t('col.note'), dataIndex: 'note', width: 160, ellipsis: true, render: orDash },
        { title: t('col.created'), dataIndex: 'createdAt', width: 170, render: (v: number) => parseTime(v) },
      ]}
      actions={
        canWrite
          ? {
              width: 190,
              items: (row) =>
                row.status === 'pending'
                  ? [
                      editAction(t, () => dialog.edit(row)),
                      cancelAction(t('cancelConfirm', { name: row.productName, at: at(row) }), () =>
                        cancel.mutateAsync([row.id]),
                      ),
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
      <ScheduleModal
        open={dialog.open}
        target={dialog.record ? { kind: 'edit', change: dialog.record } : null}
        chain={false}
        onClose={dialog.close}
        onSaved={() => {
          dialog.close();
          list.changed();
        }}
      />
    </ListPage>
  );
}
