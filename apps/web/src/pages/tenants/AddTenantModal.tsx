import { AddTenantBody } from '@esl/contract';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal, useFormDialog } from '../../components/FormModal';
import { FormFields } from '../../components/form/FormFields';
import { contractFields, type FieldsOf, USERNAME } from '../../components/form/spec';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { request } from '../../platform/request';
import { digestPassword } from '../../utils/digest';
import { addTenantBody, type TenantFormValues } from './body';

const f = contractFields(AddTenantBody.shape);
const FIELDS: FieldsOf<TenantFormValues> = [
  f.text('name', { label: 'field.name', required: 'rule.name', lineBreak: true }),
  f.text('company', { label: 'field.company', lineBreak: true }),
  f.notes('description', { label: 'field.description', rows: [2, 4], lineBreak: true }),
  f.text('account', {
    label: 'field.account',
    extra: 'field.accountHint',
    required: 'rule.username',
    pattern: [USERNAME, 'rule.usernameChars'],
    autoComplete: 'off',
  }),
];

interface Props {
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}

export function AddTenantModal({ open, onClose, onSaved }: Props) {
  const { t } = useTranslation('tenants');
  const { message } = App.useApp();
  const dialog = useFormDialog({
    open,
    onClose,
    save: (v: TenantFormValues) => request('addTenant', addTenantBody(v, digestPassword)),
    onSaved: (tenant) => {
      message.success(t('added', { name: tenant.name }));
      onSaved();
    },
  });

  return (
    <FormModal {...dialog} title={t('addTitle')} okText={t('add')} width={560} name="tenant" autoComplete="off">
      <FormFields fields={FIELDS} t={t} />
      <NewPasswordFields names={['sapwd', 'rsapwd']} labels={[t('field.password'), t('field.rpassword')]} />
    </FormModal>
  );
}
