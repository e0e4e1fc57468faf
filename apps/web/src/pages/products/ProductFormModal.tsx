import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  AddProductBody,
  BARCODE_PATTERN,
  CUSTOM_FIELDS_MAX,
  CUSTOM_KEY_CHARS,
  CUSTOM_VALUE_CHARS,
  isCustomKey,
  PRICE_CHARS,
  PRICE_PATTERN,
  type Product,
} from '@esl/contract';
import { App, Button, Divider, Form, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal, useFormDialog } from '../../components/FormModal';
import { FormFields } from '../../components/form/FormFields';
import { contractFields, type FieldsOf, noLineBreak, type TextField } from '../../components/form/spec';
import { request } from '../../platform/request';
import { addProductBody, alterProductBody, type ProductFormValues, productFormValues } from './body';

interface Props {
  open: boolean;
  /** The product being edited, or null to add one. */
  product: Product | null;
  onClose: () => void;
  onSaved: () => void;
}

const f = contractFields(AddProductBody.shape);
/** A price as typed: digits, at most two decimals (`PRICE_PATTERN`, `PRICE_CHARS` at the most). */
const price = (name: 'price' | 'originalPrice', required?: string): TextField<typeof name> => ({
  kind: 'text',
  name,
  label: `field.${name}`,
  span: 8,
  required,
  trimmedPattern: [PRICE_PATTERN, 'rule.priceFormat'],
  max: PRICE_CHARS,
  inputMode: 'decimal',
});
const line = (name: 'unit' | 'spec' | 'origin' | 'grade') =>
  f.text(name, { label: `field.${name}`, span: 8, lineBreak: true });

const FIELDS: FieldsOf<ProductFormValues> = [
  f.text('barcode', {
    label: 'field.barcode',
    span: 12,
    required: 'rule.barcode',
    trimmedPattern: [BARCODE_PATTERN, 'rule.barcodeChars'],
  }),
  f.text('qrcode', { label: 'field.qrcode', span: 12, placeholder: 'field.qrcodePlaceholder', lineBreak: true }),
  f.text('name', { label: 'field.name', required: 'rule.name', lineBreak: true }),
  price('price', 'rule.price'),
  price('originalPrice'),
  line('unit'),
  line('spec'),
  line('origin'),
  line('grade'),
];

export function ProductFormModal({ open, product, onClose, onSaved }: Props) {
  const { t } = useTranslation('products');
  const { message } = App.useApp();
  const adding = product === null;
  const dialog = useFormDialog({
    open,
    onClose,
    record: product,
    fill: productFormValues,
    save: (v: ProductFormValues) =>
      product ? request('alterProduct', alterProductBody(product.id, v)) : request('addProduct', addProductBody(v)),
    onSaved: (saved) => {
      if (product && saved.priceChanges > product.priceChanges) {
        message.success(t('savedPriceChanged', { count: saved.priceChanges }));
      } else {
        message.success(adding ? t('added') : t('saved'));
      }
      onSaved();
    },
  });
  const lineBreak = noLineBreak(t('rule.lineBreak'));

  return (
    <FormModal
      {...dialog}
      title={adding ? t('addTitle') : t('editTitle', { name: product.name })}
      width={680}
      name="product"
      autoComplete="off"
    >
      <FormFields fields={FIELDS} t={t} />
      <Divider titlePlacement="start" plain style={{ marginTop: 0 }}>
        {t('field.custom')}
      </Divider>
      <Form.List name="custom">
        {(fields, { add, remove }) => (
          <>
            {fields.length === 0 && (
              <Typography.Paragraph type="secondary" style={{ marginTop: -8 }}>
                {t('field.customHint')}
              </Typography.Paragraph>
            )}
            {fields.map((field) => (
              <Space key={field.key} align="baseline" style={{ display: 'flex' }}>
                <Form.Item
                  name={[field.name, 'key']}
                  rules={[
                    { required: true, whitespace: true, message: t('rule.customKey') },
                    ({ getFieldValue }) => ({
                      validator: (_, v: string | undefined) => {
                        const key = v?.trim() ?? '';
                        if (!key) return Promise.resolve();
                        if (!isCustomKey(key)) return Promise.reject(new Error(t('rule.customKeyChars')));
                        const all = (getFieldValue('custom') ?? []) as { key?: string }[];
                        const same = all.filter((r) => r?.key?.trim() === key).length;
                        return same > 1 ? Promise.reject(new Error(t('rule.customKeyRepeat'))) : Promise.resolve();
                      },
                    }),
                  ]}
                >
                  <Input placeholder={t('field.customKey')} style={{ width: 200 }} maxLength={CUSTOM_KEY_CHARS} />
                </Form.Item>
                <Form.Item name={[field.name, 'value']} rules={[lineBreak]}>
                  <Input placeholder={t('field.customValue')} style={{ width: 340 }} maxLength={CUSTOM_VALUE_CHARS} />
                </Form.Item>
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('delete')}
                  onClick={() => remove(field.name)}
                />
              </Space>
            ))}
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              disabled={fields.length >= CUSTOM_FIELDS_MAX}
              onClick={() => add({ key: '', value: '' })}
            >
              {t('field.addCustom')}
            </Button>
          </>
        )}
      </Form.List>
    </FormModal>
  );
}
