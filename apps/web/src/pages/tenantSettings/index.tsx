import { SyncOutlined } from '@ant-design/icons';
import { AlterTenantInfoBody, curlExample, type TenantBaseInfo, WECHAT_APPID } from '@esl/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Popconfirm, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CardColumns, CardForm } from '../../components/form/CardForm';
import { FormFields } from '../../components/form/FormFields';
import { contractFields, type FieldsOf } from '../../components/form/spec';
import { Loaded } from '../../components/Loaded';
import { queryKeys } from '../../platform/queryKeys';
import { useRefreshView } from '../../platform/refreshView';
import { request } from '../../platform/request';
import { useUserStore } from '../../store/user';
import { CallbackCard } from './CallbackCard';

interface TenantInfoValues {
  name: string;
  company: string;
  description: string;
}

const BASE_INFO = queryKeys.tenantInfo();
const f = contractFields(AlterTenantInfoBody.shape);
const TENANT_INFO: FieldsOf<TenantInfoValues> = [
  f.text('name', { label: 'tenant.name', required: 'rule.name', lineBreak: true }),
  f.text('company', { label: 'tenant.company', lineBreak: true }),
  f.notes('description', { label: 'tenant.description', rows: [3, 6], lineBreak: true }),
];
const APPID: FieldsOf<{ appid?: string }> = [
  {
    kind: 'text',
    name: 'appid',
    label: 'wechat.appid',
    extra: 'wechat.hint',
    lineBreak: true,
    rules: (t) => [
      {
        validator: (_, value?: string) => {
          const appid = value?.trim().toLowerCase() ?? '';
          return appid === '' || WECHAT_APPID.test(appid)
            ? Promise.resolve()
            : Promise.reject(new Error(t('wechat.invalid')));
        },
      },
    ],
    max: 64,
    allowClear: true,
    placeholder: 'wechat.placeholder',
  },
];

export default function TenantSettingsPage() {
  const info = useQuery({ queryKey: BASE_INFO, queryFn: () => request('baseInfo', {}) });
  return (
    <Loaded query={info} ns="tenantSettings">
      {(data) => (
        <>
          <CardColumns
            left={<TenantInfoCard info={data} />}
            right={
              <>
                <AppIdCard info={data} />
                <div style={{ height: 16 }} />
                <ApiKeyCard info={data} />
              </>
            }
          />
          <div style={{ height: 16 }} />
          <CallbackCard />
        </>
      )}
    </Loaded>
  );
}

function TenantInfoCard({ info }: { info: TenantBaseInfo }) {
  const { t } = useTranslation('tenantSettings');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const getInfo = useUserStore((s) => s.getInfo);
  const refresh = useRefreshView();
  const values = useMemo(() => ({ name: info.name, company: info.company, description: info.description }), [info]);

  return (
    <CardForm
      title={t('tenant.title')}
      name="tenantInfo"
      values={values}
      save={(v: TenantInfoValues) =>
        request('alterTenantInfo', {
          name: v.name.trim(),
          company: v.company.trim(),
          description: v.description.trim(),
        })
      }
      onSaved={async (data) => {
        queryClient.setQueryData(BASE_INFO, data);
        message.success(t('saved'));
        // SPEC.md §4: a tenant change reloads the view (the navbar shows the tenant's name).
        await getInfo();
        refresh();
      }}
      submitText={t('save')}
    >
      <FormFields fields={TENANT_INFO} t={t} />
    </CardForm>
  );
}

function AppIdCard({ info }: { info: TenantBaseInfo }) {
  const { t } = useTranslation('tenantSettings');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const values = useMemo(() => ({ appid: info.appid }), [info]);

  return (
    <CardForm
      title={t('wechat.title')}
      name="appid"
      values={values}
      save={(v: { appid?: string }) => request('alterAppId', { appid: (v.appid ?? '').trim() })}
      onSaved={(data) => {
        queryClient.setQueryData(BASE_INFO, data);
        message.success(t('saved'));
      }}
      submitText={t('save')}
    >
      <FormFields fields={APPID} t={t} />
    </CardForm>
  );
}

/**
 * The key pair: ck in full, sk masked as the server answers it. A renewal answers sk whole, once:
 * it is shown here until the page is left, with a "try it" call using it.
 */
function ApiKeyCard({ info }: { info: TenantBaseInfo }) {
  const { t } = useTranslation('tenantSettings');
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
          <Button danger icon={<SyncOutlined />} loading={regenerate.isPending} data-testid="regenerate-key">
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
        {t('key.tryItHint')}{' '}
        <Typography.Link
          href="/api/docs"
          target="_blank"
          rel="noopener"
          data-testid="api-reference"
          // Inside a sentence a link is told from the words around it by more than its colour.
          style={{ textDecoration: 'underline' }}
        >
          {t('key.reference')}
        </Typography.Link>
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
