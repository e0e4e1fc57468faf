import { DeleteOutlined } from '@ant-design/icons';
import {
  type BodyOf,
  findTagModel,
  RULE_MATCH_FIELDS,
  type RuleKind,
  type RuleScope,
  SetRuleBody,
  type TagColourType,
  type TemplateRule,
} from '@esl/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  AutoComplete,
  Button,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  type SelectProps,
  Space,
  Table,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';
import { maxLengthOf } from '../../../components/form/spec';
import { queryKeys } from '../../../platform/queryKeys';
import { request, requestList } from '../../../platform/request';
import { misfit } from '../../tags/fit';
import { ColourType } from './ColourType';
import { MODEL_OPTIONS } from './modelOptions';

interface Props {
  open: boolean;
  canWrite: boolean;
  onClose: () => void;
}

interface RuleValues {
  scope: RuleScope;
  kind: RuleKind;
  model?: string;
  colour?: TagColourType;
  matchKey?: string;
  matchValue?: string;
  templateId?: number;
}

const KINDS: readonly RuleKind[] = ['default', 'unbound', 'category'];
const MATCH_VALUE_CHARS = maxLengthOf(SetRuleBody.shape.matchValue);

/**
 * Which template tags show (docs/TEMPLATES.md, "Which template a tag shows"): the rules of the
 * tenant and of the current store, and a form to set the default, the unbound label or a category
 * template of a tag model. Per-tag overrides are listed here too; the tags page sets them.
 */
export function RulesModal({ open, canWrite, onClose }: Props) {
  const { t } = useTranslation('templates');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<RuleValues>();
  const kind = Form.useWatch('kind', form);
  const modelCode = Form.useWatch('model', form);
  // Models the tenant's stations taught (docs/OEPL.md) are offered beside the catalogue, by key.
  const learned = useQuery({
    queryKey: queryKeys.learnedModels(),
    queryFn: () => request('learnedModelList', {}),
    enabled: open,
  });
  const drawable = (learned.data?.rows ?? []).filter((m) => m.colourType !== null);
  const taught = drawable.find((m) => m.key === modelCode) ?? null;
  const model = modelCode
    ? (findTagModel(modelCode) ??
      (taught?.colourType ? { code: taught.key, colours: [taught.colourType] as TagColourType[] } : undefined))
    : undefined;
  const modelOptions: SelectProps['options'] = drawable.length
    ? [
        { label: t('field.catalogue'), options: MODEL_OPTIONS },
        {
          label: t('field.learned'),
          options: drawable.map((m) => ({ value: m.key, label: `${m.name} (${m.w}×${m.h})` })),
        },
      ]
    : MODEL_OPTIONS;

  const rules = useQuery({
    queryKey: queryKeys.templateRules(),
    queryFn: () => requestList('templateRules', { limit: 500 }),
    enabled: open,
  });
  // Templates of the model's size: the server still checks the colours and answers why it refuses.
  const templates = useQuery({
    queryKey: queryKeys.templatesForRule(model?.code),
    queryFn: () => requestList('templateList', { limit: 500 }),
    enabled: open && model !== undefined,
  });
  const colour = Form.useWatch('colour', form) ?? model?.colours[0];
  // Of the model's size and of inks its panel has, so the console never asks what the server refuses.
  const fitting = (templates.data?.rows ?? []).filter(
    (x) => model && colour && misfit(x, { model: model.code, colour, learnedModel: taught }) === null,
  );
  // A rule changes which template tags show: the tag list answers it in every row.
  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.templateRules() });
    void queryClient.invalidateQueries({ queryKey: queryKeys.area('tags') });
  };

  const save = useMutation({
    mutationFn: (values: RuleValues) => request('setTemplateRule', values as BodyOf<'setTemplateRule'>),
    onSuccess: () => {
      message.success(t('rules.saved'));
      form.resetFields(['templateId', 'matchValue']);
      changed();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => request('delTemplateRules', { ids: [id] }),
    onSuccess: changed,
  });

  const columns: ColumnsType<TemplateRule> = [
    { title: t('rules.scope'), dataIndex: 'scope', width: 90, render: (s: RuleScope) => t(`rules.scopes.${s}`) },
    {
      title: t('rules.kind'),
      dataIndex: 'kind',
      width: 130,
      render: (k: TemplateRule['kind'], r) =>
        k === 'tag' ? `${t('rules.kinds.tag')} ${r.hardwareId ?? ''}` : t(`rules.kinds.${k}`),
    },
    { title: t('rules.model'), dataIndex: 'modelName', width: 90 },
    {
      title: t('rules.colour'),
      dataIndex: 'colour',
      width: 150,
      render: (c: TagColourType) => <ColourType value={c} />,
    },
    {
      title: t('rules.match'),
      key: 'match',
      width: 150,
      render: (_, r) => (r.kind === 'category' ? `${r.matchKey} = ${r.matchValue}` : '—'),
    },
    { title: t('rules.template'), dataIndex: 'templateName', ellipsis: true },
  ];
  if (canWrite) {
    columns.push({
      key: 'delete',
      width: 60,
      render: (_, r) => (
        <Popconfirm title={t('rules.confirmDelete')} onConfirm={() => remove.mutate(r.id)}>
          <Button type="link" size="small" danger icon={<DeleteOutlined />} aria-label={t('rules.delete')} />
        </Popconfirm>
      ),
    });
  }

  return (
    <Modal open={open} title={t('rules.title')} width={960} footer={null} onCancel={onClose} destroyOnHidden>
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('rules.help')}</Typography.Text>
        <Table<TemplateRule>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={rules.data?.rows ?? []}
          loading={rules.isFetching}
          pagination={false}
          scroll={{ y: 320 }}
          locale={{
            emptyText: <EmptyState title={t('rules.empty')} hint={canWrite ? t('rules.emptyHint') : undefined} />,
          }}
        />
        {canWrite && (
          <Form<RuleValues>
            form={form}
            layout="inline"
            initialValues={{ scope: 'store', kind: 'default' }}
            onFinish={(values) => save.mutate(values)}
          >
            <Form.Item name="scope">
              <Select
                style={{ width: 110 }}
                options={(['store', 'tenant'] as const).map((s) => ({ value: s, label: t(`rules.scopes.${s}`) }))}
              />
            </Form.Item>
            <Form.Item name="kind">
              <Select style={{ width: 130 }} options={KINDS.map((k) => ({ value: k, label: t(`rules.kinds.${k}`) }))} />
            </Form.Item>
            <Form.Item name="model" rules={[{ required: true, message: t('rules.pickModel') }]}>
              <Select
                style={{ width: 200 }}
                showSearch
                optionFilterProp="label"
                placeholder={t('rules.model')}
                options={modelOptions}
                onChange={() => form.resetFields(['colour', 'templateId'])}
              />
            </Form.Item>
            <Form.Item name="colour">
              <Select
                onChange={() => form.resetFields(['templateId'])}
                style={{ width: 150 }}
                placeholder={t('rules.colour')}
                allowClear
                options={(model?.colours ?? []).map((c) => ({ value: c, label: <ColourType value={c} /> }))}
              />
            </Form.Item>
            {kind === 'category' && (
              <>
                <Form.Item name="matchKey" rules={[{ required: true, message: t('rules.pickField') }]}>
                  <AutoComplete
                    style={{ width: 130 }}
                    placeholder={t('rules.field')}
                    options={[...RULE_MATCH_FIELDS, 'category'].map((f) => ({ value: f }))}
                  />
                </Form.Item>
                <Form.Item name="matchValue" rules={[{ required: true, message: t('rules.pickValue') }]}>
                  <Input style={{ width: 130 }} placeholder={t('rules.value')} maxLength={MATCH_VALUE_CHARS} />
                </Form.Item>
              </>
            )}
            <Form.Item name="templateId" rules={[{ required: true, message: t('rules.pickTemplate') }]}>
              <Select
                style={{ width: 220 }}
                showSearch
                optionFilterProp="label"
                placeholder={t('rules.template')}
                loading={templates.isFetching}
                options={fitting.map((x) => ({ value: x.id, label: x.name }))}
              />
            </Form.Item>
            <Form.Item>
              <Button type="primary" htmlType="submit" loading={save.isPending}>
                {t('rules.set')}
              </Button>
            </Form.Item>
          </Form>
        )}
      </Space>
    </Modal>
  );
}
