import type { Tenant } from '@esl/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Form, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../components/FormModal';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { request } from '../../platform/request';
import { digestPassword } from '../../utils/digest';
import { resetPasswordBody } from './body';

interface Props {
  /** The tenant whose administrator gets a new password; null when closed. */
  tenant: Tenant | null;
  onClose: () => void;
}

interface Values {
  pwd: string;
  rpwd: string;
}

export function ResetPasswordModal({ tenant, onClose }: Props) {
  const { t } = useTranslation('tenants');
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<Values>();

  useEffect(() => {
    if (tenant) form.resetFields();
  }, [tenant, form]);

  const reset = useMutation({
    mutationFn: ({ id, pwd }: { id: number; pwd: string }) =>
      request('resetAccountPwd', resetPasswordBody(id, pwd, digestPassword)),
    onSuccess: () => {
      message.success(t('pwdReset'));
      onClose();
    },
  });

  const confirm = (v: Values) => {
    if (!tenant) return;
    modal.confirm({
      title: t('resetTitle'),
      content: t('resetConfirm', { account: tenant.account, name: tenant.name }),
      okText: t('resetPwd'),
      okButtonProps: { danger: true },
      cancelText: t('cancel'),
      onOk: () => reset.mutateAsync({ id: tenant.id, pwd: v.pwd }).catch(() => undefined),
    });
  };

  return (
    <FormModal
      open={tenant !== null}
      title={t('resetTitle')}
      okText={t('resetPwd')}
      saving={reset.isPending}
      onClose={onClose}
      width={480}
      form={form}
      name="resetPwd"
      autoComplete="off"
      onFinish={confirm}
      intro={
        <Typography.Paragraph type="secondary">
          {t('resetFor', { account: tenant?.account ?? '', name: tenant?.name ?? '' })}
        </Typography.Paragraph>
      }
    >
      <NewPasswordFields names={['pwd', 'rpwd']} labels={[t('field.newPassword'), t('field.rpassword')]} />
    </FormModal>
  );
}
