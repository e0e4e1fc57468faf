import { PRICE_CHARS, PRICE_PATTERN, type ScheduledChange } from '@esl/contract';
import { App, DatePicker, Form, Input, Radio } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { FormModal, useFormDialog } from '../../components/FormModal';
import { request } from '../../platform/request';
import { type ScheduleFormValues, scheduleChanges, toLocal } from './body';

interface Props {
  open: boolean;
  /** Adding: the product to change; editing: the pending change. */
  target: { kind: 'add'; productId: number; name: string } | { kind: 'edit'; change: ScheduledChange } | null;
  /** Offer "every store with this barcode" (administrators, who see every store). */
  chain: boolean;
  onClose: () => void;
  onSaved: () => void;
}

/** Schedules a change of a product (from the product list) or edits a pending one (the schedule list). */
export function ScheduleModal({ open, target, chain, onClose, onSaved }: Props) {
  const { t } = useTranslation('schedule');
  const { message } = App.useApp();
  const editing = target?.kind === 'edit' ? target.change : null;
  const dialog = useFormDialog<ScheduleFormValues, ScheduledChange, unknown>({
    open,
    onClose,
    record: editing,
    fill: (c) => ({
      at: dayjs(c.localAt),
      price: typeof c.changes.price === 'string' ? c.changes.price : undefined,
      originalPrice: typeof c.changes.originalPrice === 'string' ? c.changes.originalPrice : undefined,
      name: typeof c.changes.name === 'string' ? c.changes.name : undefined,
    }),
    save: async (v) => {
      const changes = scheduleChanges(v);
      if (editing) return request('editSchedule', { id: editing.id, at: toLocal(v.at), changes });
      if (target?.kind !== 'add') throw new Error('no product');
      return request('addSchedule', {
        productId: target.productId,
        at: toLocal(v.at),
        scope: v.scope ?? 'store',
        changes,
        note: v.note ?? '',
      });
    },
    onSaved: (answer) => {
      const stores = (answer as { stores?: number }).stores;
      message.success(stores === undefined ? t('saved') : t('added', { count: stores }));
      onSaved();
    },
  });
  const name = target?.kind === 'add' ? target.name : (editing?.productName ?? '');
  const price = (field: 'price' | 'originalPrice') => (
    <Form.Item
      name={field}
      label={t(`field.${field}`)}
      rules={[{ pattern: PRICE_PATTERN, message: t('rule.priceFormat') }]}
      style={{ flex: 1 }}
    >
      <Input maxLength={PRICE_CHARS} inputMode="decimal" />
    </Form.Item>
  );

  return (
    <FormModal
      {...dialog}
      title={editing ? t('editTitle', { name }) : t('addTitle', { name })}
      width={560}
      name="schedule"
      autoComplete="off"
      intro={<p style={{ color: 'rgba(0,0,0,0.55)' }}>{t('intro')}</p>}
      initialValues={{ scope: 'store' }}
    >
      <Form.Item
        name="at"
        label={t('field.at')}
        rules={[
          { required: true, message: t('rule.at') },
          {
            validator: (_, v: Dayjs | undefined) =>
              !v || v.isAfter(dayjs()) ? Promise.resolve() : Promise.reject(new Error(t('rule.future'))),
          },
        ]}
      >
        <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: 220 }} />
      </Form.Item>
      {!editing && chain && (
        <Form.Item name="scope" label={t('field.scope')}>
          <Radio.Group
            options={[
              { value: 'store', label: t('field.scopeStore') },
              { value: 'chain', label: t('field.scopeChain') },
            ]}
          />
        </Form.Item>
      )}
      <div style={{ display: 'flex', gap: 16 }}>
        {price('price')}
        {price('originalPrice')}
      </div>
      <Form.Item
        name="name"
        label={t('field.name')}
        dependencies={['price', 'originalPrice']}
        rules={[
          ({ getFieldValue }) => ({
            validator: (_, v: string | undefined) =>
              [v, getFieldValue('price'), getFieldValue('originalPrice')].some((x) => (x ?? '').trim())
                ? Promise.resolve()
                : Promise.reject(new Error(t('rule.something'))),
          }),
        ]}
      >
        <Input maxLength={200} />
      </Form.Item>
      {!editing && (
        <Form.Item name="note" label={t('field.note')}>
          <Input maxLength={200} />
        </Form.Item>
      )}
    </FormModal>
  );
}
