import { type BodyOf, type CallName, type DataOf, ErrorCode } from '@esl/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../platform/queryKeys';
import { ApiError, request } from '../../platform/request';
import { useUserStore } from '../../store/user';

export type StatCall = Extract<
  CallName,
  'shopStatic' | 'tagModelDistribution' | 'tagShopDistribution' | 'tagChangeStat'
>;

interface Props<N extends StatCall> {
  call: N;
  body?: BodyOf<N>;
  title: ReactNode;
  /** Beside the title, shown whether or not the statistic has answered (e.g. a range picker). */
  extra?: ReactNode;
  children: (data: DataOf<N>) => ReactNode;
}

/**
 * One statistics card of the dashboard (SPEC.md §7, /sumary/*): loading, then the panel's content,
 * or why there is none. Asked again when the current store changes.
 */
export function StatPanel<N extends StatCall>({ call, body, title, extra, children }: Props<N>) {
  const { t } = useTranslation('dashboard');
  const storeId = useUserStore((s) => s.curshop?.id ?? null);
  const stat = useQuery({
    queryKey: queryKeys.summary(call, storeId, body ?? {}),
    // Quiet: a refusal (e.g. no current store) is told in the panel, not as an error toast.
    queryFn: () => request(call, body, { quiet: true }),
    retry: false,
  });

  let content: ReactNode;
  if (stat.isPending) {
    content = <Skeleton active paragraph={{ rows: 5 }} />;
  } else if (stat.isError) {
    const noStore = stat.error instanceof ApiError && stat.error.code === ErrorCode.STORE_NOT_SET;
    content = (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        style={{ padding: '24px 0' }}
        description={noStore ? stat.error.message : t('stat.failed', { msg: stat.error.message })}
        data-testid={noStore ? `stat-${call}-nostore` : `stat-${call}-failed`}
      >
        {!noStore && (
          <Button size="small" onClick={() => void stat.refetch()}>
            {t('retry')}
          </Button>
        )}
      </Empty>
    );
  } else {
    content = children(stat.data);
  }

  return (
    <Card size="small" title={title} extra={extra} style={{ height: '100%' }} data-testid={`stat-${call}`}>
      {content}
    </Card>
  );
}

/** What a panel shows when its statistic has nothing to draw. */
export function NoData({ text, testId }: { text: string; testId?: string }) {
  return (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} style={{ padding: '24px 0' }} description={text} data-testid={testId} />
  );
}
