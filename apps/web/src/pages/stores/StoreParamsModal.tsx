import { type Store, StoreParams } from '@esl/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Form, Modal, Select, Skeleton } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFields } from '../../components/form/FormFields';
import { contractFields, type FieldsOf, literal, type TextField } from '../../components/form/spec';
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
const LED_COLOURS = StoreParams.shape.ledColour.unwrap().options;
const f = contractFields(StoreParams.shape);
/** The IANA time zones the browser knows (scheduled changes read times on the store's clock). */
const TIME_ZONES: string[] = (() => {
  const known = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return known.includes('UTC') ? known : ['UTC', ...known];
})();

type Count = 'heartbeatSeconds' | 'tagPollSeconds' | 'ledSeconds';
type Threshold =
  | 'tagMissedWakes'
  | 'tagOfflineMinutes'
  | 'tagLostHours'
  | 'tagLogDays'
  | 'lowBatteryPercent'
  | 'badSignalDbm'
  | 'pendingDeadlineMinutes';
/** A count of seconds in half a row; a tag-status threshold in a third, what it means in a tooltip. */
const count = (name: Count) => f.number(name, { label: `p.${name}`, span: 12, required: true, suffix: 'seconds' });
const threshold = (name: Threshold, suffix: string) =>
  f.number(name, { label: `p.${name}`, tooltip: `p.${name}Hint`, span: 8, required: true, suffix });
/** An end of the quiet hours, "HH:MM" (the contract's pattern bounds it to five characters). */
const quiet = (name: 'quietStart' | 'quietEnd', example: string): TextField<typeof name> => ({
  kind: 'text',
  name,
  label: `p.${name}`,
  span: 12,
  max: 5,
  placeholder: literal(example),
  pattern: [TIME, 'rule.time'],
});

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

  const fields: FieldsOf<StoreParams> = [
    // Spaces alone save an empty currency (the contract trims them), as they always did.
    f.text('currency', { label: 'p.currency', span: 12, required: true, whitespace: false }),
    f.number('priceDecimals', { label: 'p.priceDecimals', span: 12, required: true }),
    count('heartbeatSeconds'),
    count('tagPollSeconds'),
    quiet('quietStart', '22:00'),
    quiet('quietEnd', '07:00'),
    {
      kind: 'custom',
      name: 'ledColour',
      label: 'p.ledColour',
      span: 12,
      control: <Select options={LED_COLOURS.map((c) => ({ value: c, label: t(`led.${c}`) }))} />,
    },
    count('ledSeconds'),
    threshold('tagMissedWakes', 'wakes'),
    threshold('tagOfflineMinutes', 'minutes'),
    threshold('tagLostHours', 'hours'),
    threshold('tagLogDays', 'days'),
    // Problems to act on: when a battery is low, a signal bad, a label pending too long.
    threshold('lowBatteryPercent', 'percent'),
    threshold('badSignalDbm', 'dbm'),
    threshold('pendingDeadlineMinutes', 'minutes'),
    {
      kind: 'custom',
      name: 'timeZone',
      label: 'p.timeZone',
      tooltip: 'p.timeZoneHint',
      span: 12,
      control: <Select showSearch options={TIME_ZONES.map((z) => ({ value: z, label: z }))} />,
    },
    { kind: 'switch', name: 'autoRefresh', label: 'p.autoRefresh', extra: 'p.autoRefreshHint', span: 24 },
  ];

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
        <FormFields fields={fields} t={t} />
      </Form>
      {store && params.data && <StoreRules storeId={store.id} />}
    </Modal>
  );
}
