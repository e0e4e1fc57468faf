import { ErrorCode, type Tag, type Template } from '@esl/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Flex, Form, Modal, Radio, Select, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, request, requestList } from '../../platform/request';
import { misfitOfAll } from './fit';

interface Props {
  /** The tags to set (the selection, or one row); empty when the dialog is closed. */
  tags: readonly Tag[];
  onClose: () => void;
  onSaved: () => void;
}

interface Values {
  mode: 'own' | 'rules';
  templateId?: number;
}

/**
 * A template of their own for some tags (/mgr/tag/settemplate), before every rule; or back to the
 * rules. Templates that do not fit every chosen tag are offered disabled, saying whether the size
 * or the colours are wrong; the server checks again and its refusal is shown here, in words.
 */
export function SetTemplateModal({ tags, onClose, onSaved }: Props) {
  const { t } = useTranslation('tags');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const mode = Form.useWatch('mode', form);
  const templateId = Form.useWatch('templateId', form);
  const open = tags.length > 0;

  const templates = useQuery({
    queryKey: ['templates', 'forTags'],
    queryFn: () => requestList('templateList', { limit: 500 }),
    enabled: open,
  });
  const options = (templates.data?.rows ?? [])
    .map((tpl: Template) => ({ tpl, problem: misfitOfAll(tpl, tags) }))
    .sort((a, b) => Number(a.problem !== null) - Number(b.problem !== null));

  const save = useMutation({
    mutationFn: (v: Values) =>
      request(
        'setTagTemplate',
        { ids: tags.map((x) => x.id), templateId: v.mode === 'rules' ? null : (v.templateId ?? null) },
        { quiet: true },
      ),
    onSuccess: (answer, v) => {
      message.success(t(v.mode === 'rules' ? 'template.cleared' : 'template.saved', { count: answer.updated }));
      onSaved();
      onClose();
    },
  });
  useEffect(() => {
    if (open) {
      form.resetFields();
      save.reset();
    }
  }, [open, form, save.reset]);

  const chosen = options.find((o) => o.tpl.id === templateId);
  const refusal = save.error instanceof ApiError ? save.error : null;
  return (
    <Modal
      open={open}
      title={t('template.title', { count: tags.length })}
      okText={t('save')}
      cancelText={t('cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      width={560}
    >
      <Form<Values>
        form={form}
        name="tagTemplate"
        layout="vertical"
        initialValues={{ mode: 'own' }}
        onFinish={(v) => save.mutate(v)}
      >
        <Typography.Paragraph type="secondary">{t('template.help')}</Typography.Paragraph>
        <Form.Item name="mode">
          <Radio.Group
            options={[
              { value: 'own', label: t('template.own') },
              { value: 'rules', label: t('template.rules') },
            ]}
          />
        </Form.Item>
        {mode !== 'rules' && (
          <Form.Item
            name="templateId"
            label={t('template.pick')}
            rules={[{ required: true, message: t('template.pickRequired') }]}
          >
            <Select
              showSearch
              optionFilterProp="title"
              loading={templates.isFetching}
              placeholder={t('template.pickPlaceholder')}
              options={options.map(({ tpl, problem }) => ({
                value: tpl.id,
                title: tpl.name,
                disabled: problem !== null,
                label: (
                  <Flex justify="space-between" gap={8}>
                    <Typography.Text ellipsis>{tpl.name}</Typography.Text>
                    <Typography.Text type="secondary" style={{ flex: 'none' }}>
                      {problem ? t(`template.misfit.${problem}`) : `${tpl.width}×${tpl.length}`}
                    </Typography.Text>
                  </Flex>
                ),
              }))}
            />
          </Form.Item>
        )}
        {chosen?.problem && <Alert type="warning" showIcon message={t(`template.misfitLong.${chosen.problem}`)} />}
        {refusal && (
          <Alert
            type="error"
            showIcon
            data-testid="tag-template-refused"
            message={t('template.refused')}
            // The server's own words name the field (templateId): the reader gets the reason instead.
            description={refusal.code === ErrorCode.VALIDATION ? t('template.refusedFit') : refusal.message}
          />
        )}
      </Form>
    </Modal>
  );
}
