import { LockOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons';
import { AlterUserBody } from '@esl/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Avatar, Button, Space, Typography, Upload } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CALL_PATHS } from '../../api/callPaths';
import { CardColumns, CardForm } from '../../components/form/CardForm';
import { FormFields } from '../../components/form/FormFields';
import { contractFields, type FieldsOf } from '../../components/form/spec';
import { Loaded } from '../../components/Loaded';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { queryKeys } from '../../platform/queryKeys';
import { request, upload } from '../../platform/request';
import { useUserStore } from '../../store/user';
import { digestPassword } from '../../utils/digest';
import { avatarProblem } from './avatar';

interface ProfileValues {
  name: string;
  introduction: string;
}

interface PasswordValues {
  password: string;
  rpassword: string;
}

const SELF = queryKeys.self();
const f = contractFields(AlterUserBody.shape);
const PROFILE: FieldsOf<ProfileValues> = [
  f.text('name', { label: 'profile.name', required: 'rule.name', lineBreak: true }),
  f.notes('introduction', { label: 'profile.introduction', rows: [3, 6], lineBreak: true }),
];

export default function SetmePage() {
  const getInfo = useUserStore((s) => s.getInfo);
  // Loading the info again refreshes the navbar's name and avatar too, and gives the own id.
  const self = useQuery({ queryKey: SELF, queryFn: () => getInfo() });

  return (
    <Loaded query={self} ns="account">
      {({ id }) => <CardColumns left={<ProfileCard id={id} />} right={<PasswordCard id={id} />} />}
    </Loaded>
  );
}

function ProfileCard({ id }: { id: number }) {
  const { t } = useTranslation('account');
  const { message } = App.useApp();
  const name = useUserStore((s) => s.name);
  const introduction = useUserStore((s) => s.introduction);
  const reload = useReloadSelf();
  const values = useMemo(() => ({ name, introduction }), [name, introduction]);

  return (
    <CardForm
      title={t('profile.title')}
      name="profile"
      values={values}
      save={(v: ProfileValues) =>
        request('alterUser', { id, name: v.name.trim(), introduction: (v.introduction ?? '').trim() })
      }
      onSaved={async () => {
        message.success(t('saved'));
        await reload();
      }}
      submitText={t('save')}
      intro={<AvatarRow />}
    >
      <FormFields fields={PROFILE} t={t} />
    </CardForm>
  );
}

/** Loading the own info again refreshes the navbar's name and avatar too. */
function useReloadSelf() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: SELF });
}

/** The own picture, a button to change it and what it may be. */
function AvatarRow() {
  const { t } = useTranslation('account');
  const { message } = App.useApp();
  const username = useUserStore((s) => s.username);
  const avatar = useUserStore((s) => s.avatar);
  const reload = useReloadSelf();

  const sendAvatar = useMutation({
    mutationFn: (file: File) => upload(CALL_PATHS.avatar, file),
    onSuccess: async () => {
      message.success(t('avatar.done'));
      await reload();
    },
  });

  return (
    <Space align="center" size="large" style={{ marginBottom: 24 }}>
      <Avatar size={88} src={avatar || undefined} icon={<UserOutlined />} shape="square" />
      <Space orientation="vertical" size={4}>
        <Typography.Text strong>{username}</Typography.Text>
        <Upload
          accept="image/jpeg,image/png"
          showUploadList={false}
          maxCount={1}
          beforeUpload={(file) => {
            const problem = avatarProblem(file);
            if (problem === 'type') message.error(t('avatar.type'));
            else if (problem === 'size') message.error(t('avatar.size'));
            else sendAvatar.mutate(file);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} loading={sendAvatar.isPending}>
            {t('avatar.change')}
          </Button>
        </Upload>
        <Typography.Text type="secondary">{t('avatar.hint')}</Typography.Text>
      </Space>
    </Space>
  );
}

function PasswordCard({ id }: { id: number }) {
  const { t } = useTranslation('account');
  const { message } = App.useApp();

  return (
    <CardForm
      title={t('password.title')}
      name="password"
      autoComplete="off"
      save={(v: PasswordValues) =>
        request('alterUser', { id, password: digestPassword(v.password), rpassword: digestPassword(v.rpassword) })
      }
      onSaved={(_, form) => {
        form.resetFields();
        message.success(t('password.done'));
      }}
      submitText={t('password.submit')}
    >
      <NewPasswordFields
        names={['password', 'rpassword']}
        labels={[t('password.new'), t('password.confirm')]}
        prefix={<LockOutlined />}
      />
    </CardForm>
  );
}
