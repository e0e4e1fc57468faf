import { PROBLEM_KINDS } from '@esl/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { queryKeys } from '../../platform/queryKeys';
import { request } from '../../platform/request';
import { KIND_COLOUR } from './kinds';

/**
 * The dashboard's compact card of the current store's problems (docs/PROBLEMS.md): each kind with
 * a count, linking to the problems page. Quiet when it cannot load (the dashboard's other panels
 * say why: no store set).
 */
export function ProblemsCard({ storeId }: { storeId: number }) {
  const { t } = useTranslation('problems');
  const summary = useQuery({
    queryKey: queryKeys.problemsSummary(storeId),
    queryFn: () => request('problemsSummary', {}, { quiet: true }),
    refetchInterval: 60_000,
  });
  const counts = summary.data?.counts;
  const shown = PROBLEM_KINDS.filter((k) => (counts?.[k] ?? 0) > 0);
  return (
    <Card
      size="small"
      title={t('card.title')}
      loading={summary.isPending}
      data-testid="problems-card"
      extra={
        <Link to="/basemgr/problems">
          <Button type="link" size="small">
            {t('card.open')}
          </Button>
        </Link>
      }
    >
      {shown.length === 0 ? (
        <Typography.Text type="secondary">{t('card.none')}</Typography.Text>
      ) : (
        <Flex wrap gap={8}>
          {shown.map((k) => (
            <Link key={k} to="/basemgr/problems" data-testid={`problems-card-${k}`}>
              <Tag color={KIND_COLOUR[k]} style={{ fontSize: 14, lineHeight: '24px' }}>
                {t(`kind.${k}`)} {counts?.[k]}
              </Tag>
            </Link>
          ))}
        </Flex>
      )}
    </Card>
  );
}
