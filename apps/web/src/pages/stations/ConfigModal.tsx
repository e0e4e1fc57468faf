import type { BodyOf, Station } from '@esl/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Col, Form, Input, InputNumber, Modal, Radio, Row, Select, Tag } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
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
      forceRender
      width={680}
    >
      <Form<Values> form={form} name="stationConfig" layout="vertical" onFinish={(v) => save.mutate(v)}>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="wifiSsid" label={t('config.wifiSsid')}>
              <Input maxLength={32} placeholder={t('config.wifiSsidPlaceholder')} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="wifiPassword"
              label={
                <span>
                  {t('field.wifiPassword')}{' '}
                  <Tag color={passwordSet ? 'green' : 'default'} data-testid="wifi-password-state">
                    {passwordSet ? t('config.passwordSet') : t('config.passwordNotSet')}
                  </Tag>
                </span>
              }
              extra={passwordSet ? t('config.passwordKeep') : undefined}
            >
              <Input.Password maxLength={64} autoComplete="new-password" placeholder={passwordSet ? '••••••••' : ''} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="ntpServers" label={t('field.ntpServer')} extra={t('config.ntpHint')}>
              <Select mode="tags" maxCount={4} tokenSeparators={[',', ' ']} open={false} suffixIcon={null} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="ipMode" label={t('config.ipMode')}>
              <Radio.Group
                options={[
                  { value: 'dhcp', label: t('config.dhcp') },
                  { value: 'static', label: t('config.static') },
                ]}
              />
            </Form.Item>
          </Col>
          {ipMode === 'static' &&
            (['ip', 'mask', 'gateway'] as const).map((name) => (
              <Col span={8} key={name}>
                <Form.Item
                  name={name}
                  label={t(name === 'ip' ? 'config.ip' : `field.${name}`)}
                  rules={[
                    { required: true, message: t('rule.required') },
                    { pattern: IPV4, message: t('rule.ipv4') },
                  ]}
                >
                  <Input maxLength={15} placeholder={name === 'mask' ? '255.255.255.0' : '192.168.1.10'} />
                </Form.Item>
              </Col>
            ))}
          <Col span={16}>
            <Form.Item name="serverHost" label={t('config.serverHost')} extra={t('config.serverHint')}>
              <Input maxLength={253} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="serverPort" label={t('config.serverPort')}>
              <InputNumber min={1} max={65535} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item
              name="upgradeUrl"
              label={t('field.upgradeUrl')}
              rules={[{ type: 'url', message: t('rule.url') }]}
            >
              <Input maxLength={512} placeholder="https://" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="heartbeatS"
              label={t('config.heartbeatS')}
              rules={[{ required: true, message: t('rule.required') }]}
            >
              <InputNumber min={10} max={3600} precision={0} suffix={t('seconds')} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="reportS"
              label={t('config.reportS')}
              rules={[{ required: true, message: t('rule.required') }]}
            >
              <InputNumber min={5} max={3600} precision={0} suffix={t('seconds')} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}
