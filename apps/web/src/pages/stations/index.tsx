import {
  CodeOutlined,
  DeleteOutlined,
  EditOutlined,
  KeyOutlined,
  PlusOutlined,
  SettingOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import type { AddStationData, RenewStationSecretData, Station } from '@esl/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Badge, Descriptions, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dash, orDash } from '../../components/list/cells';
import { selectFilter, textFilter } from '../../components/list/filters';
import { ListPage } from '../../components/list/ListPage';
import { useListQuery } from '../../components/list/useListQuery';
import { request } from '../../platform/request';
import { MONO_FAMILY } from '../../platform/theme';
import { useUserStore } from '../../store/user';
import { formatTime, parseTime } from '../../utils/time';
import { trimmedOrUndefined } from '../shared/rules';
import { storeScreen } from '../shared/StoreRequired';
import { AccessPointCell, accessPointItems } from './AccessPoint';
import { CmdTerminal } from './CmdTerminal';
import { ConfigModal } from './ConfigModal';
import { ConfigStateTag } from './ConfigStateTag';
import { formatSkew, formatUptime } from './figures';
import { SecretModal } from './SecretModal';
import { StationModal } from './StationModal';
import { UsageBar } from './UsageBar';
import { useStationNotices } from './useStationNotices';

interface FilterValues {
  text?: string;
  online?: 'online' | 'offline';
}

/**
 * Runtime figures come live with the stations' heartbeats (notices); the list also asks again
 * now and then, in case the notice socket was down.
 */
const REFRESH_MS = 60_000;

export default storeScreen('stations', BaseStations);

function BaseStations({ storeId }: { storeId: number }) {
  const { t, i18n } = useTranslation('stations');
  const lang = i18n.language === 'en' ? 'en' : 'zh-CN';
  const { message } = App.useApp();
  const permissions = useUserStore((s) => s.permissions);
  const canWrite = permissions.includes('station.write');
  const canOperate = permissions.includes('station.operate');
  const canAct = canWrite || canOperate;
  // null: adding; a station: editing it.
  const [editing, setEditing] = useState<{ open: boolean; record: Station | null }>({ open: false, record: null });
  const [added, setAdded] = useState<AddStationData | null>(null);
  const [renewed, setRenewed] = useState<RenewStationSecretData | null>(null);
  const [configuring, setConfiguring] = useState<Station | null>(null);
  const [terminal, setTerminal] = useState<Station | null>(null);
  useStationNotices(storeId);

  const list = useListQuery('stationRuntime', {
    storeId,
    refetchInterval: REFRESH_MS,
    toFilter: (v: FilterValues) => ({
      text: trimmedOrUndefined(v.text),
      online: v.online === undefined ? undefined : v.online === 'online',
    }),
  });

  const remove = useMutation({
    mutationFn: (id: number) => request('delStation', { ids: [id] }),
    onSuccess: () => {
      message.success(t('deleted'));
      list.changed();
    },
  });
  const renew = useMutation({
    mutationFn: (id: number) => request('renewStationSecret', { id }),
    onSuccess: (answer) => setRenewed(answer),
  });

  const details = (row: Station) => {
    const or = (v: string) => v || '—';
    const server = row.serverAddress ? `${row.serverAddress}${row.serverPort ? `:${row.serverPort}` : ''}` : '—';
    return (
      <Descriptions
        size="small"
        column={{ xs: 1, md: 2, xl: 3 }}
        items={[
          ...(row.kind === 'oepl' ? [{ key: 'ap', label: t('field.apUrl'), children: row.apUrl }] : []),
          { key: 'model', label: t('field.moduleFirmware'), children: or(row.moduleFirmware) },
          { key: 'ntp', label: t('field.ntpServer'), children: or(row.ntpServer) },
          { key: 'gateway', label: t('field.gateway'), children: or(row.gateway) },
          { key: 'mask', label: t('field.mask'), children: or(row.mask) },
          { key: 'server', label: t('field.server'), children: server },
          { key: 'upgrade', label: t('field.upgradeUrl'), children: or(row.upgradeUrl) },
          {
            key: 'wifi',
            label: t('field.wifiPassword'),
            children: row.config.wifiPasswordSet ? t('config.passwordSet') : t('config.passwordNotSet'),
          },
          { key: 'config', label: t('col.config'), children: <ConfigStateTag station={row} /> },
          { key: 'queueBytes', label: t('field.queueBytes'), children: row.queueBytes ?? '—' },
          { key: 'tagsHeard', label: t('field.tagsHeard'), children: row.tagsHeard ?? '—' },
          { key: 'created', label: t('field.created'), children: parseTime(row.createdAt) },
          ...accessPointItems(t, row),
        ]}
      />
    );
  };

  return (
    <ListPage
      list={list}
      ns="stations"
      formName="stationFilter"
      testId="station-table"
      filters={[
        textFilter(t, 'text', 200),
        selectFilter(t, 'online', 130, [
          { value: 'online', label: t('online') },
          { value: 'offline', label: t('offline') },
        ]),
      ]}
      columns={[
        {
          title: t('col.sn'),
          dataIndex: 'sn',
          width: 150,
          fixed: 'left',
          render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
        },
        { title: t('col.name'), dataIndex: 'name', width: 140, ellipsis: true, render: orDash },
        {
          title: t('col.kind'),
          dataIndex: 'kind',
          width: 200,
          render: (_: unknown, row: Station) =>
            row.kind === 'oepl' ? (
              <Tooltip title={row.apUrl}>
                <Tag color="blue">{t('kind.oeplShort')}</Tag>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {row.apUrl.replace(/^https?:\/\//, '')}
                </Typography.Text>
              </Tooltip>
            ) : (
              t('kind.station')
            ),
        },
        { title: t('col.module'), dataIndex: 'module', width: 100, ellipsis: true, render: orDash },
        {
          title: t('col.online'),
          dataIndex: 'online',
          width: 90,
          render: (online: boolean) =>
            online ? <Badge status="success" text={t('online')} /> : <Badge status="default" text={t('offline')} />,
        },
        {
          title: t('ap.col'),
          dataIndex: 'ap',
          width: 240,
          render: (_: unknown, row: Station) => <AccessPointCell station={row} />,
        },
        {
          title: t('col.cpu'),
          dataIndex: 'cpu',
          width: 120,
          render: (v: number | null) => <UsageBar value={v} label={t('col.cpu')} />,
        },
        {
          title: t('col.memory'),
          dataIndex: 'memory',
          width: 120,
          render: (v: number | null) => <UsageBar value={v} label={t('col.memory')} />,
        },
        {
          title: t('col.disk'),
          dataIndex: 'disk',
          width: 120,
          render: (v: number | null) => <UsageBar value={v} label={t('col.disk')} />,
        },
        { title: t('col.ip'), dataIndex: 'ip', width: 130, render: orDash },
        {
          title: t('col.mac'),
          dataIndex: 'mac',
          width: 180,
          render: (v: string) =>
            v ? (
              <Typography.Text className="nowrap" style={{ fontFamily: MONO_FAMILY }}>
                {v}
              </Typography.Text>
            ) : (
              dash
            ),
        },
        { title: t('col.firmware'), dataIndex: 'firmware', width: 110, ellipsis: true, render: orDash },
        {
          title: t('col.uptime'),
          dataIndex: 'uptimeS',
          width: 110,
          render: (v: number | null) => (v === null ? dash : formatUptime(v, lang)),
        },
        {
          title: t('col.queue'),
          dataIndex: 'queueJobs',
          width: 90,
          align: 'right',
          render: (v: number | null) => (v === null ? dash : v),
        },
        {
          title: t('col.radioBusy'),
          dataIndex: 'radioBusyPct',
          width: 110,
          align: 'right',
          render: (v: number | null) => (v === null ? dash : `${v.toFixed(1)} %`),
        },
        {
          title: t('col.clockSkew'),
          dataIndex: 'clockSkewMs',
          width: 110,
          align: 'right',
          render: (v: number | null) =>
            v === null ? (
              dash
            ) : (
              <Typography.Text type={Math.abs(v) > 5000 ? 'warning' : undefined}>{formatSkew(v, lang)}</Typography.Text>
            ),
        },
        {
          title: t('col.config'),
          dataIndex: 'configState',
          width: 140,
          render: (_: unknown, row: Station) => <ConfigStateTag station={row} />,
        },
        {
          title: t('col.lastHeartbeat'),
          dataIndex: 'lastHeartbeat',
          width: 150,
          render: (v: number | null) =>
            v === null ? (
              <Typography.Text type="secondary">{t('never')}</Typography.Text>
            ) : (
              <Tooltip title={parseTime(v)}>{formatTime(v, '{y}-{m}-{d} {h}:{i}', lang)}</Tooltip>
            ),
        },
      ]}
      actions={
        canAct
          ? {
              width: 190,
              items: (row) => [
                canOperate && {
                  key: 'cmd',
                  label: t('cmd.open'),
                  icon: <CodeOutlined />,
                  iconOnly: true,
                  disabled: !row.online,
                  testId: `cmd-${row.sn}`,
                  onClick: () => setTerminal(row),
                },
                canWrite && {
                  key: 'edit',
                  label: t('edit'),
                  icon: <EditOutlined />,
                  iconOnly: true,
                  testId: `edit-${row.sn}`,
                  onClick: () => setEditing({ open: true, record: row }),
                },
                // An OEPL AP takes no network configuration from the server (docs/OEPL.md).
                canWrite &&
                  row.kind !== 'oepl' && {
                    key: 'config',
                    label: t('config.open'),
                    icon: <SettingOutlined />,
                    iconOnly: true,
                    testId: `config-${row.sn}`,
                    onClick: () => setConfiguring(row),
                  },
                canWrite &&
                  row.kind !== 'oepl' && {
                    key: 'renew',
                    label: t('renew.action'),
                    icon: <KeyOutlined />,
                    iconOnly: true,
                    loading: renew.isPending && renew.variables === row.id,
                    confirm: { title: t('renew.title'), description: t('renew.confirm', { sn: row.sn }) },
                    onClick: () => renew.mutateAsync(row.id),
                  },
                canWrite && {
                  key: 'delete',
                  label: t('delete'),
                  icon: <DeleteOutlined />,
                  iconOnly: true,
                  danger: true,
                  confirm: { title: t('deleteTitle'), description: t('deleteConfirm', { sn: row.sn }) },
                  onClick: () => remove.mutateAsync(row.id),
                },
              ],
            }
          : undefined
      }
      toolbar={[
        {
          key: 'refresh',
          label: t('refresh'),
          icon: <SyncOutlined spin={list.query.isFetching} />,
          tooltip: t('refreshHint'),
          onClick: () => list.query.refetch(),
        },
        canWrite && {
          key: 'add',
          label: t('add'),
          icon: <PlusOutlined />,
          primary: true,
          testId: 'add-station',
          onClick: () => setEditing({ open: true, record: null }),
        },
      ]}
      scrollX={2280}
      expandable={{ expandedRowRender: details }}
    >
      <StationModal
        open={editing.open}
        record={editing.record}
        onClose={() => setEditing((e) => ({ ...e, open: false }))}
        onAdded={(station) => {
          setEditing((e) => ({ ...e, open: false }));
          // An OEPL station has no secret to show: the server runs its bridge.
          if (station.secret) setAdded(station);
          message.success(t(station.kind === 'oepl' ? 'oepl.added' : 'added'));
          list.changed();
        }}
        onEdited={() => {
          setEditing((e) => ({ ...e, open: false }));
          message.success(t('edited'));
          list.changed();
        }}
      />
      <SecretModal station={added} onClose={() => setAdded(null)} />
      <SecretModal station={renewed} renewed onClose={() => setRenewed(null)} />
      <ConfigModal
        station={configuring}
        onClose={() => setConfiguring(null)}
        onSaved={() => {
          setConfiguring(null);
          list.changed();
        }}
      />
      <CmdTerminal station={terminal} onClose={() => setTerminal(null)} />
    </ListPage>
  );
}
