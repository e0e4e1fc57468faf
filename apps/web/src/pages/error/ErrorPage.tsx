import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** The /401 and /404 pages. */
export function ErrorPage({ status }: { status: 401 | 404 }) {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  const forbidden = status === 401;
  return (
    <div style={{ padding: '80px 16px' }}>
      <Result
        status={forbidden ? '403' : '404'}
        title={String(status)}
        subTitle={
          <div data-testid={`page-${status}`}>
            <div style={{ fontSize: 18, color: '#222', marginBottom: 8 }}>{t(forbidden ? 'page401' : 'page404')}</div>
            <div>{t(forbidden ? 'page401Detail' : 'page404Detail')}</div>
          </div>
        }
        extra={[
          <Button key="back" onClick={() => navigate(-1)}>
            {t('back')}
          </Button>,
          <Button key="home" type="primary" onClick={() => navigate('/', { replace: true })}>
            {t('home')}
          </Button>,
        ]}
      />
    </div>
  );
}
