import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** A page that failed to load or crashed: the reason and a way to try again (kept light: it is in the entry). */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation('common');
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <div role="alert" style={{ padding: '80px 24px', textAlign: 'center' }}>
      <h2 style={{ fontWeight: 500 }}>{t('pageError')}</h2>
      <p style={{ color: '#888' }}>{detail}</p>
      <button type="button" onClick={() => window.location.reload()} style={{ padding: '6px 16px', cursor: 'pointer' }}>
        {t('retry')}
      </button>
    </div>
  );
}
