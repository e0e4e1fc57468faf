import { LockOutlined, SaveOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Avatar, Button, Card, Col, Form, Input, Result, Row, Skeleton, Space, Typography, Upload } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { CALL_PATHS } from '../../api/callPaths';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { queryKeys } from '../../platform/queryKeys';
import { request, upload } from '../../platform/request';
import { useUserStore } from '../../store/user';
import { digestPassword } from '../../utils/digest';
import { noLineBreak as noLineBreakRule } from '../shared/rules';
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

export default function SetmePage() {
  const { t } = useTranslation('account');
  const getInfo = useUserStore((s) => s.getInfo);
  // Loading the info again refreshes the navbar's name and avatar too, and gives the own id.
  const self = useQuery({ queryKey: SELF, queryFn: () => getInfo() });

  if (self.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (self.isError) {
    return (
      <Result
        status="warning"
        title={t('loadFailed')}
        extra={
          <Button type="primary" onClick={() => void self.refetch()}>
            {t('retry')}
          </Button>
        }
      />
    );
  }
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={12}>
        <ProfileCard id={self.data.id} />
      </Col>
      <Col xs={24} xl={12}>
        <PasswordCard id={self.data.id} />
      </Col>
    </Row>
  );
}

function ProfileCard({ id }: { id: number }) {
  const { t } = useTranslation('account');
  const { message } = App.useApp();
  const [form] = Form.useForm<ProfileValues>();
  const name = useUserStore((s) => s.name);
  const username = useUserStore((s) => s.username);
  const avatar = useUserStore((s) => s.avatar);
  const introduction = useUserStore((s) => s.introduction);
  const queryClient = useQueryClient();
  const reload = () => queryClient.invalidateQueries({ queryKey: SELF });

  useEffect(() => {
    form.setFieldsValue({ name, introduction });
  }, [name, introduction, form]);

  const save = useMutation({
    mutationFn: (v: ProfileValues) =>
      request('alterUser', { id, name: v.name.trim(), introduction: (v.introduction ?? '').trim() }),
    onSuccess: async () => {
      message.success(t('saved'));
      await reload();
    },
  });

  const sendAvatar = useMutation({
    mutationFn: (file: File) => upload(CALL_PATHS.avatar, file),
    onSuccess: async () => {
      message.success(t('avatar.done'));
      await reload();
    },
  });

  const noLineBreak = noLineBreakRule(t('rule.lineBreak'));

  return (
    <Card title={t('profile.title')} size="small">
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
      <Form<ProfileValues> form={form} name="profile" layout="vertical" onFinish={(v) => save.mutate(v)}>
        <Form.Item
          name="name"
          label={t('profile.name')}
          rules={[{ required: true, whitespace: true, message: t('rule.name') }, noLineBreak]}
        >
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="introduction" label={t('profile.introduction')} rules={[noLineBreak]}>
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 6 }} maxLength={500} showCount />
        </Form.Item>
        <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={save.isPending}>
          {t('save')}
        </Button>
      </Form>
    </Card>
  );
}

function PasswordCard({ id }: { id: number }) {
  const { t } = useTranslation('account');
  const { message } = App.useApp();
  const [form] = Form.useForm<PasswordValues>();

  const save = useMutation({
    mutationFn: (v: PasswordValues) =>
      request('alterUser', { id, password: digestPassword(v.password), rpassword: digestPassword(v.rpassword) }),
    onSuccess: () => {
      form.resetFields();
      message.success(t('password.done'));
    },
  });

  return (
    <Card title={t('password.title')} size="small">
      <Form<PasswordValues>
        form={form}
        name="password"
        layout="vertical"
        autoComplete="off"
        onFinish={(v) => save.mutate(v)}
      >
        <NewPasswordFields
          names={['password', 'rpassword']}
          labels={[t('password.new'), t('password.confirm')]}
          prefix={<LockOutlined />}
        />
        <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={save.isPending}>
          {t('password.submit')}
        </Button>
      </Form>
    </Card>
  );
}
