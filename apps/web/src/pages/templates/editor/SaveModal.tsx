import { Form } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { FormFields } from '../../../components/form/FormFields';
import { TemplateSize, templateName } from '../fields';

export interface SaveValues {
  name: string;
  width: number;
  length: number;
}

interface Props {
  open: boolean;
  initial: SaveValues;
  saving: boolean;
  onSave: (values: SaveValues) => void;
  onClose: () => void;
}

/** Saving asks for the template's name, width and length (the panel's pixels). */
export function SaveModal({ open, initial, saving, onSave, onClose }: Props) {
  // The fields' words are the templates namespace's (shared with the add dialog); the dialog's the editor's.
  const { t } = useTranslation(['templates', 'editor']);
  const [form] = Form.useForm<SaveValues>();

  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is filled each time the dialog opens
  useEffect(() => {
    if (open) form.setFieldsValue(initial);
  }, [open]);

  return (
    <FormModal
      open={open}
      title={t('editor:saveTitle')}
      okText={t('editor:save')}
      saving={saving}
      onClose={onClose}
      width={440}
      form={form}
      name="tmpl-save"
      autoComplete="off"
      onFinish={(values) => onSave({ ...values, name: values.name.trim() })}
    >
      <FormFields fields={[templateName()]} t={t} />
      <TemplateSize t={t} inputWidth={150} />
    </FormModal>
  );
}
