import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { AddPageScheduleBody, type PageSchedule } from '@esl/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Checkbox,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  TimePicker,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/EmptyState';
import { FormModal, useEditDialog, useFormDialog } from '../../components/FormModal';
import { maxLengthOf, rangeOf } from '../../components/form/spec';
import { queryKeys } from '../../platform/queryKeys';
import { request, requestList } from '../../platform/request';
import {
  fillPageSchedule,
  NEW_SCHEDULE,
  overnight,
  type PageScheduleValues,
  timesProblem,
  toPageScheduleBody,
  WEEKDAY_PRESETS,
  weekdaysText,
} from './pageSchedule';

const PAGE = rangeOf(AddPageScheduleBody.shape.page);
const NAME_CHARS = maxLengthOf(AddPageScheduleBody.shape.name);
const DAYS = [1, 2, 3, 4, 5, 6, 7] as const;

interface Props {
  open: boolean;
  storeId: number;
  /** The user may add, change and delete schedules (tag.write); else the list only. */
  canWrite: boolean;
  onClose: () => void;
}

/**
 * The page schedules of the current store (docs/PAGES.md "Page schedules"): on the weekdays
 * chosen, from a time to a time of the store's clock, its tags drawn with a template show another
 * page of their labels, then page 1 again. Opened from the tag list's toolbar (*Page schedules*).
 */
export function PageSchedulesModal({ open, storeId, canWrite, onClose }: Props) {
  const { t } = useTranslation('tags');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const editing = useEditDialog<PageSchedule>();
  const key = queryKeys.pageSchedules(storeId);
  const list = useQuery({
    queryKey: key,
    queryFn: () => requestList('pageScheduleList', { limit: 500 }),
    enabled: open,
  });
  const changed = () => void queryClient.invalidateQueries({ queryKey: key });
  const remove = useMutation({
    mutationFn: (id: number) => request('deletePageSchedule', { ids: [id] }),
    onSuccess: () => {
      message.success(t('schedule.deleted'));
      changed();
    },
  });
  const days = (s: PageSchedule) =>
    weekdaysText(s.weekdays, {
      preset: (p) => t(`schedule.presets.${p}`),
      day: (d) => t(`schedule.days.${d}`),
      separator: t('schedule.daySeparator'),
    });

  const columns: ColumnsType<PageSchedule> = [
    {
      title: t('schedule.col.name'),
      dataIndex: 'name',
      width: 150,
      ellipsis: true,
      render: (name: string, s) => name || `#${s.id}`,
    },
    { title: t('schedule.col.template'), dataIndex: 'templateName', width: 160, ellipsis: true },
    { title: t('schedule.col.page'), dataIndex: 'page', width: 70 },
    { title: t('schedule.col.days'), key: 'days', width: 170, render: (_, s) => days(s) },
    {
      title: t('schedule.col.time'),
      key: 'time',
      width: 150,
      render: (_, s) => `${s.from}–${s.to}${s.to <= s.from ? ` ${t('schedule.nextDay')}` : ''}`,
    },
    {
      title: t('schedule.col.next'),
      key: 'next',
      width: 200,
      render: (_, s) =>
        !s.enabled ? (
          <Tag>{t('schedule.off')}</Tag>
        ) : s.active && s.next ? (
          <Tag color="green" data-testid="page-schedule-active">
            {t('schedule.activeUntil', { time: s.next.endAt.replace('T', ' ') })}
          </Tag>
        ) : s.next ? (
          <Typography.Text>{s.next.startAt.replace('T', ' ')}</Typography.Text>
        ) : (
          '—'
        ),
    },
  ];
  if (canWrite) {
    columns.push({
      key: 'actions',
      width: 90,
      render: (_, s) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            icon={<EditOutlined />}
            aria-label={t('schedule.edit')}
            onClick={() => editing.edit(s)}
          />
          <Popconfirm
            title={t('schedule.deleteTitle')}
            description={t('schedule.deleteConfirm')}
            okText={t('ok')}
            onConfirm={() => remove.mutateAsync(s.id)}
          >
            <Button type="link" size="small" danger icon={<DeleteOutlined />} aria-label={t('delete')} />
          </Popconfirm>
        </Space>
      ),
    });
  }

  return (
    <Modal open={open} title={t('schedule.title')} width={1000} footer={null} onCancel={onClose} destroyOnHidden>
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('schedule.help')}</Typography.Text>
        {canWrite && (
          <Flex justify="end">
            <Button
              type="primary"
              icon={<PlusOutlined />}
              data-testid="add-page-schedule"
              onClick={() => editing.edit(null)}
            >
              {t('schedule.add')}
            </Button>
          </Flex>
        )}
        <Table<PageSchedule>
          rowKey="id"
          size="small"
          data-testid="page-schedules"
          columns={columns}
          dataSource={list.data?.rows ?? []}
          loading={list.isFetching}
          pagination={false}
          scroll={{ y: 360 }}
          locale={{
            emptyText: <EmptyState title={t('schedule.empty')} hint={canWrite ? t('schedule.emptyHint') : undefined} />,
          }}
        />
      </Space>
      {canWrite && (
        <PageScheduleForm
          open={editing.open}
          schedule={editing.record}
          onClose={editing.close}
          onSaved={() => {
            editing.close();
            changed();
          }}
        />
      )}
    </Modal>
  );
}

/** Adds a page schedule to the current store, or changes one. */
function PageScheduleForm({
  open,
  schedule,
  onClose,
  onSaved,
}: {
  open: boolean;
  schedule: PageSchedule | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('tags');
  const { message } = App.useApp();
  const templates = useQuery({
    queryKey: queryKeys.templatesForPageSchedule(),
    queryFn: () => requestList('templateList', { limit: 500 }),
    enabled: open,
  });
  const dialog = useFormDialog<PageScheduleValues, PageSchedule>({
    open,
    onClose,
    record: schedule,
    fill: fillPageSchedule,
    save: (v) => {
      const body = toPageScheduleBody(v);
      return schedule ? request('editPageSchedule', { id: schedule.id, ...body }) : request('addPageSchedule', body);
    },
    onSaved: () => {
      message.success(t('schedule.saved'));
      onSaved();
    },
  });
  const from = Form.useWatch('from', dialog.form);
  const to = Form.useWatch('to', dialog.form);
  const setDays = (days: readonly number[]) => dialog.form.setFieldValue('weekdays', [...days]);

  return (
    <FormModal<PageScheduleValues>
      {...dialog}
      title={schedule ? t('schedule.editTitle', { name: schedule.name || `#${schedule.id}` }) : t('schedule.addTitle')}
      width={560}
      name="pageSchedule"
      autoComplete="off"
      initialValues={NEW_SCHEDULE}
      intro={<Typography.Paragraph type="secondary">{t('schedule.formHelp')}</Typography.Paragraph>}
    >
      <Form.Item name="name" label={t('schedule.field.name')}>
        <Input maxLength={NAME_CHARS} placeholder={t('schedule.field.namePlaceholder')} />
      </Form.Item>
      <Form.Item
        name="templateId"
        label={t('schedule.field.template')}
        rules={[{ required: true, message: t('schedule.field.templateRequired') }]}
      >
        <Select
          showSearch
          optionFilterProp="label"
          loading={templates.isFetching}
          options={(templates.data?.rows ?? []).map((x) => ({ value: x.id, label: x.name }))}
        />
      </Form.Item>
      <Form.Item
        name="page"
        label={t('schedule.field.page')}
        extra={t('schedule.field.pageHelp')}
        rules={[{ required: true, message: t('page.pageRequired') }]}
      >
        <InputNumber min={PAGE.min} max={PAGE.max} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item label={t('schedule.field.days')} required>
        <Space orientation="vertical" size={4}>
          <Space size={4}>
            {(Object.keys(WEEKDAY_PRESETS) as Array<keyof typeof WEEKDAY_PRESETS>).map((p) => (
              <Button key={p} size="small" onClick={() => setDays(WEEKDAY_PRESETS[p])}>
                {t(`schedule.presets.${p}`)}
              </Button>
            ))}
          </Space>
          <Form.Item
            name="weekdays"
            noStyle
            rules={[{ required: true, type: 'array', min: 1, message: t('schedule.field.daysRequired') }]}
          >
            <Checkbox.Group options={DAYS.map((d) => ({ value: d, label: t(`schedule.days.${d}`) }))} />
          </Form.Item>
        </Space>
      </Form.Item>
      <Space size="middle" align="start">
        <Form.Item
          name="from"
          label={t('schedule.field.from')}
          rules={[{ required: true, message: t('schedule.field.fromRequired') }]}
        >
          <TimePicker format="HH:mm" minuteStep={5} needConfirm={false} />
        </Form.Item>
        <Form.Item
          name="to"
          label={t('schedule.field.to')}
          dependencies={['from']}
          extra={overnight(from, to) ? t('schedule.field.overnight') : undefined}
          rules={[
            { required: true, message: t('schedule.field.toRequired') },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                timesProblem(getFieldValue('from'), value)
                  ? Promise.reject(new Error(t('schedule.field.sameTime')))
                  : Promise.resolve(),
            }),
          ]}
        >
          <TimePicker format="HH:mm" minuteStep={5} needConfirm={false} />
        </Form.Item>
      </Space>
      <Typography.Paragraph type="secondary">{t('schedule.field.clock')}</Typography.Paragraph>
      <Form.Item name="enabled" label={t('schedule.field.enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
    </FormModal>
  );
}
