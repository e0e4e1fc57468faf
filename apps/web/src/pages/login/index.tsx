import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { LANGUAGES, type Language } from '@esl/contract';
import { Button, Input } from 'antd';
import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { language } from '../../platform/i18n';
import { setLanguage } from '../../platform/language';
import { useUserStore } from '../../store/user';
import './login.css';

const LANGUAGE_NAMES: Record<Language, string> = { 'zh-CN': '中文', en: 'English' };

/** Only a path inside the console may be a redirect target. */
export function safeRedirect(value: string | null): string {
  if (!value?.startsWith('/') || value.startsWith('//')) return '/';
  return value;
}

type Problems = { username?: string; password?: string };

/**
 * The sign-in page. Deliberately built without antd's Form (two fields need no form engine),
 * which keeps the first screen's JavaScript small.
 */
export default function LoginPage() {
  const { t } = useTranslation('login');
  const login = useUserStore((s) => s.login);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [loading, setLoading] = useState(false);
  const [capsLock, setCapsLock] = useState(false);

  const onKey = (event: KeyboardEvent<HTMLInputElement>) => {
    setCapsLock(event.getModifierState?.('CapsLock') ?? false);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Problems = {};
    if (!username.trim()) found.username = t('usernameRequired');
    if (!password) found.password = t('passwordRequired');
    setProblems(found);
    if (found.username || found.password) return;
    setLoading(true);
    try {
      await login(username.trim(), password);
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch {
      // The request client has shown why.
    } finally {
      setLoading(false);
    }
  };

  return (
    <main className="login-container">
      <form className="login-form" autoComplete="on" onSubmit={onSubmit} noValidate>
        <div className="login-title">
          <h1>{t('title')}</h1>
          <div className="login-lang" data-testid="lang-select">
            {LANGUAGES.map((lng) => (
              <button
                key={lng}
                type="button"
                className={lng === language ? 'active' : ''}
                disabled={lng === language}
                data-testid={`lang-${lng}`}
                onClick={() => setLanguage(lng)}
              >
                {LANGUAGE_NAMES[lng]}
              </button>
            ))}
          </div>
        </div>
        <div className="login-field">
          <Input
            size="large"
            prefix={<UserOutlined />}
            placeholder={t('username')}
            autoComplete="username"
            autoFocus
            name="username"
            aria-label={t('username')}
            status={problems.username ? 'error' : undefined}
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
          <div className="login-problem" role="alert">
            {problems.username}
          </div>
        </div>
        <div className="login-field">
          <Input.Password
            size="large"
            prefix={<LockOutlined />}
            placeholder={t('password')}
            autoComplete="current-password"
            name="password"
            aria-label={t('password')}
            status={problems.password ? 'error' : undefined}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            onKeyUp={onKey}
          />
          <div className="login-problem" role="alert">
            {problems.password ?? (capsLock ? <span className="caps-lock">{t('capsLock')}</span> : null)}
          </div>
        </div>
        <Button type="primary" size="large" htmlType="submit" block loading={loading} data-testid="login-submit">
          {t('logIn')}
        </Button>
      </form>
    </main>
  );
}
