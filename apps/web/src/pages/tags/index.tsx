import {
  AimOutlined,
  BulbOutlined,
  CalendarOutlined,
  DisconnectOutlined,
  FileTextOutlined,
  LayoutOutlined,
  LinkOutlined,
  RedoOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import { type LedPatternBody, TAG_STATUSES, type Tag } from '@esl/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Flex, Space, Tooltip, Typography } from 'antd';
import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addAction, deleteAction, useRowsCall } from '../../components/list/commonActions';
import { ListPage } from '../../components/list/ListPage';
import { useListQuery } from '../../components/list/useListQuery';
import { OnceOpened } from '../../components/OnceOpened';
import { queryKeys } from '../../platform/queryKeys';
import { request } from '../../platform/request';
import { MONO_FAMILY } from '../../platform/theme';
import { useUserStore } from '../../store/user';
import { formatTime, parseTime } from '../../utils/time';
import { StoreRequired } from '../shared/StoreRequired';
import { tagFilter } from './body';
import { Battery, ColourType, HardwareModel, ModelName, Signal, StatusTag, Temperature } from './display';
import { LabelCell } from './LabelCell';
import { filterModelOptions } from './modelOptions';
import { RequestPanel, type SentRequest, type TagOperation } from './RequestPanel';
import { ScreenCell } from './Screen';
import { useTagNotices } from './useTagNotices';

// The dialogs and the detail drawer load when they first open, not with the list.
const RulesModal = lazy(() => import('../templates/list/RulesModal').then((m) => ({ default: m.RulesModal })));
const AddTagsModal = lazy(() => import('./AddTagsModal').then((m) => ({ default: m.AddTagsModal })));
const BindModal = lazy(() => import('./BindModal').then((m) => ({ default: m.BindModal })));
const LedModal = lazy(() => import('./LedModal').then((m) => ({ default: m.LedModal })));
const PageModal = lazy(() => import('./PageModal').then((m) => ({ default: m.PageModal })));
const PageSchedulesModal = lazy(() => import('./PageSchedulesModal').then((m) => ({ default: m.PageSchedulesModal })));
const SetTemplateModal = lazy(() => import('./SetTemplateModal').then((m) => ({ default: m.SetTemplateModal })));
const TagDetail = lazy(() => import('./TagDetail').then((m) => ({ default: m.TagDetail })));

const PAGE_SIZES = [20, 50, 100, 200, 500, 1000];

type Operation = TagOperation;
interface OperateArgs {
  op: Operation;
  ids?: number[];
  from: string;
  led?: LedPatternBody;
  /** A page switch (docs/PAGES.md): the page and how long it stays. */
  page?: { page: number; staySeconds: number; at?: number };
  /** A refresh that sends the label even where the tag already shows it. */
  force?: boolean;
}

const dash = <Typography.Text type="secondary">—</Typography.Text>;

export default function TagsPage() {
  const { t } = useTranslation('tags');
  return (
    <StoreRequired title={t('needStore')} hint={t('needStoreHint')}>
      {(storeId) => <Tags storeId={storeId} />}
    </StoreRequired>
  );
}

function Tags({ storeId }: { storeId: number }) {
  const { t, i18n } = useTranslation('tags');
  const lang = i18n.language === 'en' ? 'en' : 'zh-CN';
  const { message } = App.useApp();
  const permissions = useUserStore((s) => s.permissions);
  const canWrite = permissions.includes('tag.write');
  const canBind = permissions.includes('tag.bind');
  const canOperate = permissions.includes('tag.operate');
  const canReadRules = permissions.includes('template.read');
  const canSetTemplate = permissions.includes('template.write');
  const [templating, setTemplating] = useState<readonly Tag[]>([]);
  const [rulesOpen, setRulesOpen] = useState(false);
  const [schedulesOpen, setSchedulesOpen] = useState(false);
  /** The tags whose LEDs are to flash, and which button asked. */
  const [flashing, setFlashing] = useState<{ ids: number[]; from: string } | null>(null);
  /** The tags to show another page of their labels, and which button asked. */
  const [paging, setPaging] = useState<{ ids: number[]; from: string } | null>(null);
  const [adding, setAdding] = useState(false);
  const [binding, setBinding] = useState<{ hardwareId?: string } | null>(null);
  const [sent, setSent] = useState<SentRequest | null>(null);
  const [detailId, setDetailId] = useState<number | null>(null);
  useTagNotices(storeId);

  // Product rows count their tags, so a change here refreshes them too.
  const list = useListQuery('tagList', { storeId, toFilter: tagFilter, related: ['products'], live: true });
  // Models the tenant's stations taught (docs/OEPL.md): the model filter offers them by their key.
  const learned = useQuery({ queryKey: queryKeys.learnedModels(), queryFn: () => request('learnedModelList', {}) });
  const selected = list.selected;
  /** A roll call's absentees are listed (from its result panel). */
  const absentSince = list.body.notSeenSince;

  const remove = useRowsCall('delTag', list, (answer) => t('deletedCount', { count: answer.deleted }));
  const unbind = useRowsCall('unbindTag', list, (answer) => t('unboundCount', { count: answer.unbound }), false);

  // Each operation answers its request id at once; the panel above the list follows its progress.
  // `from` tells which button asked (a row, the selection, the whole store), so only that one spins.
  const operate = useMutation({
    mutationFn: ({ op, ids, led, force, page }: OperateArgs) =>
      op === 'ledTag'
        ? request(op, { ids: ids ?? [], led: led as LedPatternBody })
        : op === 'showPage'
          ? request(op, {
              ids: ids ?? [],
              page: page?.page ?? 1,
              staySeconds: page?.staySeconds ?? 0,
              ...(page?.at ? { at: page.at } : {}),
            })
          : op === 'refreshTag'
            ? request(op, { ids: ids ?? [], force })
            : op === 'rollCallTag'
              ? request(op, { ids: ids ?? [] })
              : request(op, {}),
    onSuccess: (answer, { op }) => {
      message.success(t(`op.sent.${op}`));
      setSent({ op, requestId: answer.requestId, tasks: answer.tasks });
    },
  });
  // A finished request changed what tags show and report: the rows are fetched again.
  const onFinished = () => list.changed();
  const detail = detailId === null ? undefined : list.rows.find((r) => r.id === detailId);
  const busy = (op: Operation, from: string) =>
    operate.isPending && operate.variables.op === op && operate.variables.from === from;
  /** Refresh or roll call of some tags (a row's, the selection's), asked from `from`. */
  const operation = (op: 'refreshTag' | 'rollCallTag', ids: number[], from: string, iconOnly: boolean) => ({
    key: op,
    label: t(op === 'refreshTag' ? 'op.refresh' : 'op.rollCall'),
    icon: op === 'refreshTag' ? <SyncOutlined /> : <AimOutlined />,
    iconOnly,
    loading: busy(op, from),
    onClick: () => operate.mutate({ op, ids, from }),
  });
  /**
   * Send the label again even to tags that already show it (a tag showing garbage): asked first,
   * since every tag's screen flashes and its battery pays for it.
   */
  const resendOperation = (ids: number[], from: string) => ({
    key: 'resend',
    label: t('op.resend'),
    icon: <RedoOutlined />,
    testId: 'resend-tags',
    // No spinner of its own: the question's OK button spins until the request is answered (a
    // Popconfirm whose own button turned to loading while it was open rendered without end).
    confirm: { title: t('op.resend'), description: t('op.resendConfirm', { count: ids.length }), okText: t('ok') },
    onClick: () => operate.mutateAsync({ op: 'refreshTag', ids, from, force: true }),
  });
  /** LED flash of some tags: the pattern is asked first. */
  const ledOperation = (ids: number[], from: string, iconOnly: boolean) => ({
    key: 'ledTag',
    label: t('op.led'),
    icon: <BulbOutlined />,
    iconOnly,
    loading: busy('ledTag', from),
    testId: iconOnly ? undefined : 'led-tags',
    onClick: () => setFlashing({ ids, from }),
  });
  /** Another page of some tags' labels (docs/PAGES.md): the page and its stay are asked first. */
  const pageOperation = (ids: number[], from: string, iconOnly: boolean) => ({
    key: 'showPage',
    label: t('op.page'),
    icon: <FileTextOutlined />,
    iconOnly,
    loading: busy('showPage', from),
    testId: iconOnly ? undefined : 'page-tags',
    onClick: () => setPaging({ ids, from }),
  });
  /** Refresh or roll call of the whole store, after a question. */
  const storeOperation = (op: 'refreshAllTags' | 'rollCallAllTags') => ({
    key: op,
    label: t(op === 'refreshAllTags' ? 'op.refreshAll' : 'op.rollCallAll'),
    icon: op === 'refreshAllTags' ? <SyncOutlined /> : <AimOutlined />,
    confirm: {
      title: t(op === 'refreshAllTags' ? 'op.refreshAll' : 'op.rollCallAll'),
      description: t('op.allConfirm'),
      okText: t('ok'),
    },
    loading: busy(op, 'store'),
    onClick: () => operate.mutateAsync({ op, from: 'store' }),
  });

  return (
    <Flex vertical gap={16}>
      {sent && (
        <RequestPanel
          key={sent.requestId}
          sent={sent}
          onFinished={onFinished}
          onClose={() => setSent(null)}
          onShowAbsent={(since) => list.search({ notSeenSince: since })}
        />
      )}
      {absentSince !== undefined && (
        <Alert
          type="info"
          showIcon
          data-testid="absent-filter"
          title={t('absent.showing', { time: parseTime(absentSince) })}
          action={
            <Button size="small" onClick={() => list.search({})}>
              {t('absent.all')}
            </Button>
          }
        />
      )}
      <ListPage
        list={list}
        ns="tags"
        title={t('title')}
        formName="tagFilter"
        testId="tag-table"
        pageSizes={PAGE_SIZES}
        filters={[
          { kind: 'text', name: 'text', label: t('filter.text'), placeholder: t('filter.textPlaceholder'), width: 200 },
          {
            kind: 'select',
            name: 'status',
            label: t('filter.status'),
            placeholder: t('filter.all'),
            width: 150,
            options: TAG_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) })),
          },
          {
            kind: 'select',
            name: 'model',
            label: t('filter.model'),
            placeholder: t('filter.all'),
            width: 200,
            search: true,
            options: filterModelOptions(learned.data?.rows ?? [], {
              catalogue: t('filter.modelsCatalogue'),
              learned: t('filter.modelsLearned'),
            }),
          },
          {
            kind: 'select',
            name: 'bound',
            label: t('filter.bound'),
            placeholder: t('filter.all'),
            width: 120,
            options: [
              { value: 'bound', label: t('filter.boundYes') },
              { value: 'unbound', label: t('filter.boundNo') },
            ],
          },
        ]}
        columns={[
          {
            title: t('col.id'),
            dataIndex: 'hardwareId',
            width: 170,
            fixed: 'left',
            sort: 'hardwareId',
            render: (v: string, row) => (
              <Button
                type="link"
                size="small"
                style={{ fontFamily: MONO_FAMILY, padding: 0 }}
                aria-label={t('detail.open', { id: v })}
                onClick={() => setDetailId(row.id)}
              >
                {v}
              </Button>
            ),
          },
          {
            title: t('col.screen'),
            dataIndex: 'shownVer',
            width: 210,
            render: (_: unknown, row) => <ScreenCell storeId={storeId} tag={row} onOpen={() => setDetailId(row.id)} />,
          },
          {
            title: t('col.model'),
            dataIndex: 'modelName',
            width: 140,
            sort: 'model',
            render: (name: string, row) => <ModelName code={row.model} name={name} learned={row.learnedModel} />,
          },
          {
            title: t('col.colour'),
            dataIndex: 'colour',
            width: lang === 'en' ? 230 : 160,
            render: (c: Tag['colour']) => <ColourType colour={c} />,
          },
          {
            title: t('col.product'),
            dataIndex: 'product',
            width: 220,
            render: (p: Tag['product']) =>
              p ? (
                <Space orientation="vertical" size={0}>
                  <Typography.Text ellipsis style={{ maxWidth: 200 }}>
                    {p.name}
                  </Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {p.barcode} · {p.price}
                  </Typography.Text>
                </Space>
              ) : (
                <Typography.Text type="secondary">{t('unbound')}</Typography.Text>
              ),
          },
          {
            title: t('col.template'),
            dataIndex: 'label',
            width: 200,
            render: (label: Tag['label']) => <LabelCell label={label} />,
          },
          {
            // Where it hangs (docs/SHELF.md): aisle / bay / shelf · position.
            title: t('col.place'),
            key: 'place',
            width: 130,
            render: (_: unknown, tag: Tag) =>
              tag.aisle === null ? (
                '–'
              ) : (
                <span data-testid="tag-place">
                  {[tag.aisle, tag.bay ?? '–', tag.shelf ?? '–'].join(' / ')}
                  {tag.position === null ? '' : ` · ${tag.position}`}
                </span>
              ),
          },
          {
            title: t('col.status'),
            dataIndex: 'status',
            width: lang === 'en' ? 190 : 130,
            sort: 'status',
            render: (s: Tag['status']) => <StatusTag status={s} />,
          },
          {
            title: t('col.signal'),
            dataIndex: 'signal',
            width: 100,
            sort: 'signal',
            render: (v: number | null) => <Signal dbm={v} />,
          },
          {
            title: t('col.battery'),
            dataIndex: 'battery',
            width: 90,
            sort: 'battery',
            render: (v: number | null) => <Battery percent={v} />,
          },
          {
            title: t('col.temperature'),
            dataIndex: 'temperature',
            width: lang === 'en' ? 120 : 90,
            render: (v: number | null) => <Temperature celsius={v} />,
          },
          {
            title: t('col.hardwareModel'),
            dataIndex: 'hardwareModel',
            width: 150,
            ellipsis: true,
            render: (_: string, row) => <HardwareModel tag={row} />,
          },
          {
            title: t('col.station'),
            dataIndex: 'stationSn',
            width: 130,
            render: (v: string | null) => (v ? <Typography.Text code>{v}</Typography.Text> : dash),
          },
          {
            title: t('col.lastSeen'),
            dataIndex: 'lastSeen',
            width: 150,
            sort: 'lastSeen',
            render: (v: number | null) =>
              v === null ? (
                <Typography.Text type="secondary">{t('never')}</Typography.Text>
              ) : (
                <Tooltip title={parseTime(v)}>{formatTime(v, '{y}-{m}-{d} {h}:{i}', lang)}</Tooltip>
              ),
          },
        ]}
        actions={
          canWrite || canBind || canOperate
            ? {
                width: 190,
                items: (row) => [
                  canBind &&
                    (row.product
                      ? {
                          key: 'unbind',
                          label: t('unbind'),
                          icon: <DisconnectOutlined />,
                          iconOnly: true,
                          confirm: {
                            title: t('unbindTitle'),
                            description: t('unbindConfirm', { id: row.hardwareId, name: row.product.name }),
                          },
                          onClick: () => unbind.mutateAsync([row.id]),
                        }
                      : {
                          key: 'bind',
                          label: t('bind.action'),
                          icon: <LinkOutlined />,
                          iconOnly: true,
                          onClick: () => setBinding({ hardwareId: row.hardwareId }),
                        }),
                  canOperate && operation('refreshTag', [row.id], `row:${row.id}`, true),
                  canOperate && operation('rollCallTag', [row.id], `row:${row.id}`, true),
                  canOperate && ledOperation([row.id], `row:${row.id}`, true),
                  canOperate && pageOperation([row.id], `row:${row.id}`, true),
                  canWrite &&
                    deleteAction(
                      t,
                      t('deleteConfirm', { id: row.hardwareId }),
                      () => remove.mutateAsync([row.id]),
                      true,
                    ),
                ],
              }
            : undefined
        }
        toolbar={[
          canOperate && storeOperation('refreshAllTags'),
          canOperate && storeOperation('rollCallAllTags'),
          canBind && {
            key: 'bind',
            label: t('bind.action'),
            icon: <LinkOutlined />,
            testId: 'bind-tags',
            onClick: () => setBinding({}),
          },
          canReadRules && {
            key: 'rules',
            label: t('template.rulesAction'),
            icon: <LayoutOutlined />,
            testId: 'tag-template-rules',
            onClick: () => setRulesOpen(true),
          },
          // Page schedules (docs/PAGES.md): everyone here may read them; tag.write changes them.
          {
            key: 'pageSchedules',
            label: t('schedule.action'),
            icon: <CalendarOutlined />,
            testId: 'page-schedules-open',
            onClick: () => setSchedulesOpen(true),
          },
          canWrite && addAction(t, () => setAdding(true), 'add-tags'),
        ]}
        bulk={[
          canBind && {
            key: 'unbind',
            label: t('unbind'),
            icon: <DisconnectOutlined />,
            confirm: { title: t('unbindTitle'), description: t('unbindManyConfirm', { count: selected.length }) },
            onClick: () => unbind.mutateAsync(selected),
          },
          canOperate && operation('refreshTag', selected, 'selection', false),
          canOperate && resendOperation(selected, 'resend'),
          canOperate && operation('rollCallTag', selected, 'selection', false),
          canOperate && ledOperation(selected, 'selection', false),
          canOperate && pageOperation(selected, 'selection', false),
          canSetTemplate && {
            key: 'template',
            label: t('template.action'),
            icon: <LayoutOutlined />,
            testId: 'set-tag-template',
            onClick: () => setTemplating(list.rows.filter((r) => selected.includes(r.id))),
          },
          canWrite &&
            deleteAction(t, t('deleteManyConfirm', { count: selected.length }), () => remove.mutateAsync(selected)),
        ]}
      >
        <OnceOpened open={adding}>
          <AddTagsModal
            open={adding}
            onClose={() => setAdding(false)}
            onAdded={() => {
              setAdding(false);
              list.changed();
            }}
          />
        </OnceOpened>
        <OnceOpened open={binding !== null}>
          <BindModal
            open={binding !== null}
            hardwareId={binding?.hardwareId}
            onClose={() => setBinding(null)}
            onBound={() => list.changed()}
          />
        </OnceOpened>
        <OnceOpened open={flashing !== null}>
          <LedModal
            count={flashing?.ids.length ?? 0}
            loading={operate.isPending && operate.variables.op === 'ledTag'}
            onClose={() => setFlashing(null)}
            onFlash={(led) =>
              operate.mutateAsync({ op: 'ledTag', ids: flashing?.ids ?? [], from: flashing?.from ?? '', led })
            }
          />
        </OnceOpened>
        <OnceOpened open={paging !== null}>
          <PageModal
            count={paging?.ids.length ?? 0}
            loading={operate.isPending && operate.variables.op === 'showPage'}
            onClose={() => setPaging(null)}
            onShow={(page) =>
              operate.mutateAsync({ op: 'showPage', ids: paging?.ids ?? [], from: paging?.from ?? '', page })
            }
          />
        </OnceOpened>
        <OnceOpened open={templating.length > 0}>
          <SetTemplateModal tags={templating} onClose={() => setTemplating([])} onSaved={() => list.changed()} />
        </OnceOpened>
        <OnceOpened open={schedulesOpen}>
          <PageSchedulesModal
            open={schedulesOpen}
            storeId={storeId}
            canWrite={canWrite}
            onClose={() => setSchedulesOpen(false)}
          />
        </OnceOpened>
        {canReadRules && (
          <OnceOpened open={rulesOpen}>
            <RulesModal open={rulesOpen} canWrite={canSetTemplate} onClose={() => setRulesOpen(false)} />
          </OnceOpened>
        )}
        <OnceOpened open={detail !== undefined}>
          <TagDetail
            storeId={storeId}
            tag={detail}
            onClose={() => setDetailId(null)}
            resend={canOperate && detail ? resendOperation([detail.id], `detail:${detail.id}`) : undefined}
          />
        </OnceOpened>
      </ListPage>
    </Flex>
  );
}
