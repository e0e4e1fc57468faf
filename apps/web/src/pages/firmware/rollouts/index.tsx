import { ReloadOutlined, RocketOutlined, StopOutlined } from '@ant-design/icons';
import type { FirmwareChoice, UpgradeKind, UpgradeStarted, UpgradeTask } from '@esl/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Popconfirm, Progress, Segmented, Select, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';
import { useKeyboardScroll } from '../../../components/list/keyboardScroll';
import { type Notice, subscribeNotices } from '../../../platform/notice';
import { queryKeys } from '../../../platform/queryKeys';
import { request, requestList } from '../../../platform/request';
import { useUserStore } from '../../../store/user';
import { parseTime } from '../../../utils/time';
import { storeScreen } from '../../shared/StoreRequired';
import { applyProgress, fitsList, isFirmwareProgress, percent } from './progress';

const FILE_KIND = { apfw: 'ap', modulefw: 'module', tagfw: 'tag' } as const;
const STATE_COLOUR: Record<UpgradeTask['state'], string> = {
  queued: 'default',
  sent: 'processing',
  accepted: 'processing',
  installing: 'processing',
  done: 'success',
  failed: 'error',
  cancelled: 'warning',
};

export default storeScreen('firmware', FirmwareRollouts);

function FirmwareRollouts({ storeId }: { storeId: number }) {
  const { t } = useTranslation('firmware');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const canUpgrade = useUserStore((s) => s.permissions).includes('firmware.upgrade');
  const [kind, setKind] = useState<UpgradeKind>('apfw');
  const [firmwareId, setFirmwareId] = useState<number | null>(null);
  const [stationIds, setStationIds] = useState<number[]>([]);

  const tableBox = useRef<HTMLDivElement>(null);
  useKeyboardScroll(tableBox, t('tasks'));
  const tasksKey = useMemo(() => queryKeys.firmwareRollouts(storeId), [storeId]);
  const tasks = useQuery({
    queryKey: tasksKey,
    queryFn: () => requestList('upgradeList', { page: 1, limit: 200 }),
    refetchInterval: 30_000,
  });
  const choices = useQuery({
    queryKey: queryKeys.firmwareChoices(FILE_KIND[kind]),
    queryFn: () => requestList('firmwareChoices', { kind: FILE_KIND[kind] }),
  });
  const stations = useQuery({
    queryKey: queryKeys.rolloutStations(storeId),
    queryFn: () => requestList('stationRuntime', { page: 1, limit: 500 }),
    enabled: kind !== 'tagfw',
  });

  // Live: each device's step and bytes come as `firmware.progress` notices.
  useEffect(
    () =>
      subscribeNotices((notice: Notice) => {
        if (notice.storeId !== storeId || !isFirmwareProgress(notice)) return;
        let known = false;
        queryClient.setQueryData<{ rows: UpgradeTask[]; count: number }>(tasksKey, (data) => {
          if (!data) return data;
          known = data.rows.some((r) => r.id === notice.id);
          return { ...data, rows: data.rows.map((r) => applyProgress(r, notice)) };
        });
        if (!known || ['done', 'failed', 'cancelled'].includes(notice.state)) {
          void queryClient.invalidateQueries({ queryKey: tasksKey });
        }
      }),
    [queryClient, storeId, tasksKey],
  );

  const started = (r: UpgradeStarted) => {
    message.success(t(r.incompatible || r.current ? 'startedSkipped' : 'started', { ...r, count: r.tasks }));
    void queryClient.invalidateQueries({ queryKey: tasksKey });
  };
  const upgrade = useMutation({
    mutationFn: async (): Promise<UpgradeStarted> => {
      if (firmwareId === null) throw new Error('no firmware');
      if (kind === 'tagfw') return request('upgradeTags', { firmwareId });
      return request(kind === 'apfw' ? 'upgradeStations' : 'upgradeModules', { firmwareId, ids: stationIds });
    },
    onSuccess: started,
  });
  const stop = useMutation({
    mutationFn: () => request('stopTagUpgrade', {}),
    onSuccess: (r) => {
      message.success(t('stopped', r));
      void queryClient.invalidateQueries({ queryKey: tasksKey });
    },
  });

  const fits = (f: FirmwareChoice) => {
    const { list, more } = fitsList(f);
    return more > 0 ? t('fitsMore', { list, count: more }) : t('fits', { list });
  };
  const fwOptions = (choices.data?.rows ?? []).map((f: FirmwareChoice) => ({
    value: f.id,
    label: `${f.version} · ${f.name}`,
    title: fits(f),
  }));
  const chosen = choices.data?.rows.find((f) => f.id === firmwareId);
  const ready = firmwareId !== null && (kind === 'tagfw' || stationIds.length > 0);

  return (
    <Space orientation="vertical" size="middle" style={{ display: 'flex' }} data-testid="upgrades-page">
      {canUpgrade && (
        <Card title={t('start')} size="small">
          <Space orientation="vertical" style={{ display: 'flex' }}>
            <Space wrap>
              <Typography.Text>{t('target')}</Typography.Text>
              <Segmented<UpgradeKind>
                value={kind}
                onChange={(v) => {
                  setKind(v);
                  setFirmwareId(null);
                }}
                options={(['apfw', 'modulefw', 'tagfw'] as const).map((k) => ({
                  value: k,
                  label: t(`targets.${k}`),
                }))}
                data-testid="upgrade-target"
              />
            </Space>
            {choices.data && choices.data.rows.length === 0 ? (
              <Alert type="info" showIcon title={t('noFirmware')} />
            ) : (
              <Space wrap align="start">
                <Select
                  style={{ width: 280 }}
                  placeholder={t('firmwarePlaceholder')}
                  options={fwOptions}
                  value={firmwareId ?? undefined}
                  onChange={setFirmwareId}
                  loading={choices.isPending}
                  aria-label={t('firmware')}
                  data-testid="upgrade-firmware"
                />
                {kind !== 'tagfw' && (
                  <Select
                    mode="multiple"
                    style={{ minWidth: 280 }}
                    placeholder={t('stationsPlaceholder')}
                    value={stationIds}
                    onChange={setStationIds}
                    options={(stations.data?.rows ?? []).map((s) => ({ value: s.id, label: s.sn }))}
                    aria-label={t('stations')}
                    data-testid="upgrade-stations"
                  />
                )}
                {/* Every compatible tag of the store is a large change: asked first, as Stop is. */}
                <Popconfirm
                  title={t('upgradeTags')}
                  description={t('upgradeTagsConfirm', { version: chosen?.version ?? '' })}
                  okText={t('upgrade')}
                  cancelText={t('cancel')}
                  disabled={kind !== 'tagfw' || !ready}
                  onConfirm={() => upgrade.mutateAsync().catch(() => undefined)}
                >
                  <Button
                    type="primary"
                    icon={<RocketOutlined />}
                    disabled={!ready}
                    loading={upgrade.isPending}
                    onClick={kind === 'tagfw' ? undefined : () => upgrade.mutate()}
                    data-testid="upgrade-start"
                  >
                    {kind === 'tagfw' ? t('upgradeTags') : t('upgrade')}
                  </Button>
                </Popconfirm>
                {kind === 'tagfw' && (
                  <Popconfirm title={t('stop')} description={t('stopConfirm')} onConfirm={() => stop.mutateAsync()}>
                    <Button danger icon={<StopOutlined />} loading={stop.isPending} data-testid="upgrade-stop">
                      {t('stop')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            )}
            {chosen && <Typography.Text type="secondary">{fits(chosen)}</Typography.Text>}
          </Space>
        </Card>
      )}
      <Card
        title={t('tasks')}
        size="small"
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => void tasks.refetch()}>
            {t('refresh')}
          </Button>
        }
      >
        <div ref={tableBox}>
          <Table<UpgradeTask>
            rowKey="id"
            size="small"
            loading={tasks.isPending}
            dataSource={tasks.data?.rows ?? []}
            locale={{ emptyText: <EmptyState title={t('tasksEmptyTitle')} hint={t('tasksEmpty')} /> }}
            pagination={{ pageSize: 20, showSizeChanger: false }}
            scroll={{ x: 1100 }}
            data-testid="upgrade-table"
            columns={[
              {
                title: t('col.device'),
                dataIndex: 'device',
                width: 170,
                render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
              },
              { title: t('col.kind'), dataIndex: 'kind', width: 110, render: (k: UpgradeKind) => t(`kind.${k}`) },
              { title: t('col.station'), dataIndex: 'stationSn', width: 130 },
              {
                title: t('col.version'),
                key: 'version',
                width: 160,
                render: (_, r) => `${r.fromVersion || '—'} → ${r.version}`,
              },
              {
                title: t('col.state'),
                dataIndex: 'state',
                width: 130,
                render: (s: UpgradeTask['state']) => <Tag color={STATE_COLOUR[s]}>{t(`state.${s}`)}</Tag>,
              },
              {
                title: t('col.progress'),
                key: 'progress',
                width: 170,
                render: (_, r) => (
                  <Progress
                    percent={percent(r)}
                    size="small"
                    status={r.state === 'failed' ? 'exception' : r.state === 'done' ? 'success' : 'normal'}
                  />
                ),
              },
              { title: t('col.attempt'), dataIndex: 'attempt', width: 90, align: 'right' },
              {
                title: t('col.reason'),
                dataIndex: 'code',
                width: 200,
                render: (c: string) => (c ? t(`code.${c}`, { defaultValue: t('state.failed') }) : '—'),
              },
              { title: t('col.created'), dataIndex: 'createdAt', width: 170, render: (v: number) => parseTime(v) },
            ]}
          />
        </div>
      </Card>
    </Space>
  );
}
