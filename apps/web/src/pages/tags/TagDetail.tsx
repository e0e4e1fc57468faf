import type { Tag, TagDelivery, TagTask, TagTaskState } from '@esl/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Drawer, Flex, Tag as Mark, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ActionButton, type ListAction } from '../../components/list/ActionButton';
import { queryKeys } from '../../platform/queryKeys';
import { request } from '../../platform/request';
import { formatTime, parseTime } from '../../utils/time';
import { Battery, Signal, StatusTag } from './display';
import { ScreenImage } from './Screen';

/** Fixed colours, as the status tags have: a state reads the same under every theme colour. */
const STATE_COLOURS: Record<TagTaskState, string> = {
  render: 'purple',
  queued: 'blue',
  sent: 'cyan',
  accepted: 'geekblue',
  done: 'success',
  failed: 'error',
  cancelled: 'default',
};

/** While a task is unfinished the detail asks again this often (retries and waits send no notice). */
const POLL_MS = 5000;

const isOpen = (task: TagTask) => ['render', 'queued', 'sent', 'accepted'].includes(task.state);

/** "in 40 s", "in 3 min", "due now": how far off a time is, for the expected time of a task. */
export function fromNow(at: number, now: number): { key: 'due' | 'inSeconds' | 'inMinutes'; value: number } {
  const s = Math.round((at - now) / 1000);
  if (s <= 0) return { key: 'due', value: 0 };
  if (s < 120) return { key: 'inSeconds', value: s };
  return { key: 'inMinutes', value: Math.round(s / 60) };
}

function TaskCard({ task, lang }: { task: TagTask; lang: 'en' | 'zh-CN' }) {
  const { t } = useTranslation('tags');
  // Whole times: formatTime's "just now" would read oddly beside "in about 6 s".
  const time = (ms: number | null) => (ms === null ? '—' : parseTime(ms, '{m}-{d} {h}:{i}:{s}', lang));
  const open = isOpen(task);
  const ahead = task.expectedAt === null ? null : fromNow(task.expectedAt, Date.now());
  return (
    <Descriptions
      column={1}
      size="small"
      bordered
      data-testid="tag-task"
      data-kind={task.kind}
      data-state={task.state}
      title={
        <Flex gap={8} align="center" wrap>
          <span>{task.kindName}</span>
          <Mark color={STATE_COLOURS[task.state]} data-testid="tag-task-state">
            {t(`task.state.${task.state}`)}
          </Mark>
        </Flex>
      }
    >
      <Descriptions.Item label={t('task.attempts')}>{task.attempts}</Descriptions.Item>
      <Descriptions.Item label={t('col.station')}>
        {task.stationSn ? <Typography.Text code>{task.stationSn}</Typography.Text> : t('task.noStation')}
      </Descriptions.Item>
      {open ? (
        <Descriptions.Item label={t('task.expected')}>
          {task.expectedAt === null || ahead === null ? (
            t('task.expectedUnknown')
          ) : (
            <span data-testid="tag-task-expected">
              {time(task.expectedAt)}
              <Typography.Text type="secondary"> ({t(`task.${ahead.key}`, { value: ahead.value })})</Typography.Text>
            </span>
          )}
        </Descriptions.Item>
      ) : (
        <Descriptions.Item label={t('task.finished')}>{time(task.finishedAt)}</Descriptions.Item>
      )}
      <Descriptions.Item label={t('task.queued')}>{time(task.queuedAt)}</Descriptions.Item>
      {task.message ? (
        <Descriptions.Item label={open ? t('task.lastFailure') : t('task.reason')}>{task.message}</Descriptions.Item>
      ) : null}
    </Descriptions>
  );
}

/** Where the tag's deliveries stand: /mgr/tag/delivery, asked again when the row changes and while one is unfinished. */
function Deliveries({ storeId, tag, lang }: { storeId: number; tag: Tag; lang: 'en' | 'zh-CN' }) {
  const { t } = useTranslation('tags');
  const delivery = useQuery({
    queryKey: [...queryKeys.area('tags', storeId), 'delivery', tag.id, tag.shownVer, tag.desiredVer, tag.pending],
    queryFn: (): Promise<TagDelivery> => request('tagDelivery', { id: tag.id }, { quiet: true }),
    refetchInterval: (q) => (q.state.data?.tasks.some(isOpen) ? POLL_MS : false),
  });
  if (delivery.isError) return <Alert type="warning" showIcon message={t('task.loadFailed')} />;
  if (!delivery.data) return <Typography.Text type="secondary">…</Typography.Text>;
  const { tasks, wakeS } = delivery.data;
  return (
    <Flex vertical gap={12} data-testid="tag-deliveries">
      <Typography.Text type="secondary">
        {wakeS === null ? t('task.wakeUnknown') : t('task.wake', { value: wakeS })}
      </Typography.Text>
      {tasks.length === 0 ? (
        <Typography.Text type="secondary">{t('task.none')}</Typography.Text>
      ) : (
        tasks.map((task) => <TaskCard key={task.kind} task={task} lang={lang} />)
      )}
    </Flex>
  );
}

/** A tag's detail: both screens large, where its deliveries stand, and where it stands (status, station, signal, battery, last seen). */
export function TagDetail({
  storeId,
  tag,
  onClose,
  resend,
}: {
  storeId: number;
  tag: Tag | undefined;
  onClose: () => void;
  /** Sends the label again though the tag may show it already (absent for a role that may not). */
  resend?: ListAction;
}) {
  const { t, i18n } = useTranslation('tags');
  const lang = i18n.language === 'en' ? 'en' : 'zh-CN';
  return (
    <Drawer
      open={tag !== undefined}
      onClose={onClose}
      size={560}
      title={tag ? t('detail.title', { id: tag.hardwareId }) : ''}
      extra={resend && <ActionButton action={resend} place="toolbar" />}
      destroyOnHidden
    >
      {tag && (
        // Focusable, so a keyboard alone scrolls the drawer (its content may hold no control;
        // axe scrollable-region-focusable).
        <Flex
          vertical
          gap={16}
          data-testid="tag-detail-body"
          tabIndex={0}
          role="region"
          aria-label={t('detail.title', { id: tag.hardwareId })}
        >
          <Flex vertical gap={4}>
            <Typography.Text strong>{t('screen.shown')}</Typography.Text>
            <ScreenImage storeId={storeId} tag={tag} which="shown" height={200} maxWidth={500} />
          </Flex>
          <Flex vertical gap={4}>
            <Flex gap={8} align="center">
              <Typography.Text strong>{t('screen.desired')}</Typography.Text>
              {tag.pending ? (
                <Mark color="processing">{t('screen.pending')}</Mark>
              ) : (
                <Typography.Text type="secondary">{t('screen.upToDate')}</Typography.Text>
              )}
            </Flex>
            <ScreenImage storeId={storeId} tag={tag} which="desired" height={200} maxWidth={500} />
          </Flex>
          <Flex vertical gap={8}>
            <Typography.Text strong>{t('task.title')}</Typography.Text>
            <Deliveries storeId={storeId} tag={tag} lang={lang} />
          </Flex>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('col.status')}>
              <StatusTag status={tag.status} />
            </Descriptions.Item>
            <Descriptions.Item label={t('col.product')}>
              {tag.product ? `${tag.product.name} · ${tag.product.price}` : t('unbound')}
            </Descriptions.Item>
            <Descriptions.Item label={t('col.template')}>{tag.label.templateName || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('col.station')}>
              {tag.stationSn ? <Typography.Text code>{tag.stationSn}</Typography.Text> : '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('col.signal')}>
              <Signal dbm={tag.signal} />
            </Descriptions.Item>
            <Descriptions.Item label={t('col.battery')}>
              <Battery percent={tag.battery} />
            </Descriptions.Item>
            <Descriptions.Item label={t('col.lastSeen')}>
              {tag.lastSeen === null ? t('never') : formatTime(tag.lastSeen, '{y}-{m}-{d} {h}:{i}:{s}', lang)}
            </Descriptions.Item>
          </Descriptions>
        </Flex>
      )}
    </Drawer>
  );
}
