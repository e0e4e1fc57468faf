import { LedPatternBody } from '@esl/contract';
import { Form, InputNumber, Modal, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { rangeOf } from '../../components/form/spec';

const COLOURS = ['green', 'red', 'blue', 'yellow', 'cyan', 'magenta', 'white'] as const;
/** Flashes and on-time as the contract takes them (the on-time starts at 50 ms here, to be seen). */
const COUNT = rangeOf(LedPatternBody.shape.count);
const ON_MS = rangeOf(LedPatternBody.shape.onMs);

interface Values {
  colour: LedPatternBody['colour'];
  count: number;
  onMs: number;
}

/** The LED pattern for some tags (/mgr/tag/ledesl): a colour, how many flashes, how long each. */
export function LedModal({
  count,
  loading,
  onClose,
  onFlash,
}: {
  /** How many tags flash; 0 when the dialog is closed. */
  count: number;
  loading: boolean;
  onClose: () => void;
  onFlash: (led: LedPatternBody) => Promise<unknown>;
}) {
  const { t } = useTranslation('tags');
  const [form] = Form.useForm<Values>();
  useEffect(() => {
    if (count > 0) form.resetFields();
  }, [count, form]);
  return (
    <Modal
      open={count > 0}
      title={t('led.title', { count })}
      okText={t('led.ok')}
      cancelText={t('cancel')}
      confirmLoading={loading}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      width={420}
    >
      <Form<Values>
        form={form}
        name="tagLed"
        layout="vertical"
        initialValues={{ colour: 'green', count: 5, onMs: 500 }}
        // A refusal is shown by the request itself; the dialog stays open to try again.
        onFinish={(v) =>
          onFlash({ colour: v.colour, onMs: v.onMs, offMs: v.onMs, count: v.count, repeat: 1 }).then(onClose, () => {})
        }
      >
        <Form.Item name="colour" label={t('led.colour')}>
          <Select options={COLOURS.map((c) => ({ value: c, label: t(`led.colours.${c}`) }))} />
        </Form.Item>
        <Form.Item name="count" label={t('led.count')} rules={[{ required: true, message: t('led.countRequired') }]}>
          <InputNumber min={COUNT.min} max={COUNT.max} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="onMs" label={t('led.onMs')} rules={[{ required: true, message: t('led.onMsRequired') }]}>
          <InputNumber min={50} max={ON_MS.max} step={100} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
