import { Form, type FormInstance, Modal } from 'antd';
import type { ReactNode } from 'react';

interface Props<V> {
  open: boolean;
  title: ReactNode;
  okText: string;
  cancelText: string;
  /** The save is under way: the OK button spins. */
  saving: boolean;
  onClose: () => void;
  width: number;
  form: FormInstance<V>;
  /** The form's name: its inputs' ids are `<name>_<field>`. */
  name: string;
  /** OK submits the form; this runs once its rules pass. */
  onFinish: (values: V) => void;
  /** 'off' for forms a browser should not fill in (accounts, new records). */
  autoComplete?: 'off';
  initialValues?: Partial<V>;
  requiredMark?: boolean;
  /** Said above the form. */
  intro?: ReactNode;
  children: ReactNode;
}

/**
 * A dialog holding one form (add or edit a record): OK submits it, Cancel closes; the form is
 * rendered while closed too, so a page may fill it before it opens.
 */
export function FormModal<V>(props: Props<V>) {
  const { form, onClose } = props;
  return (
    <Modal
      open={props.open}
      title={props.title}
      okText={props.okText}
      cancelText={props.cancelText}
      confirmLoading={props.saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      forceRender
      width={props.width}
    >
      {props.intro}
      <Form<V>
        form={form}
        name={props.name}
        layout="vertical"
        autoComplete={props.autoComplete}
        initialValues={props.initialValues}
        requiredMark={props.requiredMark}
        onFinish={props.onFinish}
      >
        {props.children}
      </Form>
    </Modal>
  );
}
