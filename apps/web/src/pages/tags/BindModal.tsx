import { CheckCircleTwoTone } from '@ant-design/icons';
import type { Tag } from '@esl/contract';
import { useMutation } from '@tanstack/react-query';
import { Alert, Form, Input, type InputRef, List, Modal, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../platform/request';
import { MONO_FAMILY } from '../../platform/theme';
import { isHardwareId } from './body';

interface Values {
  hardwareId?: string;
  barcode?: string;
}

interface Props {
  open: boolean;
  /** A tag ID to start with (bind from a row); the barcode field then takes the focus. */
  hardwareId?: string;
  onClose: () => void;
  /** A tag was bound; the dialog stays open for the next scan. */
  onBound: () => void;
}

const RECENT = 5;

/**
 * Binds a tag to a product as a handheld scanner does: scan the tag (Enter moves to the
 * product), scan the product (Enter binds), and start again with the next tag.
 */
export function BindModal({ open, hardwareId, onClose, onBound }: Props) {
  const { t } = useTranslation('tags');
  const [form] = Form.useForm<Values>();
  const tagInput = useRef<InputRef>(null);
  const barcodeInput = useRef<InputRef>(null);
  const [recent, setRecent] = useState<Tag[]>([]);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setRecent([]);
    form.setFieldsValue({ hardwareId });
    // After the dialog's opening animation has placed the inputs.
    const timer = setTimeout(() => (hardwareId ? barcodeInput : tagInput).current?.focus(), 50);
    return () => clearTimeout(timer);
  }, [open, hardwareId, form]);

  const bind = useMutation({
    mutationFn: (v: Required<Values>) =>
      request('bindTag', { hardwareId: v.hardwareId.trim(), barcode: v.barcode.trim() }),
    onSuccess: (tag) => {
      setRecent((list) => [tag, ...list.filter((x) => x.id !== tag.id)].slice(0, RECENT));
      // Not resetFields(): it remounts the inputs, and the focus would stay on the old one.
      form.setFieldsValue({ hardwareId: '', barcode: '' });
      tagInput.current?.focus();
      onBound();
    },
    onError: () => barcodeInput.current?.select(),
  });

  const toBarcode = async () => {
    try {
      await form.validateFields(['hardwareId']);
      barcodeInput.current?.focus();
    } catch {
      tagInput.current?.select();
    }
  };

  const submit = async () => {
    try {
      const values = await form.validateFields();
      bind.mutate({ hardwareId: values.hardwareId ?? '', barcode: values.barcode ?? '' });
    } catch {
      // The form shows what is missing.
    }
  };

  return (
    <Modal
      open={open}
      title={t('bind.title')}
      okText={t('bind.ok')}
      cancelText={t('close')}
      confirmLoading={bind.isPending}
      onOk={() => void submit()}
      onCancel={onClose}
      width={520}
    >
      <Alert type="info" showIcon title={t('bind.hint')} style={{ marginBottom: 16 }} />
      <Form<Values> form={form} name="bindTag" layout="vertical" autoComplete="off">
        <Form.Item
          name="hardwareId"
          label={t('bind.tag')}
          rules={[
            { required: true, whitespace: true, message: t('rule.tagId') },
            {
              validator: (_, v: string | undefined) =>
                !v?.trim() || isHardwareId(v) ? Promise.resolve() : Promise.reject(new Error(t('rule.badId'))),
            },
          ]}
        >
          <Input
            ref={tagInput}
            placeholder={t('bind.tagPlaceholder')}
            style={{ fontFamily: MONO_FAMILY }}
            onPressEnter={(e) => {
              e.preventDefault();
              void toBarcode();
            }}
          />
        </Form.Item>
        <Form.Item
          name="barcode"
          label={t('bind.barcode')}
          rules={[{ required: true, whitespace: true, message: t('rule.barcode') }]}
        >
          <Input
            ref={barcodeInput}
            placeholder={t('bind.barcodePlaceholder')}
            onPressEnter={(e) => {
              e.preventDefault();
              void submit();
            }}
          />
        </Form.Item>
      </Form>
      {recent.length > 0 && (
        <List
          size="small"
          header={<Typography.Text type="secondary">{t('bind.recent')}</Typography.Text>}
          dataSource={recent}
          renderItem={(tag) => (
            <List.Item data-testid="bound-item">
              <CheckCircleTwoTone twoToneColor="#52c41a" style={{ marginRight: 8 }} />
              <Typography.Text code>{tag.hardwareId}</Typography.Text>
              <span style={{ margin: '0 8px' }}>→</span>
              <span style={{ flex: 1 }}>
                {tag.product ? `${tag.product.name} (${tag.product.barcode})` : t('unbound')}
              </span>
            </List.Item>
          )}
        />
      )}
    </Modal>
  );
}
