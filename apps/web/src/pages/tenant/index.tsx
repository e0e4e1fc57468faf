import { KeyOutlined, SaveOutlined } from '@ant-design/icons';
import { curlExample, type TenantBaseInfo, WECHAT_APPID } from '@esl/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Descriptions,
  Form,
  Input,
  Popconfirm,
  Result,
  Row,
  Skeleton,
  Typography,
} from 'antd';
import type { Rule } from 'antd/es/form';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../platform/queryKeys';
import { useRefreshView } from '../../platform/refreshView';
import { request } from '../../platform/request';
import { useUserStore } from '../../store/user';
import { noLineBreak } from '../shared/rules';
import { CallbackCard } from './CallbackCard';

interface TenantInfoValues {
  name: string;
  company: string;
  description: string;
}

const BASE_INFO = queryKeys.tenantInfo();

export default function ConfPage() {
  const { t } = useTranslation('tenant');
  const info = useQuery({ queryKey: BASE_INFO, queryFn: () => request('baseInfo', {}) });

  if (info.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (info.isError) {
    return (
      <Result
        status="warning"
        title={t('loadFailed')}
        extra={
          <Button type="primary" onClick={() => void info.refetch()}>
            {t('retry')}
          </Button>
        }
      />
    );
  }
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={12}>
        <TenantInfoCard info={info.data} />
      </Col>
      <Col xs={24} xl={12}>
        <AppIdCard info={info.data} />
        <div style={{ height: 16 }} />
        <ApiKeyCard info={info.data} />
      </Col>
      <Col xs={24}>
        <CallbackCard />
      </Col>
    </Row>
  );
}

function useNoLineBreak(): Rule {
  const { t } = useTranslation('tenant');
  return noLineBreak(t('rule.lineBreak'));
}

function TenantInfoCard({ info }: { info: TenantBaseInfo }) {
  const { t } = useTranslation('tenant');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const getInfo = useUserStore((s) => s.getInfo);
  const refresh = useRefreshView();
  const [form] = Form.useForm<TenantInfoValues>();
  const noLineBreak = useNoLineBreak();

  useEffect(() => {
    form.setFieldsValue({ name: info.name, company: info.company, description: info.description });
  }, [info, form]);

  const save = useMutation({
    mutationFn: (v: TenantInfoValues) =>
      request('alterTenantInfo', { name: v.name.trim(), company: v.company.trim(), description: v.description.trim() }),
    onSuccess: async (data) => {
      queryClient.setQueryData(BASE_INFO, data);
      message.success(t('saved'));
      // SPEC.md §4: a tenant change reloads the view (the navbar shows the tenant's name).
      await getInfo();
      refresh();
    },
  });

  return (
    <Card title={t('tenant.title')} size="small">
      <Form<TenantInfoValues> form={form} name="tenantInfo" layout="vertical" onFinish={(v) => save.mutate(v)}>
        <Form.Item
          name="name"
          label={t('tenant.name')}
          rules={[{ required: true, whitespace: true, message: t('rule.name') }, noLineBreak]}
        >
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="company" label={t('tenant.company')} rules={[noLineBreak]}>
          <Input maxLength={128} />
        </Form.Item>
        <Form.Item name="description" label={t('tenant.description')} rules={[noLineBreak]}>
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 6 }} maxLength={500} showCount />
        </Form.Item>
        <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={save.isPending}>
          {t('save')}
        </Button>
      </Form>
    </Card>
  );
}

function AppIdCard({ info }: { info: TenantBaseInfo }) {
  const { t } = useTranslation('tenant');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ appid: string }>();
  const noLineBreak = useNoLineBreak();

  useEffect(() => {
    form.setFieldsValue({ appid: info.appid });
  }, [info, form]);

  const save = useMutation({
    mutationFn: (appid: string) => request('alterAppId', { appid: appid.trim() }),
    onSuccess: (data) => {
      queryClient.setQueryData(BASE_INFO, data);
      message.success(t('saved'));
    },
  });

  return (
    <Card title={t('wechat.title')} size="small">
      <Form form={form} name="appid" layout="vertical" onFinish={(v) => save.mutate(v.appid ?? '')}>
        <Form.Item
          name="appid"
          label={t('wechat.appid')}
          extra={t('wechat.hint')}
          rules={[
            noLineBreak,
            {
              validator: (_, value?: string) => {
                const appid = value?.trim().toLowerCase() ?? '';
                return appid === '' || WECHAT_APPID.test(appid)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('wechat.invalid')));
              },
            },
          ]}
        >
          <Input maxLength={64} allowClear placeholder={t('wechat.placeholder')} />
        </Form.Item>
        <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={save.isPending}>
          {t('save')}
        </Button>
      </Form>
    </Card>
  );
}

/**
 * The key pair: ck in full, sk masked as the server answers it. A renewal answers sk whole, once:
 * it is shown here until the page is left, with a "try it" call using it.
 */
function ApiKeyCard({ info }: { info: TenantBaseInfo }) {
  const { t } = useTranslation('tenant');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [fresh, setFresh] = useState<string | null>(null);

  const regenerate = useMutation({
    mutationFn: () => request('recreateKey', {}),
    onSuccess: (keys) => {
      const masked = `${'•'.repeat(8)}${keys.sk.slice(-4)}`;
      queryClient.setQueryData<TenantBaseInfo>(BASE_INFO, (old) => (old ? { ...old, ck: keys.ck, sk: masked } : old));
      setFresh(keys.sk);
      message.success(t('key.regenerated'));
    },
  });

  return (
    <Card
      title={t('key.title')}
      size="small"
      extra={
        <Popconfirm
          title={t('key.confirmTitle')}
          description={t('key.confirm')}
          okText={t('key.regenerate')}
          okButtonProps={{ danger: true }}
          cancelText={t('cancel')}
          onConfirm={() => regenerate.mutateAsync().catch(() => undefined)}
        >
          <Button danger icon={<KeyOutlined />} loading={regenerate.isPending} data-testid="regenerate-key">
            {t('key.regenerate')}
          </Button>
        </Popconfirm>
      }
    >
      <Descriptions
        column={1}
        size="small"
        items={[
          {
            key: 'ck',
            label: t('key.ck'),
            children: info.ck ? (
              <Typography.Text code copyable data-testid="api-ck">
                {info.ck}
              </Typography.Text>
            ) : (
              <Typography.Text type="secondary">{t('key.none')}</Typography.Text>
            ),
          },
          {
            key: 'sk',
            label: t('key.sk'),
            children: fresh ? (
              <Typography.Text code copyable data-testid="api-sk">
                {fresh}
              </Typography.Text>
            ) : (
              <Typography.Text code data-testid="api-sk-masked">
                {info.sk}
              </Typography.Text>
            ),
          },
        ]}
      />
      {fresh && <Alert type="warning" showIcon style={{ marginTop: 8 }} message={t('key.once')} />}
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 4 }}>
        {t('key.hint')}
      </Typography.Paragraph>
      <Typography.Text strong>{t('key.tryIt')}</Typography.Text>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }}>
        {t('key.tryItHint')}
      </Typography.Paragraph>
      <Typography.Paragraph copyable={{ text: curlExample(window.location.origin, info.ck, fresh ?? '<sk>') }}>
        <pre
          data-testid="api-try-it"
          style={{ fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all', margin: 0 }}
        >
          {curlExample(window.location.origin, info.ck, fresh ?? '<sk>')}
        </pre>
      </Typography.Paragraph>
    </Card>
  );
}
