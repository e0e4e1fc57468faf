import {
  type ShopStatic,
  TAG_CHANGE_DAYS,
  TAG_CHANGE_KINDS,
  type TagChangeDay,
  type TagModelCount,
  type TagStoreCount,
} from '@esl/contract';
import { Col, Row, Segmented, Skeleton, Typography } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toThousandFilter } from '../../utils/format';
import { changesOption, horizontalBarOption, pieOption, sum, topStores } from './charts';
import { NoData, StatPanel } from './StatPanel';

// echarts is loaded only when a statistic has numbers to draw.
const Chart = lazy(() => import('./Chart'));

/** How many stores the tags-per-store chart names; the rest are summed into one bar. */
const TOP_STORES = 10;
const DAY_CHOICES = [TAG_CHANGE_DAYS.min, 30, TAG_CHANGE_DAYS.max];

function Drawn({ option, testId, height }: { option: EChartsCoreOption; testId: string; height?: number }) {
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 5 }} />}>
      <Chart option={option} testId={testId} height={height} />
    </Suspense>
  );
}

/** A number with its label, for the figures of the store overview. */
function Figure({ id, label, hint, children }: { id: string; label: string; hint?: string; children: ReactNode }) {
  return (
    <Col xs={12} sm={8} xl={4}>
      <Typography.Text type="secondary" title={hint}>
        {label}
      </Typography.Text>
      <div style={{ fontSize: 22, lineHeight: '30px' }} data-testid={`figure-${id}`}>
        {children}
      </div>
    </Col>
  );
}

function Overview({ data }: { data: ShopStatic }) {
  const { t } = useTranslation(['dashboard', 'tags']);
  const option = useMemo(
    () =>
      // Beside the bars, a status's whole name has room (below them, English names were cut).
      horizontalBarOption(
        data.tags.byStatus.map((s) => ({ name: t(`tags:status.${s.status}`), value: s.count })),
        t('axis.tags'),
        true,
      ),
    [data, t],
  );
  const n = toThousandFilter;
  return (
    <>
      <Row gutter={[16, 12]}>
        <Figure id="stations" label={t('overview.stations')}>
          {n(data.stations.online)} / {n(data.stations.total)}
        </Figure>
        <Figure id="tags" label={t('overview.tags')}>
          {n(data.tags.total)}
        </Figure>
        <Figure id="bound" label={t('overview.bound')}>
          {n(data.tags.bound)}
        </Figure>
        <Figure id="unbound" label={t('overview.unbound')}>
          {n(data.tags.unbound)}
        </Figure>
        <Figure id="products" label={t('overview.products')}>
          {n(data.products)}
        </Figure>
        <Figure id="templates" label={t('overview.templates')}>
          {n(data.templates)}
        </Figure>
      </Row>
      <Typography.Paragraph type="secondary" style={{ margin: '12px 0 0' }} data-testid="overview-visible">
        {t('overview.visible', {
          stores: n(data.visible.stores),
          stations: n(data.visible.stations),
          tags: n(data.visible.tags),
          products: n(data.visible.products),
        })}
      </Typography.Paragraph>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('delivery.title')}
      </Typography.Title>
      <Row gutter={[16, 12]} data-testid="overview-delivery">
        <Figure id="queued" label={t('delivery.queued')}>
          {n(data.delivery.queued)}
        </Figure>
        <Figure id="inFlight" label={t('delivery.inFlight')}>
          {n(data.delivery.inFlight)}
        </Figure>
        <Figure id="done24h" label={t('delivery.done24h')}>
          {n(data.delivery.done24h)}
        </Figure>
        <Figure id="failed24h" label={t('delivery.failed24h')}>
          <Typography.Text type={data.delivery.failed24h > 0 ? 'danger' : undefined} style={{ fontSize: 'inherit' }}>
            {n(data.delivery.failed24h)}
          </Typography.Text>
        </Figure>
        <Figure id="p50" label={t('delivery.p50')} hint={t('delivery.hint')}>
          {data.delivery.p50LatencyS === null
            ? t('delivery.none')
            : t('delivery.seconds', { n: data.delivery.p50LatencyS.toFixed(1) })}
        </Figure>
      </Row>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('overview.byStatus')}
      </Typography.Title>
      {data.tags.total === 0 ? (
        <NoData text={t('empty.storeTags')} testId="stat-shopStatic-empty" />
      ) : (
        <Drawn option={option} testId="chart-shopStatic" height={240} />
      )}
    </>
  );
}

export function OverviewPanel() {
  const { t } = useTranslation('dashboard');
  return (
    <StatPanel call="shopStatic" title={t('stat.shopStatic')}>
      {(data) => <Overview data={data} />}
    </StatPanel>
  );
}

function Models({ rows }: { rows: TagModelCount[] }) {
  const { t } = useTranslation('dashboard');
  const option = useMemo(
    () =>
      pieOption(
        rows.map((r) => ({ name: r.name, value: r.count })),
        t('axis.tags'),
      ),
    [rows, t],
  );
  if (rows.length === 0) return <NoData text={t('empty.storeTags')} testId="stat-tagModelDistribution-empty" />;
  return (
    <>
      <Typography.Text type="secondary" data-testid="total-tagModelDistribution">
        {t('total.tags', { n: toThousandFilter(sum(rows.map((r) => r.count))) })}
      </Typography.Text>
      <Drawn option={option} testId="chart-tagModelDistribution" />
    </>
  );
}

export function ModelPanel() {
  const { t } = useTranslation('dashboard');
  return (
    <StatPanel call="tagModelDistribution" title={t('stat.tagModelDistribution')}>
      {(rows) => <Models rows={rows} />}
    </StatPanel>
  );
}

function Stores({ rows }: { rows: TagStoreCount[] }) {
  const { t } = useTranslation('dashboard');
  const option = useMemo(
    () =>
      horizontalBarOption(
        topStores(rows, TOP_STORES, (n) => t('otherStores', { n })),
        t('axis.tags'),
      ),
    [rows, t],
  );
  const total = sum(rows.map((r) => r.count));
  if (total === 0) return <NoData text={t('empty.allTags')} testId="stat-tagShopDistribution-empty" />;
  return (
    <>
      <Typography.Text type="secondary" data-testid="total-tagShopDistribution">
        {t('total.storeTags', { n: toThousandFilter(total), stores: toThousandFilter(rows.length) })}
      </Typography.Text>
      <Drawn
        option={option}
        testId="chart-tagShopDistribution"
        height={Math.max(200, 40 + 28 * Math.min(rows.length, TOP_STORES + 1))}
      />
    </>
  );
}

export function StorePanel() {
  const { t } = useTranslation('dashboard');
  return (
    <StatPanel call="tagShopDistribution" title={t('stat.tagShopDistribution')}>
      {(rows) => <Stores rows={rows} />}
    </StatPanel>
  );
}

function Changes({ days }: { days: TagChangeDay[] }) {
  const { t } = useTranslation('dashboard');
  const option = useMemo(
    () =>
      changesOption(
        days,
        TAG_CHANGE_KINDS.map((kind) => ({ kind, name: t(`change.${kind}`) })),
        t('axis.changes'),
        { delivered: t('change.delivered'), failed: t('change.failed'), valueName: t('axis.updates') },
      ),
    [days, t],
  );
  const total = sum(days.map((d) => d.count));
  const delivered = sum(days.map((d) => d.delivered));
  const failed = sum(days.map((d) => d.failed));
  if (total + delivered + failed === 0) {
    return <NoData text={t('empty.changes', { days: days.length })} testId="stat-tagChangeStat-empty" />;
  }
  return (
    <>
      <Typography.Text type="secondary" data-testid="total-tagChangeStat">
        {t('total.changes', {
          n: toThousandFilter(total),
          delivered: toThousandFilter(delivered),
          failed: toThousandFilter(failed),
          days: days.length,
        })}
      </Typography.Text>
      <Drawn option={option} testId="chart-tagChangeStat" />
    </>
  );
}

export function ChangePanel() {
  const { t } = useTranslation('dashboard');
  const [days, setDays] = useState<number>(TAG_CHANGE_DAYS.default);
  // Days start at the browser's midnight.
  const utcOffset = -new Date().getTimezoneOffset();
  return (
    <StatPanel
      call="tagChangeStat"
      body={{ days, utcOffset }}
      title={t('stat.tagChangeStat')}
      extra={
        <Segmented<number>
          size="small"
          value={days}
          onChange={setDays}
          options={DAY_CHOICES.map((d) => ({ value: d, label: t('days', { n: d }) }))}
          data-testid="change-days"
        />
      }
    >
      {(data) => <Changes days={data} />}
    </StatPanel>
  );
}
