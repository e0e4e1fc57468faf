import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** A page that failed to load or crashed: the reason and a way to try again. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation('common');
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <Result
      status="error"
      title={t('pageError')}
      subTitle={detail}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('retry')}
        </Button>
      }
    />
  );
}
