import { RedoOutlined, ReloadOutlined, SaveOutlined, SendOutlined } from '@ant-design/icons';
import {
  CALLBACK_STATE_LABELS,
  CALLBACK_TYPE_LABELS,
  CALLBACK_URL_MAX,
  type CallbackDelivery,
  type CallbackState,
  PRICE_WRONG_MINUTES_MAX,
} from '@esl/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, InputNumber, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/EmptyState';
import { language } from '../../platform/i18n';
import { ApiError, request, requestList } from '../../platform/request';
import { parseTime } from '../../utils/time';

interface Values {
  url: string;
  /** Minutes a tag may show a wrong price before the event (docs/PROOF.md). */
  priceWrongMinutes: number;
}

const SETTINGS = ['tenant', 'callback'];
const DELIVERIES = ['tenant', 'callback', 'deliveries'];
/** The given-up events: only their count is shown (they may be older than the recent list). */
const GIVEN_UP = ['tenant', 'callback', 'givenUp'];
const STATE_COLOURS: Record<CallbackState, string> = {
  pending: 'gold',
  sent: 'green',
  failed: 'red',
  dropped: 'default',
};

/**
 * The tenant's callbacks (webhooks): its callback URL, a test event, the recent deliveries with
 * their status, and the given-up events sent again (docs/INTEGRATION.md, "Callbacks").
 */
export function CallbackCard() {
  const { t } = useTranslation('tenantSettings');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const settings = useQuery({ queryKey: SETTINGS, queryFn: () => request('callbackInfo', {}) });
  const deliveries = useQuery({
    queryKey: DELIVERIES,
    queryFn: () => requestList('callbackLog', { page: 1, limit: 20 }),
    refetchInterval: 10_000,
  });
  const givenUp = useQuery({
    queryKey: GIVEN_UP,
    queryFn: () => requestList('callbackLog', { page: 1, limit: 1, state: 'failed' }),
    refetchInterval: 10_000,
  });
  const givenUpCount = givenUp.data?.count ?? 0;

  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [settings.data, form]);

  const save = useMutation({
    mutationFn: (v: Values) =>
      request('setCallback', { url: v.url.trim(), priceWrongMinutes: v.priceWrongMinutes }, { quiet: true }),
    // A refused address is the field's error, in the reader's language (the server's detail).
    onError: (err) => {
      const detail = err instanceof ApiError && err.code > 0 ? err.message.replace(/^[^:：]*[:：]\s*/, '') : '';
      form.setFields([{ name: 'url', errors: [detail || t('callback.saveFailed')] }]);
    },
    onSuccess: (data) => {
      queryClient.setQueryData(SETTINGS, data);
      void queryClient.invalidateQueries({ queryKey: DELIVERIES });
      message.success(data.url ? t('saved') : t('callback.cleared'));
    },
  });
  const resend = useMutation({
    mutationFn: () => request('resendCallbacks', {}),
    onSuccess: ({ resent }) => {
      if (resent > 0) message.success(t('callback.resent', { n: resent }));
      else message.info(t('callback.resentNone'));
      void queryClient.invalidateQueries({ queryKey: DELIVERIES });
      void queryClient.invalidateQueries({ queryKey: GIVEN_UP });
    },
  });
  const test = useMutation({
    mutationFn: () => request('testCallback', {}),
    onSuccess: () => {
      message.success(t('callback.testQueued'));
      void queryClient.invalidateQueries({ queryKey: DELIVERIES });
    },
  });

  const time = (ms: number | null) => (ms === null ? '—' : parseTime(ms, '{y}-{m}-{d} {h}:{i}:{s}'));
  const columns: ColumnsType<CallbackDelivery> = [
    { key: 'createdAt', title: t('callback.time'), render: (_, r) => time(r.createdAt), width: 170 },
    { key: 'type', title: t('callback.type'), render: (_, r) => CALLBACK_TYPE_LABELS[r.type][language] },
    {
      key: 'subject',
      title: t('callback.subject'),
      render: (_, r) =>
        r.hardwareId
          ? t('callback.aboutTag', { id: r.hardwareId })
          : r.requestId !== null
            ? t('callback.aboutRequest', { id: r.requestId })
            : '—',
    },
    {
      key: 'state',
      title: t('callback.state'),
      render: (_, r) => (
        <Tag color={STATE_COLOURS[r.state]} data-testid={`callback-state-${r.id}`}>
          {CALLBACK_STATE_LABELS[r.state][language]}
        </Tag>
      ),
    },
    { key: 'attempts', title: t('callback.attempts'), dataIndex: 'attempts', width: 80 },
    {
      key: 'result',
      title: t('callback.result'),
      render: (_, r) => {
        const text =
          r.lastStatus !== null
            ? `HTTP ${r.lastStatus}`
            : r.lastError
              ? t(`callback.error.${errorKey(r.lastError)}`)
              : '—';
        const next = r.state === 'pending' && r.attempts > 0 ? t('callback.nextAt', { time: time(r.nextAt) }) : '';
        return (
          <Tooltip title={r.excerpt || undefined}>
            <span>
              {text}
              {next && <Typography.Text type="secondary"> · {next}</Typography.Text>}
            </span>
          </Tooltip>
        );
      },
    },
  ];

  return (
    <Card title={t('callback.title')} size="small" data-testid="callback-card">
      <Form
        form={form}
        name="callback"
        layout="vertical"
        onFinish={(v) => save.mutate({ url: v.url ?? '', priceWrongMinutes: v.priceWrongMinutes })}
      >
        <Form.Item
          name="url"
          label={t('callback.url')}
          extra={t('callback.hint')}
          rules={[
            {
              validator: (_, value?: string) => {
                const v = value?.trim() ?? '';
                return v === '' || /^https?:\/\/\S+$/i.test(v)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('callback.invalid')));
              },
            },
          ]}
        >
          <Input
            maxLength={CALLBACK_URL_MAX}
            allowClear
            placeholder="https://erp.example.com/esl/callback"
            data-testid="callback-url"
          />
        </Form.Item>
        <Form.Item
          name="priceWrongMinutes"
          label={t('callback.priceWrong')}
          extra={t('callback.priceWrongHint')}
          rules={[{ required: true, message: t('callback.priceWrongRequired') }]}
        >
          <InputNumber
            min={1}
            max={PRICE_WRONG_MINUTES_MAX}
            precision={0}
            suffix={t('callback.minutes')}
            style={{ width: 180 }}
            data-testid="callback-price-wrong"
          />
        </Form.Item>
        <Space wrap>
          <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={save.isPending}>
            {t('save')}
          </Button>
          <Button
            icon={<SendOutlined />}
            disabled={!settings.data?.url}
            loading={test.isPending}
            onClick={() => test.mutate()}
            data-testid="callback-test"
          >
            {t('callback.test')}
          </Button>
          {givenUpCount > 0 && (
            <Tooltip title={t('callback.resendHint')}>
              <Button
                icon={<RedoOutlined />}
                disabled={!settings.data?.url}
                loading={resend.isPending}
                onClick={() => resend.mutate()}
                data-testid="callback-resend"
              >
                {t('callback.resend', { n: givenUpCount })}
              </Button>
            </Tooltip>
          )}
        </Space>
      </Form>
      <Space style={{ marginTop: 16, marginBottom: 8, width: '100%', justifyContent: 'space-between' }}>
        <Typography.Text strong>{t('callback.recent')}</Typography.Text>
        <Button
          size="small"
          icon={<ReloadOutlined />}
          onClick={() => {
            void deliveries.refetch();
            void givenUp.refetch();
          }}
          loading={deliveries.isFetching}
          aria-label={t('callback.reload')}
        />
      </Space>
      <Table<CallbackDelivery>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={deliveries.data?.rows ?? []}
        loading={deliveries.isPending}
        pagination={false}
        scroll={{ x: 720 }}
        locale={{ emptyText: <EmptyState title={t('callback.empty')} hint={t('callback.emptyHint')} /> }}
        data-testid="callback-deliveries"
      />
    </Card>
  );
}

/** The sender's reasons, as the console names them. */
function errorKey(error: string): 'timeout' | 'refused' | 'connection' | 'other' {
  if (error === 'timeout') return 'timeout';
  if (error === 'refused address') return 'refused';
  if (error.startsWith('connection failed')) return 'connection';
  return 'other';
}
