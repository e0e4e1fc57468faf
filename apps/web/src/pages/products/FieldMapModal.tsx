import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { CUSTOM_KEY_CHARS, FieldMap, PRODUCT_FIELD_LABELS, REQUIRED_PRODUCT_FIELDS } from '@esl/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { maxLengthOf } from '../../components/form/spec';
import { queryKeys } from '../../platform/queryKeys';
import { request } from '../../platform/request';
import { sentenceCase } from '../../utils/format';
import { isStandardField, type MappingRow, mappingBody, mappingProblems } from './body';

/** A column title's longest value, as the contract's mapping takes it. */
const TITLE_CHARS = maxLengthOf(FieldMap.shape.tField);

export const FIELD_MAP_KEY = queryKeys.fieldMap();

interface Props {
  open: boolean;
  /** The user may change the mapping (product.import); otherwise it is shown read-only. */
  editable: boolean;
  onClose: () => void;
}

interface Row extends MappingRow {
  /** Stable React key while rows are added and removed. */
  uid: number;
  /** A custom field: its key is typed (and may be removed); a standard field's is fixed. */
  custom: boolean;
}

let nextUid = 1;
const toRow = (r: MappingRow): Row => ({ ...r, uid: nextUid++, custom: !isStandardField(r.name) });

/** The tenant's import mapping (mapfield): which file column fills which product field. */
export function FieldMapModal({ open, editable, onClose }: Props) {
  const { t, i18n } = useTranslation('products');
  const lang = i18n.language === 'en' ? 'en' : 'zh-CN';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [rows, setRows] = useState<Row[]>([]);
  const [tried, setTried] = useState(false);

  const mapping = useQuery({
    queryKey: FIELD_MAP_KEY,
    queryFn: () => request('productFieldMap', {}),
    enabled: open,
  });

  useEffect(() => {
    if (open && mapping.data) {
      setRows(mapping.data.fields.map(toRow));
      setTried(false);
    }
  }, [open, mapping.data]);

  const problems = useMemo(() => mappingProblems(rows), [rows]);

  const save = useMutation({
    mutationFn: (fields: MappingRow[]) => request('productFieldMap', { fields: mappingBody(fields) }),
    onSuccess: (answer) => {
      queryClient.setQueryData(FIELD_MAP_KEY, answer);
      message.success(t('map.saved'));
      onClose();
    },
  });

  const submit = () => {
    setTried(true);
    if (problems.size === 0) save.mutate(rows);
  };

  const update = (uid: number, patch: Partial<MappingRow>) =>
    setRows((list) => list.map((r) => (r.uid === uid ? { ...r, ...patch } : r)));

  // Problems show once the user tries to save, not while the first rows are being typed.
  const problemOf = (index: number) => (tried ? problems.get(index) : undefined);

  const columns: ColumnsType<Row> = [
    {
      title: t('map.name'),
      dataIndex: 'name',
      width: 240,
      render: (name: string, row, index) => {
        if (!row.custom && isStandardField(name)) {
          return (
            <Space>
              <span>{sentenceCase(PRODUCT_FIELD_LABELS[name][lang])}</span>
              <Typography.Text type="secondary" code>
                {name}
              </Typography.Text>
              {REQUIRED_PRODUCT_FIELDS.includes(name) && <Tag color="red">{t('map.required')}</Tag>}
            </Space>
          );
        }
        const problem = problemOf(index);
        const keyProblem = problem === 'key' || problem === 'keyRepeat' ? problem : undefined;
        return (
          <Space orientation="vertical" size={0} style={{ width: '100%' }}>
            <Input
              value={name}
              disabled={!editable}
              placeholder={t('map.customKey')}
              status={keyProblem ? 'error' : undefined}
              maxLength={CUSTOM_KEY_CHARS}
              onChange={(e) => update(row.uid, { name: e.target.value })}
            />
            {keyProblem && <Typography.Text type="danger">{t(`map.problem.${keyProblem}`)}</Typography.Text>}
          </Space>
        );
      },
    },
    {
      title: t('map.tField'),
      dataIndex: 'tField',
      render: (tField: string, row, index) => {
        const problem = problemOf(index);
        const titleProblem = problem === 'title' || problem === 'titleRepeat' ? problem : undefined;
        return (
          <Space orientation="vertical" size={0} style={{ width: '100%' }}>
            <Input
              value={tField}
              disabled={!editable}
              status={titleProblem ? 'error' : undefined}
              maxLength={TITLE_CHARS}
              onChange={(e) => update(row.uid, { tField: e.target.value })}
            />
            {titleProblem && <Typography.Text type="danger">{t(`map.problem.${titleProblem}`)}</Typography.Text>}
          </Space>
        );
      },
    },
  ];
  if (editable) {
    columns.push({
      key: 'remove',
      width: 48,
      render: (_, row) =>
        row.custom ? (
          <Button
            type="text"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('delete')}
            onClick={() => setRows((list) => list.filter((r) => r.uid !== row.uid))}
          />
        ) : null,
    });
  }

  return (
    <Modal
      open={open}
      title={t('map.title')}
      okText={t('save')}
      cancelText={editable ? t('cancel') : t('close')}
      okButtonProps={{ style: editable ? undefined : { display: 'none' } }}
      confirmLoading={save.isPending}
      onOk={submit}
      onCancel={onClose}
      width={720}
    >
      <Alert type="info" showIcon title={t('map.hint')} style={{ marginBottom: 12 }} />
      <Table<Row>
        rowKey="uid"
        size="small"
        columns={columns}
        dataSource={rows}
        loading={mapping.isFetching}
        pagination={false}
        scroll={{ y: 420 }}
      />
      {editable && (
        <Button
          type="dashed"
          icon={<PlusOutlined />}
          style={{ marginTop: 12 }}
          onClick={() => setRows((list) => [...list, { name: '', tField: '', uid: nextUid++, custom: true }])}
        >
          {t('map.addCustom')}
        </Button>
      )}
    </Modal>
  );
}
