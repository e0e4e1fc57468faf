import { useMutation } from '@tanstack/react-query';
import { Form, type FormInstance, Modal } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

interface Props<V> {
  open: boolean;
  title: ReactNode;
  /** The OK button's words; 'Save' unless given. */
  okText?: string;
  /** 'Cancel' unless given. */
  cancelText?: string;
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
 * A dialog holding one form (add or edit a record): OK submits it, Cancel closes. The form is
 * rendered from its first opening on (fill it as it opens, as `useFormDialog` does), not before:
 * a dialog rendered while closed (antd's `forceRender`) counts as open for the Escape key, and
 * when it came later than the dialog shown, Escape went to it and the shown one stayed open.
 * `useFormDialog` gives it its form, its save and its opening.
 */
export function FormModal<V>(props: Props<V>) {
  const { t } = useTranslation('common');
  const { form, onClose } = props;
  return (
    <Modal
      open={props.open}
      title={props.title}
      okText={props.okText ?? t('save')}
      cancelText={props.cancelText ?? t('cancel')}
      confirmLoading={props.saving}
      onOk={() => form.submit()}
      onCancel={onClose}
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

interface DialogOptions<V, R, D> {
  open: boolean;
  onClose: () => void;
  /** The record being edited (null: adding one). */
  record?: R | null;
  /** The form's values for the record; the record itself unless given. */
  fill?: (record: R) => Partial<V>;
  /** The call that saves the form's values. */
  save: (values: V) => Promise<D>;
  /** After a save: say so, close, reload. */
  onSaved: (answer: D) => void;
}

/**
 * The working parts of a `FormModal` adding or editing a record: its form, emptied each time the
 * dialog opens and filled with the record's values when there is one, and its save. Spread the
 * answer into the `FormModal`; `form` is there for the page's own watches.
 */
export function useFormDialog<V, R = never, D = unknown>(options: DialogOptions<V, R, D>) {
  const { open, record, onClose } = options;
  const [form] = Form.useForm<V>();

  // biome-ignore lint/correctness/useExhaustiveDependencies: filled as the dialog opens (or its record changes), not as `fill` is made anew each render
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (record)
      form.setFieldsValue((options.fill ? options.fill(record) : record) as Parameters<typeof form.setFieldsValue>[0]);
  }, [open, record, form]);

  const save = useMutation({ mutationFn: options.save, onSuccess: options.onSaved });
  return { open, onClose, form, saving: save.isPending, onFinish: (values: V) => save.mutate(values) };
}

/**
 * A list page's add/edit dialog: which record it shows (null: a new one) and whether it is open.
 * Closing keeps the record, so the dialog does not change under its closing animation.
 */
export function useEditDialog<R>() {
  const [state, setState] = useState<{ open: boolean; record: R | null }>({ open: false, record: null });
  return {
    ...state,
    /** Opens the dialog on a record, or on an empty form (null) to add one. */
    edit: (record: R | null) => setState({ open: true, record }),
    close: () => setState((s) => ({ ...s, open: false })),
  };
}
