import { PRICE_CHARS, PRICE_PATTERN, type Promotion } from '@esl/contract';
import { App, DatePicker, Form, Input, Radio, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { FormModal, useFormDialog } from '../../components/FormModal';
import { request } from '../../platform/request';

/** What the promotion dialog's form holds. */
interface PromotionFormValues {
  name?: string;
  text?: string;
  price: string;
  start: Dayjs;
  end: Dayjs;
  scope?: 'store' | 'chain';
  target: 'barcodes' | 'match';
  barcodes?: string[];
  matchKey?: string;
  matchValue?: string;
}

/** The store's wall-clock time the picker shows, as the calls take it (`YYYY-MM-DDTHH:mm`). */
const toLocal = (at: Dayjs) => at.format('YYYY-MM-DDTHH:mm');

interface Props {
  open: boolean;
  /** The promotion to edit; null to add one. */
  promotion: Promotion | null;
  onClose: () => void;
  onSaved: () => void;
}

/** Adds a promotion to the current store (or every visible one), or edits one that has not ended. */
export function PromotionModal({ open, promotion, onClose, onSaved }: Props) {
  const { t } = useTranslation('promotions');
  const { message } = App.useApp();
  const dialog = useFormDialog<PromotionFormValues, Promotion, unknown>({
    open,
    onClose,
    record: promotion,
    fill: (p) => ({
      name: p.name,
      text: p.text,
      price: p.price,
      start: dayjs(p.startAt),
      end: dayjs(p.endAt),
      target: p.barcodes.length ? 'barcodes' : 'match',
      barcodes: p.barcodes,
      matchKey: p.matchKey,
      matchValue: p.matchValue,
    }),
    save: async (v) => {
      const byBarcode = v.target === 'barcodes';
      const fields = {
        name: (v.name ?? '').trim(),
        text: (v.text ?? '').trim(),
        price: v.price.trim(),
        barcodes: byBarcode ? (v.barcodes ?? []).map((b) => b.trim()).filter(Boolean) : [],
        matchKey: byBarcode ? '' : (v.matchKey ?? '').trim(),
        matchValue: byBarcode ? '' : (v.matchValue ?? '').trim(),
        startAt: toLocal(v.start),
        endAt: toLocal(v.end),
      };
      if (promotion) return request('editPromotion', { id: promotion.id, ...fields });
      return request('addPromotion', { ...fields, scope: v.scope ?? 'store' });
    },
    onSaved: (answer) => {
      const stores = (answer as { stores?: number }).stores;
      message.success(stores === undefined ? t('saved') : t('added', { count: stores }));
      onSaved();
    },
  });

  return (
    <FormModal
      {...dialog}
      title={promotion ? t('editTitle', { name: promotion.name || `#${promotion.id}` }) : t('addTitle')}
      width={600}
      name="promotion"
      autoComplete="off"
      intro={<p style={{ color: 'rgba(0,0,0,0.55)' }}>{t('intro')}</p>}
      initialValues={{ scope: 'store', target: 'barcodes' }}
    >
      <div style={{ display: 'flex', gap: 16 }}>
        <Form.Item name="name" label={t('field.name')} style={{ flex: 1 }}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item
          name="price"
          label={t('field.price')}
          rules={[
            { required: true, message: t('rule.price') },
            { pattern: PRICE_PATTERN, message: t('rule.priceFormat') },
          ]}
          style={{ width: 160 }}
        >
          <Input maxLength={PRICE_CHARS} inputMode="decimal" />
        </Form.Item>
      </div>
      <Form.Item name="text" label={t('field.text')}>
        <Input maxLength={100} />
      </Form.Item>
      <div style={{ display: 'flex', gap: 16 }}>
        <Form.Item name="start" label={t('field.start')} rules={[{ required: true, message: t('rule.start') }]}>
          <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: 220 }} />
        </Form.Item>
        <Form.Item
          name="end"
          label={t('field.end')}
          dependencies={['start']}
          rules={[
            { required: true, message: t('rule.end') },
            ({ getFieldValue }) => ({
              validator: (_, v: Dayjs | undefined) => {
                const start = getFieldValue('start') as Dayjs | undefined;
                return !v || !start || v.isAfter(start)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('rule.endAfter')));
              },
            }),
          ]}
        >
          <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: 220 }} />
        </Form.Item>
      </div>
      {!promotion && (
        <Form.Item name="scope" label={t('field.scope')}>
          <Radio.Group
            options={[
              { value: 'store', label: t('field.scopeStore') },
              { value: 'chain', label: t('field.scopeChain') },
            ]}
          />
        </Form.Item>
      )}
      <Form.Item name="target" label={t('field.target')}>
        <Radio.Group
          options={[
            { value: 'barcodes', label: t('field.targetBarcodes') },
            { value: 'match', label: t('field.targetMatch') },
          ]}
        />
      </Form.Item>
      <Form.Item noStyle dependencies={['target']}>
        {({ getFieldValue }) =>
          getFieldValue('target') === 'match' ? (
            <div style={{ display: 'flex', gap: 16 }}>
              <Form.Item
                name="matchKey"
                label={t('field.matchKey')}
                rules={[{ required: true, whitespace: true, message: t('rule.matchKey') }]}
                style={{ flex: 1 }}
              >
                <Input maxLength={64} />
              </Form.Item>
              <Form.Item
                name="matchValue"
                label={t('field.matchValue')}
                rules={[{ required: true, whitespace: true, message: t('rule.matchValue') }]}
                style={{ flex: 1 }}
              >
                <Input maxLength={100} />
              </Form.Item>
            </div>
          ) : (
            <Form.Item
              name="barcodes"
              label={t('field.barcodes')}
              rules={[{ required: true, type: 'array', min: 1, message: t('rule.barcodes') }]}
            >
              <Select mode="tags" tokenSeparators={[',', ' ', '\n']} open={false} />
            </Form.Item>
          )
        }
      </Form.Item>
    </FormModal>
  );
}
