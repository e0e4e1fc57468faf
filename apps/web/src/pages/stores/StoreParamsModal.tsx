import type { Store, StoreParams } from '@esl/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Col, Form, Input, InputNumber, Modal, Row, Select, Skeleton, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../platform/queryKeys';
import { request } from '../../platform/request';
import { StoreRules } from '../tags/StoreRules';

interface Props {
  /** The store whose parameters are shown; null when the dialog is closed. */
  store: Store | null;
  editable: boolean;
  onClose: () => void;
}

const TIME = /^$|^([01]\d|2[0-3]):[0-5]\d$/;
const LED_COLOURS = ['red', 'green', 'blue', 'white'] as const;

export function StoreParamsModal({ store, editable, onClose }: Props) {
  const { t } = useTranslation('stores');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<StoreParams>();
  const id = store?.id ?? 0;

  const params = useQuery({
    queryKey: queryKeys.storeParams(id),
    queryFn: () => request('getStoreParams', { id }),
    enabled: store !== null,
  });

  useEffect(() => {
    if (params.data) form.setFieldsValue(params.data.params);
  }, [params.data, form]);

  const save = useMutation({
    mutationFn: (p: StoreParams) => request('setStoreParams', { id, params: p }),
    onSuccess: (data) => {
      queryClient.setQueryData(queryKeys.storeParams(id), data);
      message.success(t('paramsSaved'));
      onClose();
    },
  });

  return (
    <Modal
      open={store !== null}
      title={t('paramsTitle', { name: store?.name ?? '' })}
      okText={t('save')}
      cancelText={editable ? t('cancel') : t('close')}
      okButtonProps={{ disabled: !editable || !params.data, style: editable ? undefined : { display: 'none' } }}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      forceRender
      width={600}
    >
      {params.isPending && store !== null && <Skeleton active paragraph={{ rows: 6 }} />}
      <Form<StoreParams>
        form={form}
        name="storeParams"
        layout="vertical"
        disabled={!editable}
        hidden={!params.data}
        // Merged over what was read: a parameter without a field here keeps its value, not the default.
        onFinish={(p) => params.data && save.mutate({ ...params.data.params, ...p })}
      >
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item
              name="currency"
              label={t('p.currency')}
              rules={[{ required: true, message: t('rule.required') }]}
            >
              <Input maxLength={4} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="priceDecimals"
              label={t('p.priceDecimals')}
              rules={[{ required: true, message: t('rule.required') }]}
            >
              <InputNumber min={0} max={3} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="heartbeatSeconds"
              label={t('p.heartbeatSeconds')}
              rules={[{ required: true, message: t('rule.required') }]}
            >
              <InputNumber min={10} max={3600} precision={0} suffix={t('seconds')} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="tagPollSeconds"
              label={t('p.tagPollSeconds')}
              rules={[{ required: true, message: t('rule.required') }]}
            >
              <InputNumber min={5} max={600} precision={0} suffix={t('seconds')} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="quietStart" label={t('p.quietStart')} rules={[{ pattern: TIME, message: t('rule.time') }]}>
              <Input placeholder="22:00" maxLength={5} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="quietEnd" label={t('p.quietEnd')} rules={[{ pattern: TIME, message: t('rule.time') }]}>
              <Input placeholder="07:00" maxLength={5} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="ledColour" label={t('p.ledColour')}>
              <Select options={LED_COLOURS.map((c) => ({ value: c, label: t(`led.${c}`) }))} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="ledSeconds"
              label={t('p.ledSeconds')}
              rules={[{ required: true, message: t('rule.required') }]}
            >
              <InputNumber min={1} max={600} precision={0} suffix={t('seconds')} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item
              name="tagMissedWakes"
              label={t('p.tagMissedWakes')}
              tooltip={t('p.tagMissedWakesHint')}
              rules={[{ required: true, message: t('rule.required') }]}
            >
              <InputNumber min={2} max={20} precision={0} suffix={t('wakes')} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item
              name="tagOfflineMinutes"
              label={t('p.tagOfflineMinutes')}
              tooltip={t('p.tagOfflineMinutesHint')}
              rules={[{ required: true, message: t('rule.required') }]}
            >
              <InputNumber min={5} max={1440} precision={0} suffix={t('minutes')} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item
              name="tagLostHours"
              label={t('p.tagLostHours')}
              tooltip={t('p.tagLostHoursHint')}
              rules={[{ required: true, message: t('rule.required') }]}
            >
              <InputNumber min={1} max={720} precision={0} suffix={t('hours')} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item
              name="tagLogDays"
              label={t('p.tagLogDays')}
              tooltip={t('p.tagLogDaysHint')}
              rules={[{ required: true, message: t('rule.required') }]}
            >
              <InputNumber min={1} max={3650} precision={0} suffix={t('days')} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item
              name="autoRefresh"
              label={t('p.autoRefresh')}
              valuePropName="checked"
              extra={t('p.autoRefreshHint')}
            >
              <Switch />
            </Form.Item>
          </Col>
        </Row>
      </Form>
      {store && params.data && <StoreRules storeId={store.id} />}
    </Modal>
  );
}
