import { ExportOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  PROBLEM_KINDS,
  PROBLEMS_EXPORT_PATH,
  type Problem,
  type ProblemKind,
  type ProblemsChainRow,
} from '@esl/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Flex, Select, Space, Statistic, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type Notice, subscribeNotices } from '../../platform/notice';
import { queryKeys } from '../../platform/queryKeys';
import { download, request, requestList } from '../../platform/request';
import { MONO_FAMILY } from '../../platform/theme';
import { useUserStore } from '../../store/user';
import { saveBlob } from '../../utils/download';
import { formatTime, parseTime } from '../../utils/time';
import { storeScreen } from '../shared/StoreRequired';
import { KIND_COLOUR } from './kinds';

/** A store's whole list takes longer than an ordinary call. */
const EXPORT_TIMEOUT_MS = 180_000;
/** Problems come and go with time alone (a tag not heard): asked again this often. */
const REFRESH_MS = 60_000;

export default storeScreen('problems', ProblemsPage);

/** Where each kind is fixed: the base stations for a station, the tags for a tag. */
const FIX_PATH: Record<ProblemKind, string> = {
  stationOffline: '/basemgr/ap',
  stationRadioSilent: '/basemgr/ap',
  updateFailed: '/basemgr/esl',
  pendingOverdue: '/basemgr/esl',
  labelOffline: '/basemgr/esl',
  misused: '/basemgr/esl',
  lowBattery: '/basemgr/esl',
  badSignal: '/basemgr/esl',
};

/** Row key: a tag can have several kinds, and a tag and a station can share an id. */
const keyOf = (p: Problem) => `${p.kind}:${p.subject}:${p.id}`;

/**
 * Problems to act on (docs/PROBLEMS.md): the store's counts per kind, the list (one kind or all)
 * with the action that fixes each, an XLSX export, and the chain's counts per store. Kept live by
 * the `problems.changed` notices of the sweep.
 */
function ProblemsPage({ storeId }: { storeId: number }) {
  const { t, i18n } = useTranslation('problems');
  const lang = i18n.language === 'en' ? 'en' : 'zh-CN';
  const { message } = App.useApp();
  const permissions = useUserStore((s) => s.permissions);
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<ProblemKind | undefined>(undefined);
  const [page, setPage] = useState({ page: 1, limit: 20 });
  const body = { kind, ...page };
  const list = useQuery({
    queryKey: [...queryKeys.lists('tags', storeId), 'problemsList', body],
    queryFn: () => requestList('problemsList', body),
    refetchInterval: REFRESH_MS,
  });
  const summary = useQuery({
    queryKey: queryKeys.problemsSummary(storeId),
    queryFn: () => request('problemsSummary', {}),
    refetchInterval: REFRESH_MS,
  });
  const chain = useQuery({
    queryKey: [...queryKeys.lists('tags', storeId), 'problemsChain'],
    queryFn: () => requestList('problemsChain', {}),
    enabled: permissions.includes('dashboard.read'),
    refetchInterval: REFRESH_MS,
  });
  // The sweep's notices: what started and ended in this store; the tags' own changes too.
  useEffect(
    () =>
      subscribeNotices((n: Notice) => {
        if (n.storeId !== storeId) return;
        if (n.type === 'problems.changed') {
          message.info(t('notice', { started: Number(n.started ?? 0), ended: Number(n.ended ?? 0) }));
        }
        if (n.type === 'problems.changed' || n.type === 'tag.changed') {
          void queryClient.invalidateQueries({ queryKey: queryKeys.lists('tags', storeId) });
        }
      }),
    [storeId, queryClient, message, t],
  );
  const refresh = useMutation({
    mutationFn: (ids: number[]) => request('refreshTag', { ids }),
    onSuccess: () => message.success(t('refreshed')),
  });
  const exportFile = useMutation({
    mutationFn: () => download(PROBLEMS_EXPORT_PATH, kind ? { kind } : {}, { timeout: EXPORT_TIMEOUT_MS }),
    onSuccess: ({ blob, filename }) => {
      saveBlob(blob, filename ?? t('exportFile'));
      message.success(t('exported'));
    },
  });

  const detail = (p: Problem) => {
    if (p.kind === 'lowBattery') return `${p.detail}%`;
    if (p.kind === 'badSignal') return `${p.detail} dBm`;
    if (!p.detail) return '';
    const words = t(`detail.${p.detail}`, { defaultValue: p.detail });
    return p.otherStore ? `${words}: ${p.otherStore}` : words;
  };
  const columns: ColumnsType<Problem> = [
    {
      title: t('col.kind'),
      dataIndex: 'kind',
      width: 130,
      render: (k: ProblemKind) => (
        <Tag color={KIND_COLOUR[k]} data-testid="problem-kind">
          {t(`kind.${k}`)}
        </Tag>
      ),
    },
    {
      title: t('col.code'),
      dataIndex: 'code',
      width: 130,
      render: (v: string, p) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text style={{ fontFamily: MONO_FAMILY }}>{v}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t(`subject.${p.subject}`)}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('col.name'),
      dataIndex: 'name',
      width: 160,
      ellipsis: true,
      render: (v: string, p) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text>{v || '–'}</Typography.Text>
          {p.barcode && (
            <Typography.Text type="secondary" style={{ fontSize: 12, fontFamily: MONO_FAMILY }}>
              {p.barcode}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: t('col.detail'),
      dataIndex: 'detail',
      width: 180,
      render: (_: string, p) => <span data-testid="problem-detail">{detail(p)}</span>,
    },
    {
      title: t('col.since'),
      dataIndex: 'since',
      width: 140,
      render: (v: number | null) =>
        v === null ? '–' : <Tooltip title={parseTime(v)}>{formatTime(v, '{y}-{m}-{d} {h}:{i}', lang)}</Tooltip>,
    },
    {
      title: t('col.action'),
      key: 'action',
      width: 220,
      render: (_: unknown, p) => (
        <Space size={4} wrap>
          <Typography.Text type="secondary">{t(`action.${p.kind}`)}</Typography.Text>
          {p.subject === 'tag' &&
          (p.kind === 'updateFailed' || p.kind === 'pendingOverdue') &&
          permissions.includes('tag.operate') ? (
            <Button
              size="small"
              icon={<ReloadOutlined />}
              loading={refresh.isPending}
              onClick={() => refresh.mutate([p.id])}
              data-testid="problem-refresh"
            >
              {t('refresh')}
            </Button>
          ) : (
            <Link to={FIX_PATH[p.kind]} data-testid="problem-fix">
              {t(p.subject === 'station' ? 'goStations' : 'goTags')}
            </Link>
          )}
        </Space>
      ),
    },
  ];

  const counts = summary.data?.counts;
  return (
    <Space orientation="vertical" size="middle" style={{ display: 'flex' }}>
      <Card size="small" data-testid="problems-summary">
        <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
          {t('intro')}
        </Typography.Paragraph>
        <Flex wrap gap={24} align="flex-start">
          {PROBLEM_KINDS.map((k) => (
            <button
              key={k}
              type="button"
              onClick={() => {
                setKind(kind === k ? undefined : k);
                setPage((p) => ({ ...p, page: 1 }));
              }}
              style={{ background: 'none', border: 'none', padding: 0, cursor: 'pointer', textAlign: 'left' }}
              aria-pressed={kind === k}
              data-testid={`problems-count-${k}`}
            >
              <Statistic
                title={t(`kind.${k}`)}
                value={counts?.[k] ?? '–'}
                loading={summary.isPending}
                styles={{ content: counts?.[k] ? { color: '#cf1322' } : undefined }}
              />
            </button>
          ))}
        </Flex>
      </Card>
      <Card
        size="small"
        title={t('title')}
        extra={
          <Space>
            <Select<ProblemKind | undefined>
              allowClear
              style={{ width: 200 }}
              placeholder={t('filter.all')}
              value={kind}
              onChange={(v) => {
                setKind(v);
                setPage((p) => ({ ...p, page: 1 }));
              }}
              options={PROBLEM_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
              data-testid="problems-kind"
            />
            <Tooltip title={t('exportHint')}>
              <Button
                icon={<ExportOutlined />}
                loading={exportFile.isPending}
                onClick={() => exportFile.mutate()}
                data-testid="export-problems"
              >
                {t('export')}
              </Button>
            </Tooltip>
          </Space>
        }
      >
        <Table<Problem>
          rowKey={keyOf}
          size="small"
          data-testid="problems-table"
          columns={columns}
          dataSource={list.data?.rows ?? []}
          loading={list.isFetching}
          // The columns' widths add up to 960: whole at 1280 px with the menu open; narrower, it scrolls.
          scroll={{ x: 960 }}
          locale={{ emptyText: t('empty') }}
          pagination={{
            current: page.page,
            pageSize: page.limit,
            total: list.data?.count ?? 0,
            showTotal: (n) => t('total', { count: n }),
            onChange: (p, limit) => setPage({ page: p, limit }),
          }}
        />
      </Card>
      {chain.data && chain.data.rows.length > 1 && <ChainCard rows={chain.data.rows} />}
    </Space>
  );
}

/** Per store the user may see (an administrator: every store), how many of each kind. */
function ChainCard({ rows }: { rows: ProblemsChainRow[] }) {
  const { t } = useTranslation('problems');
  const columns: ColumnsType<ProblemsChainRow> = [
    // 1,000 px in all: the card's width at 1280 px with the menu open, so no column is scrolled away.
    { title: t('chain.store'), dataIndex: 'name', width: 200, fixed: 'left', ellipsis: { showTitle: true } },
    { title: t('chain.total'), dataIndex: 'total', width: 64, align: 'right' },
    ...PROBLEM_KINDS.map((k) => ({
      title: t(`kind.${k}`),
      key: k,
      width: 92,
      align: 'right' as const,
      render: (_: unknown, r: ProblemsChainRow) =>
        r.counts[k] ? <Typography.Text type="danger">{r.counts[k]}</Typography.Text> : 0,
    })),
  ];
  return (
    <Card size="small" title={t('chain.title')} data-testid="problems-chain">
      <Table<ProblemsChainRow>
        rowKey="storeId"
        size="small"
        columns={columns}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 264 + PROBLEM_KINDS.length * 92 }}
      />
    </Card>
  );
}
