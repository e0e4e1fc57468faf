import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

const CODE_KEY = 'x-admin-oauth-code';

/**
 * Target of an external sign-in window: hands the query to the window that opened it and
 * closes; opened directly, it goes to the login page.
 */
export default function AuthRedirectPage() {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  useEffect(() => {
    const query = window.location.search.slice(1);
    if (window.opener && query) {
      localStorage.setItem(CODE_KEY, query);
      window.close();
      return;
    }
    navigate('/login', { replace: true });
  }, [navigate]);
  return <p style={{ padding: 24 }}>{t('authRedirect')}</p>;
}
