import type { Station } from '@esl/contract';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

/** Whether the station runs its desired configuration: none set, pending, or applied (with the revision). */
export function ConfigStateTag({
  station,
}: {
  station: Pick<Station, 'configState' | 'configRev' | 'configAppliedRev'>;
}) {
  const { t } = useTranslation('stations');
  if (station.configState === 'none') return <Tag>{t('config.state.none')}</Tag>;
  const applied = station.configState === 'applied';
  return (
    <Tooltip title={t('config.revisions', { rev: station.configRev, applied: station.configAppliedRev ?? '—' })}>
      <Tag color={applied ? 'green' : 'orange'} data-testid="config-state">
        {t(applied ? 'config.state.applied' : 'config.state.pending')}
      </Tag>
    </Tooltip>
  );
}
