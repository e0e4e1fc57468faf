import { CloseOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Progress as Bar, Button, Card, Flex, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { subscribeNotices } from '../../platform/notice';
import { request } from '../../platform/request';
import { isFinished, latest, type Progress, percent, progressOfNotice } from './progress';

/** How often the page asks /mgr/request/get while no notice arrives (the socket may be down). */
const POLL_MS = 3000;

export type TagOperation = 'refreshTag' | 'rollCallTag' | 'refreshAllTags' | 'rollCallAllTags' | 'ledTag' | 'showPage';

const isRollCall = (op: TagOperation) => op === 'rollCallTag' || op === 'rollCallAllTags';

export interface SentRequest {
  op: TagOperation;
  requestId: number;
  tasks: number;
}

/**
 * A tag operation's request, live: done / failed / total and a bar from `request.progress`
 * notices, with /mgr/request/get polled as a fallback; a closing message once every task settled.
 */
export function RequestPanel({
  sent,
  onFinished,
  onClose,
  onShowAbsent,
}: {
  sent: SentRequest;
  onFinished: () => void;
  onClose: () => void;
  /** A roll call's absentees shown in the list: the tags not heard since it started (`since`). */
  onShowAbsent?: (since: number) => void;
}) {
  const { t } = useTranslation('tags');
  const { requestId } = sent;
  const [progress, setProgress] = useState<Progress>({
    id: requestId,
    total: sent.tasks,
    done: 0,
    failed: 0,
    status: sent.tasks === 0 ? 'done' : 'running',
  });
  const finished = isFinished(progress);

  useEffect(
    () => subscribeNotices((notice) => setProgress((p) => latest(p, progressOfNotice(notice, requestId)))),
    [requestId],
  );
  const polled = useQuery({
    queryKey: ['tags', 'request', requestId],
    queryFn: () => request('requestProgress', { id: requestId }, { quiet: true }),
    refetchInterval: finished ? false : POLL_MS,
    enabled: !finished,
  });
  useEffect(() => {
    const d = polled.data;
    if (d)
      setProgress((p) => latest(p, { id: d.id, total: d.total, done: d.done, failed: d.failed, status: d.status }));
  }, [polled.data]);
  // Once per request, whatever the parent passes on later renders.
  const told = useRef(false);
  const finishedRef = useRef(onFinished);
  finishedRef.current = onFinished;
  useEffect(() => {
    if (finished && !told.current) {
      told.current = true;
      finishedRef.current();
    }
  }, [finished]);

  const showAbsent = async () => {
    const p = polled.data ?? (await request('requestProgress', { id: requestId }));
    onShowAbsent?.(p.createdAt);
  };
  const counts = { done: progress.done, failed: progress.failed, total: progress.total };
  const outcome = progress.total === 0 ? 'nothing' : progress.failed > 0 ? 'someFailed' : 'allDone';
  return (
    <Card
      size="small"
      data-testid="request-progress"
      data-request-id={requestId}
      data-done={progress.done}
      data-failed={progress.failed}
      data-total={progress.total}
      data-finished={finished}
      title={t(`progress.title.${sent.op}`)}
      extra={<Button type="text" size="small" icon={<CloseOutlined />} aria-label={t('close')} onClick={onClose} />}
    >
      <Flex vertical gap={8}>
        <Bar
          percent={percent(progress)}
          success={{ percent: progress.total ? Math.floor((progress.done * 100) / progress.total) : 100 }}
          status={finished ? (progress.failed > 0 ? 'exception' : 'success') : 'active'}
          aria-label={t('progress.bar')}
        />
        <Typography.Text data-testid="request-counts">{t('progress.counts', counts)}</Typography.Text>
        {finished && (
          <Alert
            data-testid="request-outcome"
            type={outcome === 'someFailed' ? 'warning' : 'success'}
            showIcon
            title={t(`progress.${outcome}.${sent.op}`, counts)}
            action={
              onShowAbsent &&
              isRollCall(sent.op) &&
              progress.failed > 0 && (
                <Button size="small" data-testid="show-absent" onClick={() => void showAbsent()}>
                  {t('progress.showAbsent', { count: progress.failed })}
                </Button>
              )
            }
          />
        )}
      </Flex>
    </Card>
  );
}
