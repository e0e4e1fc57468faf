import { Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** An honest stand-in for a screen that a later version brings. */
export function Pending({ name }: { name: string }) {
  const { t } = useTranslation(['common', 'route']);
  return <Result status="info" title={t(`route:${name}`)} subTitle={t('common:pending')} data-testid="pending-page" />;
}
