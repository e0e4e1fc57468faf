import { AddUserBody, ROLE_LABELS, type Store, TENANT_ROLES, type User } from '@esl/contract';
import { App, Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal, useFormDialog } from '../../components/FormModal';
import { FormFields } from '../../components/form/FormFields';
import { contractFields, type FieldsOf, USERNAME } from '../../components/form/spec';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { request } from '../../platform/request';
import { digestPassword } from '../../utils/digest';
import { sentenceCase } from '../../utils/format';
import { addUserBody, alterUserBody, needsStores, type UserFormValues } from './body';

const f = contractFields(AddUserBody.shape);

interface Props {
  open: boolean;
  /** The user being edited, or null to add one. */
  user: User | null;
  stores: readonly Store[];
  storesLoading: boolean;
  onClose: () => void;
  onSaved: () => void;
}

export function UserFormModal({ open, user, stores, storesLoading, onClose, onSaved }: Props) {
  const { t, i18n } = useTranslation('users');
  const { message } = App.useApp();
  const adding = user === null;
  const dialog = useFormDialog({
    open,
    onClose,
    record: user,
    fill: (u) => ({ username: u.username, name: u.name, roles: u.roles, shops: u.shops, introduction: u.introduction }),
    save: (values: UserFormValues) =>
      user
        ? request('alterUser', alterUserBody(user.id, values, digestPassword))
        : request('addUser', addUserBody(values, digestPassword)),
    onSaved: () => {
      message.success(adding ? t('added') : t('saved'));
      onSaved();
    },
  });
  const roles = Form.useWatch('roles', dialog.form);
  const lang = i18n.language === 'en' ? 'en' : 'zh-CN';

  const account: FieldsOf<UserFormValues> = [
    f.text('username', {
      label: 'field.username',
      required: 'rule.username',
      pattern: [USERNAME, 'rule.usernameChars'],
      lineBreak: true,
      disabled: !adding,
      autoComplete: 'off',
    }),
    f.text('name', { label: 'field.name', required: 'rule.name', lineBreak: true }),
  ];
  const access: FieldsOf<UserFormValues> = [
    {
      kind: 'custom',
      name: 'roles',
      label: 'field.roles',
      rules: [{ required: true, type: 'array', min: 1, message: t('rule.role') }],
      control: (
        <Select
          mode="multiple"
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('field.rolesPlaceholder')}
          options={TENANT_ROLES.map((r) => ({ value: r, label: sentenceCase(ROLE_LABELS[r][lang]) }))}
        />
      ),
    },
    {
      kind: 'custom',
      name: 'shops',
      label: 'field.stores',
      extra: needsStores(roles) ? undefined : 'adminAllStores',
      dependencies: ['roles'],
      rules: [
        ({ getFieldValue }) => ({
          validator: (_, value: number[] | undefined) =>
            needsStores(getFieldValue('roles')) && (value ?? []).length === 0
              ? Promise.reject(new Error(t('rule.store')))
              : Promise.resolve(),
        }),
      ],
      markRequired: needsStores(roles),
      control: (
        <Select
          mode="multiple"
          loading={storesLoading}
          placeholder={t('field.storesPlaceholder')}
          showSearch={{ optionFilterProp: 'label' }}
          options={stores.map((s) => ({ value: s.id, label: `${s.name} (${s.code})` }))}
        />
      ),
    },
    f.notes('introduction', { label: 'field.introduction', rows: [2, 4], lineBreak: true }),
  ];

  return (
    <FormModal
      {...dialog}
      title={adding ? t('addTitle') : t('editTitle', { name: user.username })}
      width={560}
      name="user"
      autoComplete="off"
      requiredMark
    >
      <FormFields fields={account} t={t} />
      <NewPasswordFields
        names={['password', 'rpassword']}
        labels={[t('field.password'), t('field.rpassword')]}
        required={adding}
        extra={adding ? undefined : t('passwordKeep')}
      />
      <FormFields fields={access} t={t} />
    </FormModal>
  );
}
