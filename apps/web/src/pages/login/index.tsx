import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Form, Input, Typography } from 'antd';
import { type KeyboardEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { LangSelect } from '../../components/LangSelect';
import { useUserStore } from '../../store/user';
import './login.css';

interface LoginForm {
  username: string;
  password: string;
}

/** Only a path inside the console may be a redirect target. */
export function safeRedirect(value: string | null): string {
  if (!value?.startsWith('/') || value.startsWith('//')) return '/';
  return value;
}

export default function LoginPage() {
  const { t } = useTranslation('login');
  const login = useUserStore((s) => s.login);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [loading, setLoading] = useState(false);
  const [capsLock, setCapsLock] = useState(false);

  const onKey = (event: KeyboardEvent<HTMLInputElement>) => {
    setCapsLock(event.getModifierState?.('CapsLock') ?? false);
  };

  const onFinish = async ({ username, password }: LoginForm) => {
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
    <div className="login-container">
      <Form<LoginForm>
        className="login-form"
        autoComplete="on"
        size="large"
        onFinish={onFinish}
        initialValues={{ username: '', password: '' }}
      >
        <div className="login-title">
          <Typography.Title level={3} style={{ margin: 0, color: '#eee' }}>
            {t('title')}
          </Typography.Title>
          <LangSelect style={{ color: '#fff', fontSize: 20 }} />
        </div>
        <Form.Item
          name="username"
          rules={[
            {
              validator: (_, v: string) =>
                v?.trim() ? Promise.resolve() : Promise.reject(new Error(t('usernameRequired'))),
            },
          ]}
        >
          <Input
            prefix={<UserOutlined />}
            placeholder={t('username')}
            autoComplete="username"
            autoFocus
            name="username"
          />
        </Form.Item>
        <Form.Item
          name="password"
          rules={[{ required: true, message: t('passwordRequired') }]}
          extra={capsLock ? <span className="caps-lock">{t('capsLock')}</span> : undefined}
        >
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('password')}
            autoComplete="current-password"
            name="password"
            onKeyUp={onKey}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={loading} data-testid="login-submit">
          {t('logIn')}
        </Button>
      </Form>
    </div>
  );
}
