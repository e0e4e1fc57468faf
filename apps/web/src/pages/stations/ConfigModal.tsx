import {
  type BodyOf,
  HOST_NAME_CHARS,
  type Station,
  StationConfigFields,
  StationConfigInput,
  UPGRADE_URL_CHARS,
} from '@esl/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Form, Input, Modal, Radio, Select, Tag } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFields } from '../../components/form/FormFields';
import { contractFields, type FieldsOf, literal, maxLengthOf, type TextField } from '../../components/form/spec';
import { request } from '../../platform/request';
import { ConfigStateTag } from './ConfigStateTag';

type ConfigInput = BodyOf<'setStationConfig'>['config'];

interface Values {
  wifiSsid?: string;
  wifiPassword?: string;
  ntpServers?: string[];
  ipMode: 'dhcp' | 'static';
  ip?: string;
  mask?: string;
  gateway?: string;
  serverHost?: string;
  serverPort?: number | null;
  upgradeUrl?: string;
  heartbeatS: number;
  reportS: number;
}

const IPV4 = /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const f = contractFields(StationConfigFields.shape);

/** A static address, its mask or its gateway: a third of a row, required while it shows. */
const address = (name: 'ip' | 'mask' | 'gateway', label: string, example: string): TextField<typeof name> => ({
  kind: 'text',
  name,
  label,
  span: 8,
  // Spaces alone are told they are no address, not that the field is empty.
  required: true,
  whitespace: false,
  max: 15,
  pattern: [IPV4, 'rule.ipv4'],
  placeholder: literal(example),
});
/** How often the station speaks: half a row, in seconds. */
const interval = (name: 'heartbeatS' | 'reportS') =>
  f.number(name, { label: `config.${name}`, span: 12, required: true, suffix: 'seconds' });

/** The form's values as the call's config; an empty password field leaves the stored one alone. */
export function configBody(v: Values): ConfigInput {
  const text = (s: string | undefined) => (s ?? '').trim();
  const password = v.wifiPassword ?? '';
  return {
    wifiSsid: text(v.wifiSsid),
    ...(password ? { wifiPassword: password } : {}),
    ntpServers: (v.ntpServers ?? []).map((s) => s.trim()).filter(Boolean),
    ipMode: v.ipMode,
    ip: v.ipMode === 'static' ? text(v.ip) : '',
    mask: v.ipMode === 'static' ? text(v.mask) : '',
    gateway: v.ipMode === 'static' ? text(v.gateway) : '',
    serverHost: text(v.serverHost),
    serverPort: v.serverPort ?? null,
    upgradeUrl: text(v.upgradeUrl),
    heartbeatS: v.heartbeatS,
    reportS: v.reportS,
  };
}

interface Props {
  station: Station | null;
  onClose: () => void;
  onSaved: () => void;
}

/**
 * The station's desired configuration. Saved, it is sent to the station (now, if it is online)
 * and shows as pending until the station reports it applied. The WiFi password is write-only:
 * the field stays empty and says whether one is set; typing one replaces it.
 */
export function ConfigModal({ station, onClose, onSaved }: Props) {
  const { t } = useTranslation('stations');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const ipMode = Form.useWatch('ipMode', form);

  useEffect(() => {
    if (!station) return;
    const { wifiPasswordSet: _, ...c } = station.config;
    form.resetFields();
    form.setFieldsValue({ ...c, wifiPassword: '' });
  }, [station, form]);

  const save = useMutation({
    mutationFn: (v: Values) => request('setStationConfig', { id: station?.id ?? 0, config: configBody(v) }),
    onSuccess: (answer) => {
      message.success(answer.sent ? t('config.sent') : t('config.savedOffline'));
      onSaved();
    },
  });

  const passwordSet = station?.config.wifiPasswordSet ?? false;
  const fields: FieldsOf<Values> = [
    f.text('wifiSsid', { label: 'config.wifiSsid', span: 12, placeholder: 'config.wifiSsidPlaceholder' }),
    {
      kind: 'custom',
      name: 'wifiPassword',
      span: 12,
      label: (
        <span>
          {t('field.wifiPassword')}{' '}
          <Tag color={passwordSet ? 'green' : 'default'} data-testid="wifi-password-state">
            {passwordSet ? t('config.passwordSet') : t('config.passwordNotSet')}
          </Tag>
        </span>
      ),
      extra: passwordSet ? 'config.passwordKeep' : undefined,
      control: (
        <Input.Password
          maxLength={maxLengthOf(StationConfigInput.shape.wifiPassword)}
          autoComplete="new-password"
          placeholder={passwordSet ? '••••••••' : ''}
        />
      ),
    },
    {
      kind: 'custom',
      name: 'ntpServers',
      label: 'field.ntpServer',
      extra: 'config.ntpHint',
      span: 24,
      control: <Select mode="tags" maxCount={4} tokenSeparators={[',', ' ']} open={false} suffixIcon={null} />,
    },
    {
      kind: 'custom',
      name: 'ipMode',
      label: 'config.ipMode',
      span: 24,
      control: (
        <Radio.Group
          options={[
            { value: 'dhcp', label: t('config.dhcp') },
            { value: 'static', label: t('config.static') },
          ]}
        />
      ),
    },
    ...(ipMode === 'static'
      ? [
          address('ip', 'config.ip', '192.168.1.10'),
          address('mask', 'field.mask', '255.255.255.0'),
          address('gateway', 'field.gateway', '192.168.1.10'),
        ]
      : []),
    {
      kind: 'text',
      name: 'serverHost',
      label: 'config.serverHost',
      extra: 'config.serverHint',
      span: 16,
      max: HOST_NAME_CHARS,
    },
    f.number('serverPort', { label: 'config.serverPort', span: 8 }),
    {
      kind: 'text',
      name: 'upgradeUrl',
      label: 'field.upgradeUrl',
      span: 24,
      max: UPGRADE_URL_CHARS,
      placeholder: literal('https://'),
      rules: (t) => [{ type: 'url', message: t('rule.url') }],
    },
    interval('heartbeatS'),
    interval('reportS'),
  ];
  return (
    <Modal
      open={station !== null}
      title={
        <span>
          {t('config.title', { sn: station?.sn ?? '' })} {station && <ConfigStateTag station={station} />}
        </span>
      }
      okText={t('save')}
      cancelText={t('cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      width={680}
    >
      <Form<Values> form={form} name="stationConfig" layout="vertical" onFinish={(v) => save.mutate(v)}>
        <FormFields fields={fields} t={t} />
      </Form>
    </Modal>
  );
}
