import { AddStoreBody, type Store } from '@esl/contract';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal, useFormDialog } from '../../components/FormModal';
import { FormFields } from '../../components/form/FormFields';
import { contractFields, type FieldsOf } from '../../components/form/spec';
import { request } from '../../platform/request';

export interface StoreFormValues {
  name: string;
  code: string;
  address?: string;
  contact?: string;
  phone?: string;
  remark?: string;
}

const f = contractFields(AddStoreBody.shape);
const FIELDS: FieldsOf<StoreFormValues> = [
  f.text('name', { label: 'field.name', span: 14, required: 'rule.name', lineBreak: true }),
  f.text('code', {
    label: 'field.code',
    span: 10,
    required: 'rule.code',
    pattern: [/^[A-Za-z0-9_-]*$/, 'rule.codeChars'],
  }),
  f.text('address', { label: 'field.address', lineBreak: true }),
  f.text('contact', { label: 'field.contact', span: 12, lineBreak: true }),
  f.text('phone', { label: 'field.phone', span: 12, lineBreak: true }),
  f.notes('remark', { label: 'field.remark', rows: [2, 4], lineBreak: true }),
];

interface Props {
  open: boolean;
  /** The store being edited, or null to add one. */
  store: Store | null;
  onClose: () => void;
  onSaved: () => void;
}

export function storeBody(v: StoreFormValues) {
  return {
    name: v.name.trim(),
    code: v.code.trim(),
    address: (v.address ?? '').trim(),
    contact: (v.contact ?? '').trim(),
    phone: (v.phone ?? '').trim(),
    remark: (v.remark ?? '').trim(),
  };
}

export function StoreFormModal({ open, store, onClose, onSaved }: Props) {
  const { t } = useTranslation('stores');
  const { message } = App.useApp();
  const adding = store === null;
  const dialog = useFormDialog({
    open,
    onClose,
    record: store,
    save: (v: StoreFormValues) =>
      store ? request('alterStore', { id: store.id, ...storeBody(v) }) : request('addStore', storeBody(v)),
    onSaved: () => {
      message.success(adding ? t('added') : t('saved'));
      onSaved();
    },
  });

  return (
    <FormModal
      {...dialog}
      title={adding ? t('addTitle') : t('editTitle', { name: store.name })}
      width={600}
      name="store"
    >
      <FormFields fields={FIELDS} t={t} />
    </FormModal>
  );
}
