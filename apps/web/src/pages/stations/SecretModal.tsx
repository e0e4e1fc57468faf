import { CopyOutlined } from '@ant-design/icons';
import type { StationLogin } from '@esl/contract';
import { Alert, App, Button, Descriptions, Grid, Input, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MONO_FAMILY } from '../../platform/theme';
import { copyText } from '../shared/clipboard';

interface Props {
  /** The station just added (or whose secret was renewed), with its secret and login; null when closed. */
  station: { sn: string; name?: string; secret: string; login: StationLogin } | null;
  /** A renewed secret: the old one no longer works. */
  renewed?: boolean;
  onClose: () => void;
}

interface CopyFieldProps {
  value: string;
  label: string;
  id: string;
  onCopy: () => void;
  /** A phone: the value wraps over lines (all of it in view), the button below it. */
  narrow: boolean;
}

/** One value to enter on the station, read-only, with its copy button. */
function CopyField({ value, label, id, onCopy, narrow }: CopyFieldProps) {
  const { t } = useTranslation('stations');
  const button = (
    <Button
      icon={<CopyOutlined />}
      onClick={onCopy}
      data-testid={`copy-${id}`}
      aria-label={`${t('secret.copy')} ${label}`}
    >
      {t('secret.copy')}
    </Button>
  );
  const mono = { fontFamily: MONO_FAMILY, wordBreak: 'break-all' } as const;
  if (narrow) {
    return (
      <Space orientation="vertical" size={8} style={{ display: 'flex' }}>
        <Input.TextArea readOnly autoSize value={value} aria-label={label} data-testid={`station-${id}`} style={mono} />
        {button}
      </Space>
    );
  }
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input readOnly value={value} aria-label={label} data-testid={`station-${id}`} style={mono} />
      {button}
    </Space.Compact>
  );
}

/**
 * The station's MQTT secret, shown this once (the server keeps only its hash), with the rest of
 * what is entered on the station: where it connects (the address the server gives, plain and
 * with TLS) and the user name it logs in with.
 */
export function SecretModal({ station, renewed = false, onClose }: Props) {
  const { t } = useTranslation('stations');
  const { message } = App.useApp();
  // On a phone each label stands above its value, so the values keep the dialog's width.
  const wide = Grid.useBreakpoint().sm !== false;

  const copy = async (text: string, what: 'secret' | 'address' | 'username') => {
    if (await copyText(text)) message.success(t(`secret.copied.${what}`));
    else message.error(t('secret.copyFailed'));
  };

  const login = station?.login;
  const items =
    station && login
      ? [
          { key: 'sn', label: t('field.sn'), children: station.sn },
          { key: 'name', label: t('field.name'), children: station.name || '—' },
          ...(login.address
            ? [
                {
                  key: 'address',
                  label: t('secret.address'),
                  children: (
                    <CopyField
                      narrow={!wide}
                      id="address"
                      label={t('secret.address')}
                      value={login.address}
                      onCopy={() => void copy(login.address ?? '', 'address')}
                    />
                  ),
                },
              ]
            : []),
          ...(login.tlsAddress
            ? [
                {
                  key: 'tlsAddress',
                  label: t('secret.tlsAddress'),
                  children: (
                    <CopyField
                      narrow={!wide}
                      id="tls-address"
                      label={t('secret.tlsAddress')}
                      value={login.tlsAddress}
                      onCopy={() => void copy(login.tlsAddress ?? '', 'address')}
                    />
                  ),
                },
              ]
            : []),
          {
            key: 'username',
            label: t('secret.username'),
            children: (
              <Space orientation="vertical" size={4} style={{ display: 'flex' }}>
                <CopyField
                  narrow={!wide}
                  id="username"
                  label={t('secret.username')}
                  value={login.username}
                  onCopy={() => void copy(login.username, 'username')}
                />
                <Typography.Text type="secondary" data-testid="station-username-hint">
                  {t('secret.usernameHint', {
                    tenant: login.username.slice(0, login.username.indexOf('.')),
                    sn: station.sn,
                  })}
                </Typography.Text>
              </Space>
            ),
          },
          {
            key: 'secret',
            label: t('secret.secret'),
            children: (
              <CopyField
                narrow={!wide}
                id="secret"
                label={t('secret.secret')}
                value={station.secret}
                onCopy={() => void copy(station.secret, 'secret')}
              />
            ),
          },
        ]
      : [];

  return (
    <Modal
      open={station !== null}
      title={t(renewed ? 'secret.renewedTitle' : 'secret.title')}
      onCancel={onClose}
      mask={{ closable: false }}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('secret.done')}
        </Button>
      }
      width={760}
    >
      {station && login && (
        <Space orientation="vertical" size="middle" style={{ display: 'flex' }}>
          <Alert type="warning" showIcon title={t(renewed ? 'secret.renewedOnce' : 'secret.once')} />
          <Descriptions
            size="small"
            column={1}
            bordered
            layout={wide ? 'horizontal' : 'vertical'}
            items={items}
            styles={wide ? { label: { width: 150 } } : undefined}
          />
          {!login.address && !login.tlsAddress && (
            <Alert type="info" showIcon data-testid="station-no-address" title={t('secret.noAddress')} />
          )}
          {login.localOnly && (
            <Alert type="info" showIcon data-testid="station-local-only" title={t('secret.localOnly')} />
          )}
        </Space>
      )}
    </Modal>
  );
}
