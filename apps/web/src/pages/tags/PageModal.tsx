import { ShowPageBody } from '@esl/contract';
import { DatePicker, Form, InputNumber, Modal, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { rangeOf } from '../../components/form/spec';

/** The page and stay the contract takes (docs/PAGES.md). */
const PAGE = rangeOf(ShowPageBody.shape.page);
const STAY = rangeOf(ShowPageBody.shape.staySeconds);

interface Values {
  page: number;
  staySeconds: number;
  /** When the tags switch (sent ahead); empty: at their next check-in. */
  at?: Dayjs | null;
}

/** Which page some tags show, and for how long (/mgr/tag/showpage): no picture is sent. */
export function PageModal({
  count,
  loading,
  onClose,
  onShow,
}: {
  /** How many tags switch; 0 when the dialog is closed. */
  count: number;
  loading: boolean;
  onClose: () => void;
  onShow: (page: { page: number; staySeconds: number; at?: number }) => Promise<unknown>;
}) {
  const { t } = useTranslation('tags');
  const [form] = Form.useForm<Values>();
  useEffect(() => {
    if (count > 0) form.resetFields();
  }, [count, form]);
  return (
    <Modal
      open={count > 0}
      title={t('page.title', { count })}
      okText={t('page.ok')}
      cancelText={t('cancel')}
      confirmLoading={loading}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      width={420}
    >
      <Typography.Paragraph type="secondary">{t('page.help')}</Typography.Paragraph>
      <Form<Values>
        form={form}
        name="tagPage"
        layout="vertical"
        initialValues={{ page: 2, staySeconds: 30 }}
        // A refusal is shown by the request itself; the dialog stays open to try again.
        onFinish={(v) =>
          onShow({ page: v.page, staySeconds: v.staySeconds, ...(v.at ? { at: v.at.valueOf() } : {}) }).then(
            onClose,
            () => {},
          )
        }
      >
        <Form.Item name="page" label={t('page.page')} rules={[{ required: true, message: t('page.pageRequired') }]}>
          <InputNumber min={PAGE.min} max={PAGE.max} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          name="staySeconds"
          label={t('page.stay')}
          rules={[{ required: true, message: t('page.stayRequired') }]}
        >
          <InputNumber min={STAY.min} max={STAY.max} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="at" label={t('page.at')} extra={t('page.atHelp')}>
          <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
