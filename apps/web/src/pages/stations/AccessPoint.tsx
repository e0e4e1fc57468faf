import type { AccessPointStatus, Station } from '@esl/contract';
import { STATION_ALARMS } from '@esl/contract/protocol';
import { Space, Tag, Typography } from 'antd';
import type { DescriptionsItemType } from 'antd/es/descriptions';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { dash } from '../../components/list/cells';

/*
 * What a bridge says of the vendor access point behind it (docs/PROTOCOL.md §5.7, docs/OEPL.md):
 * its alarms (the radio gone silent behind a healthy AP), run state, firmware, channel, tag count,
 * low-battery and timed-out tags. Stations that are not bridges show a dash.
 */

const alarmLabel = (t: TFunction, alarm: string) =>
  (STATION_ALARMS as readonly string[]).includes(alarm) ? t(`ap.alarm.${alarm}`) : t('ap.alarm.other');

/** The station list's cell: alarms first (red), then the AP's figures in short. */
export function AccessPointCell({ station }: { station: Station }) {
  const { t } = useTranslation('stations');
  const { ap, alarms } = station;
  if (!ap && alarms.length === 0) return dash;
  return (
    <Space size={4} wrap data-testid={`ap-status-${station.sn}`}>
      {alarms.map((a) => (
        <Tag key={a} color="red">
          {alarmLabel(t, a)}
        </Tag>
      ))}
      {ap && (
        <>
          <Tag color={ap.runstate === RUNNING ? 'green' : 'orange'}>{runLabel(t, ap)}</Tag>
          {ap.channel !== null && <Typography.Text>{t('ap.channelShort', { n: ap.channel })}</Typography.Text>}
          {ap.tags !== null && <Typography.Text>{t('ap.tagsShort', { count: ap.tags })}</Typography.Text>}
          {ap.lowBattery > 0 && <Tag color="gold">{t('ap.lowBatteryShort', { count: ap.lowBattery })}</Tag>}
          {ap.timeouts > 0 && <Tag color="gold">{t('ap.timeoutsShort', { count: ap.timeouts })}</Tag>}
        </>
      )}
    </Space>
  );
}

/** OpenEPaperLink's run state of a running AP. */
const RUNNING = 2;

function runLabel(t: TFunction, ap: AccessPointStatus) {
  return ap.runstate === RUNNING ? t('ap.running') : t('ap.notRunning', { run: ap.runstate, state: ap.apstate });
}

/** The detail rows: every figure the bridge reported, and the alarms. */
export function accessPointItems(t: TFunction, station: Station): DescriptionsItemType[] {
  const { ap, alarms } = station;
  if (!ap && alarms.length === 0) return [];
  const or = (v: number | string | null) => (v === null || v === '' ? '—' : v);
  const items: DescriptionsItemType[] = [
    {
      key: 'apAlarms',
      label: t('ap.alarms'),
      children:
        alarms.length === 0 ? (
          t('ap.noAlarm')
        ) : (
          <Space direction="vertical" size={0}>
            {alarms.map((a) => (
              <Typography.Text key={a} type="danger">
                {alarmLabel(t, a)}: {t(`ap.alarmHint.${STATION_ALARMS.includes(a as never) ? a : 'other'}`)}
              </Typography.Text>
            ))}
          </Space>
        ),
    },
  ];
  if (ap) {
    items.push(
      { key: 'apRun', label: t('ap.state'), children: runLabel(t, ap) },
      { key: 'apFw', label: t('ap.firmware'), children: or(ap.fw) },
      { key: 'apChannel', label: t('ap.channel'), children: or(ap.channel) },
      { key: 'apTags', label: t('ap.tags'), children: or(ap.tags) },
      { key: 'apLow', label: t('ap.lowBattery'), children: ap.lowBattery },
      { key: 'apTimeouts', label: t('ap.timeouts'), children: ap.timeouts },
    );
  }
  return items;
}
