import { ExportOutlined, WarningOutlined } from '@ant-design/icons';
import { PROOF_EXPORT_PATH, type PriceProof, type ProofState, type ProofSummary } from '@esl/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Card, Flex, Space, Statistic, Tag, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { dash } from '../../components/list/cells';
import { checkFilter } from '../../components/list/filters';
import { type ListColumn, ListPage } from '../../components/list/ListPage';
import { useListQuery } from '../../components/list/useListQuery';
import { queryKeys } from '../../platform/queryKeys';
import { download, request } from '../../platform/request';
import { MONO_FAMILY } from '../../platform/theme';
import { saveBlob } from '../../utils/download';
import { formatTime, parseTime } from '../../utils/time';
import { storeScreen } from '../shared/StoreRequired';
import { useTagNotices } from '../tags/useTagNotices';
import { durationSince } from './duration';

/** A store's whole report takes longer than an ordinary call. */
const EXPORT_TIMEOUT_MS = 180_000;
/** Durations and states move on with time alone: asked again this often. */
const REFRESH_MS = 60_000;

export default storeScreen('proof', PriceCheck);

const STATE_COLOUR: Record<ProofState, string> = { agree: 'success', disagree: 'error', unknown: 'default' };

/**
 * Proof of price (docs/PROOF.md): every bound tag of the store with the price its screen was
 * drawn from beside the product's price now, disagreeing first; "disagreeing only" and an XLSX
 * export of what is shown. Kept live by the store's tag notices.
 */
function PriceCheck({ storeId }: { storeId: number }) {
  const { t, i18n } = useTranslation('proof');
  const lang = i18n.language === 'en' ? 'en' : 'zh-CN';
  const { message } = App.useApp();
  useTagNotices(storeId);
  const list = useListQuery('proofList', {
    storeId,
    toFilter: (v: { wrongOnly?: boolean }) => ({ wrongOnly: v.wrongOnly === true }),
    live: true,
    refetchInterval: REFRESH_MS,
  });
  const summary = useQuery({
    queryKey: queryKeys.proofSummary(storeId),
    queryFn: () => request('proofSummary', {}),
    refetchInterval: REFRESH_MS,
  });
  const alertMinutes = summary.data?.alertMinutes ?? null;
  const exportFile = useMutation({
    mutationFn: () => download(PROOF_EXPORT_PATH, list.body, { timeout: EXPORT_TIMEOUT_MS }),
    onSuccess: ({ blob, filename }) => {
      saveBlob(blob, filename ?? t('exportFile'));
      message.success(t('exported'));
    },
  });

  const cells = proofCells(t, lang, alertMinutes);
  const columns: ListColumn<PriceProof>[] = [
    {
      title: t('col.tag'),
      dataIndex: 'hardwareId',
      width: 130,
      fixed: 'left',
      render: (v: string) => <Typography.Text style={{ fontFamily: MONO_FAMILY }}>{v}</Typography.Text>,
    },
    {
      title: t('col.product'),
      dataIndex: 'productName',
      width: 190,
      ellipsis: true,
      render: (_: string, row: PriceProof) => cells.product(row),
    },
    {
      title: t('col.price'),
      dataIndex: 'price',
      width: 90,
      align: 'right',
      render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
    },
    {
      title: t('col.screenPrice'),
      dataIndex: 'screenPrice',
      width: 120,
      align: 'right',
      render: (_: string | null, row: PriceProof) => cells.screenPrice(row),
    },
    {
      title: t('col.state'),
      dataIndex: 'state',
      width: 160,
      render: (_: ProofState, row: PriceProof) => cells.state(row),
    },
    {
      title: t('col.wrongSince'),
      dataIndex: 'wrongSince',
      width: 110,
      render: (_: number | null, row: PriceProof) => cells.wrongFor(row) ?? dash,
    },
    {
      title: t('col.confirmedAt'),
      dataIndex: 'confirmedAt',
      width: 150,
      render: (v: number | null) => cells.time(v),
    },
  ];
  return (
    <Space orientation="vertical" size="middle" style={{ display: 'flex' }}>
      <SummaryCard summary={summary.data} />
      <ListPage
        list={list}
        ns="proof"
        formName="proofFilter"
        testId="proof-table"
        filters={[checkFilter(t, 'wrongOnly')]}
        columns={columns}
        phone={cells.phone}
        toolbar={[
          {
            key: 'export',
            label: t('export'),
            icon: <ExportOutlined />,
            tooltip: t('exportHint'),
            loading: exportFile.isPending,
            testId: 'export-proof',
            onClick: () => exportFile.mutate(),
          },
        ]}
      />
    </Space>
  );
}

/** What the cells of a row show, for the wide table and the phone's single column alike. */
function proofCells(t: TFunction, lang: 'en' | 'zh-CN', alertMinutes: number | null) {
  const time = (v: number | null) =>
    v === null ? (
      <Typography.Text type="secondary">{t('never')}</Typography.Text>
    ) : (
      <Tooltip title={parseTime(v)}>{formatTime(v, '{y}-{m}-{d} {h}:{i}', lang)}</Tooltip>
    );
  const product = (row: PriceProof) => (
    <Space orientation="vertical" size={0}>
      <Typography.Text>{row.productName}</Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12, fontFamily: MONO_FAMILY }}>
        {row.barcode}
      </Typography.Text>
    </Space>
  );
  /** The price the screen was drawn from (when, on hover), struck through when it is wrong. */
  const screenPrice = (row: PriceProof) =>
    row.screenPrice === null && !row.otherProduct ? (
      dash
    ) : (
      <Tooltip title={row.renderedAt === null ? undefined : t('drawnAt', { time: parseTime(row.renderedAt) })}>
        <Space size={4} wrap style={{ justifyContent: 'flex-end' }}>
          {row.screenPrice === null ? (
            dash
          ) : (
            <Typography.Text
              strong
              type={row.state === 'disagree' ? 'danger' : undefined}
              delete={row.state === 'disagree'}
            >
              {row.screenPrice}
            </Typography.Text>
          )}
          {row.otherProduct && <Tag>{t('otherProduct')}</Tag>}
        </Space>
      </Tooltip>
    );
  const state = (row: PriceProof) => (
    <Space size={4} wrap>
      <Tooltip title={t(`stateHint.${row.state}`)}>
        <Tag color={STATE_COLOUR[row.state]} data-testid="proof-state">
          {t(`state.${row.state}`)}
        </Tag>
      </Tooltip>
      {row.pending && <Tag color="processing">{t('pending')}</Tag>}
    </Space>
  );
  /** How long the screen has been wrong; red, with a mark, past the alert time. */
  const wrongFor = (row: PriceProof) => {
    if (row.wrongSince === null) return null;
    const d = durationSince(row.wrongSince, Date.now());
    const overdue = alertMinutes !== null && Date.now() - row.wrongSince > alertMinutes * 60_000;
    const overdueText = t('overdue', { count: alertMinutes ?? 0 });
    return (
      <Tooltip title={overdue ? overdueText : parseTime(row.wrongSince)}>
        <Space size={4}>
          {overdue && <WarningOutlined style={{ color: '#cf1322' }} aria-label={overdueText} />}
          <Typography.Text type={overdue ? 'danger' : undefined}>{t(d.key, d.vars)}</Typography.Text>
        </Space>
      </Tooltip>
    );
  };
  const phone = (row: PriceProof) => {
    const wrong = wrongFor(row);
    return (
      <Flex vertical gap={4}>
        <Flex justify="space-between" align="center" gap={8} wrap>
          <Typography.Text style={{ fontFamily: MONO_FAMILY }}>{row.hardwareId}</Typography.Text>
          {state(row)}
        </Flex>
        {product(row)}
        <Flex gap={16} wrap>
          <span>
            <Typography.Text type="secondary">{t('col.price')} </Typography.Text>
            <Typography.Text strong>{row.price}</Typography.Text>
          </span>
          <span>
            <Typography.Text type="secondary">{t('col.screenPrice')} </Typography.Text>
            {screenPrice(row)}
          </span>
        </Flex>
        <Flex gap={16} wrap>
          {wrong && (
            <span>
              <Typography.Text type="secondary">{t('col.wrongSince')} </Typography.Text>
              {wrong}
            </span>
          )}
          <span>
            <Typography.Text type="secondary">{t('col.confirmedAt')} </Typography.Text>
            {time(row.confirmedAt)}
          </span>
        </Flex>
      </Flex>
    );
  };
  return { time, product, screenPrice, state, wrongFor, phone };
}

/** The store's counts: bound tags, agreeing, disagreeing, unknown; and when a wrong price is reported. */
function SummaryCard({ summary }: { summary: ProofSummary | undefined }) {
  const { t } = useTranslation('proof');
  const figure = (key: 'total' | 'agree' | 'disagree' | 'unknown', colour?: string) => (
    <Statistic
      title={t(`summary.${key}`)}
      value={summary?.[key] ?? '–'}
      loading={summary === undefined}
      styles={{ content: colour && summary?.[key] ? { color: colour } : undefined }}
      data-testid={`proof-${key}`}
    />
  );
  return (
    <Card size="small" data-testid="proof-summary">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
        {t('intro')}
      </Typography.Paragraph>
      <Flex wrap gap={32} align="flex-start">
        {figure('total')}
        {figure('agree', '#389e0d')}
        {figure('disagree', '#cf1322')}
        {figure('unknown')}
      </Flex>
      {summary && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {t('summary.alert', { count: summary.alertMinutes })}
        </Typography.Paragraph>
      )}
    </Card>
  );
}
