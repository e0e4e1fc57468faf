import { ROLE_LABELS, type Store, TENANT_ROLES, type User } from '@esl/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Form, Input, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../components/FormModal';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { request } from '../../platform/request';
import { digestPassword } from '../../utils/digest';
import { sentenceCase } from '../../utils/format';
import { noLineBreak as noLineBreakRule } from '../shared/rules';
import { addUserBody, alterUserBody, needsStores, type UserFormValues } from './body';

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
  const [form] = Form.useForm<UserFormValues>();
  const roles = Form.useWatch('roles', form);
  const lang = i18n.language === 'en' ? 'en' : 'zh-CN';
  const adding = user === null;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (user) {
      form.setFieldsValue({
        username: user.username,
        name: user.name,
        roles: user.roles,
        shops: user.shops,
        introduction: user.introduction,
      });
    }
  }, [open, user, form]);

  const save = useMutation({
    mutationFn: (values: UserFormValues) =>
      user
        ? request('alterUser', alterUserBody(user.id, values, digestPassword))
        : request('addUser', addUserBody(values, digestPassword)),
    onSuccess: () => {
      message.success(adding ? t('added') : t('saved'));
      onSaved();
    },
  });

  const noLineBreak = noLineBreakRule(t('rule.lineBreak'));

  return (
    <FormModal
      open={open}
      title={adding ? t('addTitle') : t('editTitle', { name: user.username })}
      okText={t('save')}
      cancelText={t('cancel')}
      saving={save.isPending}
      onClose={onClose}
      width={560}
      form={form}
      name="user"
      autoComplete="off"
      requiredMark
      onFinish={(values) => save.mutate(values)}
    >
      <Form.Item
        name="username"
        label={t('field.username')}
        rules={[
          { required: true, whitespace: true, message: t('rule.username') },
          { pattern: /^[A-Za-z0-9_.@-]*$/, message: t('rule.usernameChars') },
          noLineBreak,
        ]}
      >
        <Input disabled={!adding} maxLength={64} autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="name"
        label={t('field.name')}
        rules={[{ required: true, whitespace: true, message: t('rule.name') }, noLineBreak]}
      >
        <Input maxLength={64} />
      </Form.Item>
      <NewPasswordFields
        names={['password', 'rpassword']}
        labels={[t('field.password'), t('field.rpassword')]}
        required={adding}
        extra={adding ? undefined : t('passwordKeep')}
      />
      <Form.Item
        name="roles"
        label={t('field.roles')}
        rules={[{ required: true, type: 'array', min: 1, message: t('rule.role') }]}
      >
        <Select
          mode="multiple"
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('field.rolesPlaceholder')}
          options={TENANT_ROLES.map((r) => ({ value: r, label: sentenceCase(ROLE_LABELS[r][lang]) }))}
        />
      </Form.Item>
      <Form.Item
        name="shops"
        label={t('field.stores')}
        extra={needsStores(roles) ? undefined : t('adminAllStores')}
        dependencies={['roles']}
        rules={[
          ({ getFieldValue }) => ({
            validator: (_, value: number[] | undefined) =>
              needsStores(getFieldValue('roles')) && (value ?? []).length === 0
                ? Promise.reject(new Error(t('rule.store')))
                : Promise.resolve(),
          }),
        ]}
        required={needsStores(roles)}
      >
        <Select
          mode="multiple"
          loading={storesLoading}
          placeholder={t('field.storesPlaceholder')}
          showSearch={{ optionFilterProp: 'label' }}
          options={stores.map((s) => ({ value: s.id, label: `${s.name} (${s.code})` }))}
        />
      </Form.Item>
      <Form.Item name="introduction" label={t('field.introduction')} rules={[noLineBreak]}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={500} showCount />
      </Form.Item>
    </FormModal>
  );
}
