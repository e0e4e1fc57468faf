import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { BARCODE_PATTERN, isCustomKey, PRICE_PATTERN, type Product } from '@esl/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Col, Divider, Form, Input, Row, Space, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../components/FormModal';
import { request } from '../../platform/request';
import { noLineBreak } from '../shared/rules';
import { addProductBody, alterProductBody, type ProductFormValues, productFormValues } from './body';

interface Props {
  open: boolean;
  /** The product being edited, or null to add one. */
  product: Product | null;
  onClose: () => void;
  onSaved: () => void;
}

const MAX_CUSTOM = 50;

export function ProductFormModal({ open, product, onClose, onSaved }: Props) {
  const { t } = useTranslation('products');
  const { message } = App.useApp();
  const [form] = Form.useForm<ProductFormValues>();
  const adding = product === null;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (product) form.setFieldsValue(productFormValues(product));
  }, [open, product, form]);

  const save = useMutation({
    mutationFn: (v: ProductFormValues) =>
      product ? request('alterProduct', alterProductBody(product.id, v)) : request('addProduct', addProductBody(v)),
    onSuccess: (saved) => {
      if (product && saved.priceChanges > product.priceChanges) {
        message.success(t('savedPriceChanged', { count: saved.priceChanges }));
      } else {
        message.success(adding ? t('added') : t('saved'));
      }
      onSaved();
    },
  });

  const lineBreak = noLineBreak(t('rule.lineBreak'));
  const price = (required: boolean): Rule[] => [
    ...(required ? [{ required: true, whitespace: true, message: t('rule.price') }] : []),
    {
      validator: (_, v: string | undefined) =>
        !v?.trim() || PRICE_PATTERN.test(v.trim())
          ? Promise.resolve()
          : Promise.reject(new Error(t('rule.priceFormat'))),
    },
  ];

  return (
    <FormModal
      open={open}
      title={adding ? t('addTitle') : t('editTitle', { name: product.name })}
      okText={t('save')}
      cancelText={t('cancel')}
      saving={save.isPending}
      onClose={onClose}
      width={680}
      form={form}
      name="product"
      autoComplete="off"
      onFinish={(v) => save.mutate(v)}
    >
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item
            name="barcode"
            label={t('field.barcode')}
            rules={[
              { required: true, whitespace: true, message: t('rule.barcode') },
              {
                validator: (_, v: string | undefined) =>
                  !v?.trim() || BARCODE_PATTERN.test(v.trim())
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('rule.barcodeChars'))),
              },
            ]}
          >
            <Input maxLength={64} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="qrcode" label={t('field.qrcode')} rules={[lineBreak]}>
            <Input maxLength={500} placeholder={t('field.qrcodePlaceholder')} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        name="name"
        label={t('field.name')}
        rules={[{ required: true, whitespace: true, message: t('rule.name') }, lineBreak]}
      >
        <Input maxLength={200} />
      </Form.Item>
      <Row gutter={16}>
        <Col span={8}>
          <Form.Item name="price" label={t('field.price')} rules={price(true)}>
            <Input inputMode="decimal" maxLength={13} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="originalPrice" label={t('field.originalPrice')} rules={price(false)}>
            <Input inputMode="decimal" maxLength={13} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="unit" label={t('field.unit')} rules={[lineBreak]}>
            <Input maxLength={20} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col span={8}>
          <Form.Item name="spec" label={t('field.spec')} rules={[lineBreak]}>
            <Input maxLength={64} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="origin" label={t('field.origin')} rules={[lineBreak]}>
            <Input maxLength={64} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="grade" label={t('field.grade')} rules={[lineBreak]}>
            <Input maxLength={32} />
          </Form.Item>
        </Col>
      </Row>
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
                  <Input placeholder={t('field.customKey')} style={{ width: 200 }} maxLength={32} />
                </Form.Item>
                <Form.Item name={[field.name, 'value']} rules={[lineBreak]}>
                  <Input placeholder={t('field.customValue')} style={{ width: 340 }} maxLength={500} />
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
              disabled={fields.length >= MAX_CUSTOM}
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
