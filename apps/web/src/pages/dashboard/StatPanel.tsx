import type { CallName } from '@esl/contract';
import { ErrorCode } from '@esl/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Skeleton } from 'antd';
import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, request } from '../../api/request';
import type { ChartKind } from './Chart';
import { toSeries } from './series';

// echarts is loaded only when a statistic has numbers to draw.
const Chart = lazy(() => import('./Chart'));

export type StatCall = Extract<
  CallName,
  'shopStatic' | 'tagModelDistribution' | 'tagShopDistribution' | 'tagChangeStat'
>;

interface Props {
  call: StatCall;
  kind: ChartKind;
}

/**
 * One statistics panel of SPEC.md §7. Until the tags module lands the server answers
 * NOT_AVAILABLE; the panel says so instead of showing numbers it does not have.
 */
export function StatPanel({ call, kind }: Props) {
  const { t } = useTranslation('dashboard');
  const stat = useQuery({
    queryKey: ['sumary', call],
    // Quiet: the expected "not available yet" answer is shown in the panel, not as an error toast.
    queryFn: () => request(call, {}, { quiet: true }),
    retry: false,
  });

  let body: ReactNode;
  if (stat.isPending) {
    body = <Skeleton active paragraph={{ rows: 5 }} />;
  } else if (stat.isError) {
    const notYet = stat.error instanceof ApiError && stat.error.code === ErrorCode.NOT_AVAILABLE;
    body = (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        style={{ padding: '24px 0' }}
        description={notYet ? t('stat.notYet') : t('stat.failed', { msg: stat.error.message })}
        data-testid={notYet ? `stat-${call}-pending` : `stat-${call}-failed`}
      >
        {!notYet && (
          <Button size="small" onClick={() => void stat.refetch()}>
            {t('retry')}
          </Button>
        )}
      </Empty>
    );
  } else {
    const series = toSeries(stat.data);
    body = series ? (
      <Suspense fallback={<Skeleton active paragraph={{ rows: 5 }} />}>
        <Chart kind={kind} series={series} />
      </Suspense>
    ) : (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('stat.empty')} />
    );
  }

  return (
    <Card size="small" title={t(`stat.${call}`)} style={{ height: '100%' }}>
      {body}
    </Card>
  );
}
