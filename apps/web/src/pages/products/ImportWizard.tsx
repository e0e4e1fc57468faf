import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import {
  IMPORT_TIME_FIELD,
  IMPORT_TIME_LABEL,
  type ImportColumn,
  type ImportData,
  type ImportError,
  type ImportInspection,
  type ImportOptions,
  type ImportPreviewRow,
  PRODUCT_FIELD_LABELS,
  PRODUCT_IMPORT_MAX_BYTES,
} from '@esl/contract';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Checkbox,
  DatePicker,
  Descriptions,
  Modal,
  Progress,
  Radio,
  Select,
  Space,
  Spin,
  Steps,
  Table,
  Tag,
  Typography,
  theme,
  Upload,
  type UploadFile,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CALL_PATHS } from '../../api/callPaths';
import { ApiError, request, upload } from '../../platform/request';
import { saveBlob } from '../../utils/download';
import { sentenceCase } from '../../utils/format';
import { importErrorsOf, isStandardField } from './body';
import { csvBlob, importFileType } from './csv';
import { FIELD_MAP_KEY } from './FieldMapModal';
import { chooseField, columnLetter, schedules, type TimeChoice, timeOptions } from './wizard';
import { xlsxBlob } from './xlsx';

interface Props {
  open: boolean;
  onClose: () => void;
  /** Products were written. */
  onImported: () => void;
}

/** A big file takes a while to check and write; the usual 5 s call timeout would cut it off. */
const IMPORT_TIMEOUT_MS = 180_000;
/** A look at the first rows reads little, but the file is uploaded whole. */
const INSPECT_TIMEOUT_MS = 60_000;

type Refusal = { message: string; errors: ImportError[] };

type Stage =
  | { kind: 'file'; refusal?: Refusal }
  | { kind: 'columns'; refusal?: Refusal }
  | { kind: 'sending'; percent: number }
  | { kind: 'done'; result: ImportData }
  | { kind: 'refused'; refusal: Refusal };

const refusalOf = (error: unknown): Refusal => {
  const refusal = error instanceof ApiError ? error : new ApiError(-1, String(error));
  return { message: refusal.message, errors: importErrorsOf(refusal.data) };
};

/**
 * Imports products in three short steps: pick a CSV or XLSX file; see the sheet and the title
 * row the server found, each column with the product field it fills (recognised from the saved
 * mapping and common titles in both languages, every choice changeable, columns that fill no
 * field shown as such) and the first rows with their problems; import — all or nothing — and,
 * if asked, save the columns used as the field mapping.
 */
export function ImportWizard({ open, onClose, onImported }: Props) {
  const { t, i18n } = useTranslation('products');
  const lang = i18n.language === 'en' ? 'en' : 'zh-CN';
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [stage, setStage] = useState<Stage>({ kind: 'file' });
  const [seen, setSeen] = useState<ImportInspection | null>(null);
  const [looking, setLooking] = useState(false);
  const [save, setSave] = useState(false);
  const [time, setTime] = useState<TimeChoice>({ wholeFile: false, at: null, scope: 'store' });
  // Answers of an older look arriving after a newer one was asked for are dropped.
  const asked = useRef(0);

  const mapping = useQuery({
    queryKey: FIELD_MAP_KEY,
    queryFn: () => request('productFieldMap', {}),
    enabled: open,
  });

  useEffect(() => {
    if (open) {
      setFile(null);
      setSeen(null);
      setSave(false);
      setTime({ wholeFile: false, at: null, scope: 'store' });
      setStage({ kind: 'file' });
    }
  }, [open]);

  const sending = stage.kind === 'sending';
  const droppedSeveral = useRef(false);

  const pick = (picked: File, all: readonly File[]): boolean => {
    if (droppedSeveral.current) {
      droppedSeveral.current = false;
    } else if (all.length > 1) {
      if (picked === all[0]) message.error(t('import.oneFile'));
    } else if (!importFileType(picked.name)) {
      message.error(t('import.fileType'));
    } else if (picked.size > PRODUCT_IMPORT_MAX_BYTES) {
      message.error(t('import.fileSize', { mb: PRODUCT_IMPORT_MAX_BYTES / 1024 / 1024 }));
    } else {
      setFile(picked);
      setSeen(null);
      setStage({ kind: 'file' });
    }
    return false;
  };

  /** Asks the server to look at the file with these choices; on success shows the columns step. */
  const look = async (options: ImportOptions) => {
    if (!file) return;
    const ticket = ++asked.current;
    setLooking(true);
    try {
      const data = (await upload(CALL_PATHS.inspectImport, file, {
        timeout: INSPECT_TIMEOUT_MS,
        fields: { options: JSON.stringify(options) },
      })) as ImportInspection;
      if (ticket !== asked.current) return;
      setSeen(data);
      setStage({ kind: 'columns' });
    } catch (error) {
      if (ticket !== asked.current) return;
      setStage((s) =>
        s.kind === 'columns'
          ? { kind: 'columns', refusal: refusalOf(error) }
          : { kind: 'file', refusal: refusalOf(error) },
      );
    } finally {
      if (ticket === asked.current) setLooking(false);
    }
  };

  const choices = (data: ImportInspection): ImportOptions => ({
    sheet: data.sheet,
    headerLine: data.headerLine,
    columns: data.columns.map((c) => c.field ?? ''),
  });

  const start = async () => {
    if (!file || !seen) return;
    const when = timeOptions(seen.columns, time);
    if (when === null) return;
    setStage({ kind: 'sending', percent: 0 });
    try {
      const data = (await upload(CALL_PATHS.importMapped, file, {
        timeout: IMPORT_TIMEOUT_MS,
        fields: { options: JSON.stringify({ ...choices(seen), ...when, save }) },
        onProgress: (fraction) => setStage({ kind: 'sending', percent: Math.round(fraction * 100) }),
      })) as ImportData;
      setStage({ kind: 'done', result: data });
      onImported();
    } catch (error) {
      setStage({ kind: 'refused', refusal: refusalOf(error) });
    }
  };

  // A standard field by its label; a custom field by its key; '' is the whole row or file.
  const fieldLabel = (field: string) => {
    if (!field) return '—';
    if (field === IMPORT_TIME_FIELD) return IMPORT_TIME_LABEL[lang];
    return isStandardField(field) ? PRODUCT_FIELD_LABELS[field][lang] : field;
  };

  const template = () => {
    const titles = (mapping.data?.fields ?? []).map((f) => f.tField);
    saveBlob(xlsxBlob([titles], t('import.templateSheet')), t('import.templateFile'));
  };

  const report = (errors: ImportError[]) => {
    saveBlob(
      csvBlob([
        [t('import.col.line'), t('import.col.field'), t('import.col.reason')],
        ...errors.map((e) => [e.line, fieldLabel(e.field), e.reason]),
      ]),
      t('import.reportFile'),
    );
  };

  const step = stage.kind === 'file' ? 0 : stage.kind === 'columns' ? 1 : 2;

  const footer = (
    <Space>
      {(stage.kind === 'columns' || stage.kind === 'refused') && (
        <Button onClick={() => setStage({ kind: stage.kind === 'refused' ? 'columns' : 'file' })} disabled={looking}>
          {t('import.wizard.back')}
        </Button>
      )}
      <Button onClick={onClose} disabled={sending}>
        {stage.kind === 'done' ? t('close') : t('cancel')}
      </Button>
      {stage.kind === 'file' && (
        <Button
          type="primary"
          disabled={!file}
          loading={looking}
          onClick={() => void look({})}
          data-testid="import-next"
        >
          {t('import.wizard.next')}
        </Button>
      )}
      {(stage.kind === 'columns' || sending) && (
        <Button
          type="primary"
          disabled={!seen || seen.missing.length > 0 || looking || timeOptions(seen.columns, time) === null}
          loading={sending}
          onClick={() => void start()}
          data-testid="import-start"
        >
          {t('import.start')}
        </Button>
      )}
    </Space>
  );

  return (
    <Modal
      open={open}
      title={t('import.title')}
      onCancel={sending ? undefined : onClose}
      closable={!sending}
      mask={{ closable: !sending }}
      width={stage.kind === 'file' ? 720 : 840}
      footer={footer}
    >
      <Space orientation="vertical" size="middle" style={{ display: 'flex' }}>
        <Steps
          size="small"
          current={step}
          items={[
            { title: t('import.wizard.stepFile') },
            { title: t('import.wizard.stepColumns') },
            { title: t('import.wizard.stepImport') },
          ]}
        />
        {stage.kind === 'file' && (
          <>
            <Typography.Text type="secondary">
              {t('import.wizard.hint')}{' '}
              <Button
                type="link"
                size="small"
                icon={<DownloadOutlined />}
                onClick={template}
                disabled={!mapping.data}
                data-testid="import-template"
              >
                {t('import.template')}
              </Button>
            </Typography.Text>
            {/* A drop of several files is refused with the spec's message (see the capture below). */}
            <div
              onDropCapture={(e) => {
                if (e.dataTransfer.files.length < 2) return;
                droppedSeveral.current = true;
                message.error(t('import.oneFile'));
              }}
            >
              <Upload.Dragger
                accept=".csv,.xlsx"
                multiple={false}
                maxCount={1}
                disabled={looking}
                beforeUpload={pick}
                fileList={
                  file ? [{ uid: 'import', name: file.name, size: file.size, status: 'done' } as UploadFile] : []
                }
                onRemove={() => {
                  setFile(null);
                  setSeen(null);
                  setStage({ kind: 'file' });
                }}
              >
                <p className="ant-upload-drag-icon">
                  <InboxOutlined />
                </p>
                <p className="ant-upload-text">{t('import.drop')}</p>
                <p className="ant-upload-hint">{t('import.dropHint')}</p>
              </Upload.Dragger>
            </div>
            {stage.refusal && <RefusalView refusal={stage.refusal} fieldLabel={fieldLabel} onReport={report} />}
          </>
        )}
        {stage.kind === 'columns' && seen && file && (
          <ColumnsStep
            fileName={file.name}
            seen={seen}
            looking={looking}
            save={save}
            onSave={setSave}
            refusal={stage.refusal}
            fieldLabel={fieldLabel}
            onReport={report}
            onSheet={(sheet) => void look({ sheet })}
            onHeaderLine={(headerLine) => void look({ sheet: seen.sheet, headerLine })}
            onColumn={(index, field) =>
              void look({ ...choices(seen), columns: chooseField(seen.columns, index, field) })
            }
          />
        )}
        {stage.kind === 'columns' && seen && (
          <TimeStep columns={seen.columns} time={time} onTime={setTime} disabled={looking} />
        )}
        {stage.kind === 'sending' && (
          <div data-testid="import-progress">
            <Progress percent={stage.percent} status="active" />
            <Typography.Text type="secondary">
              {stage.percent < 100 ? t('import.uploading') : t('import.processing')}
            </Typography.Text>
          </div>
        )}
        {stage.kind === 'done' && (
          <Alert
            type="success"
            showIcon
            data-testid="import-result"
            title={t('import.done', {
              total: stage.result.total,
              inserted: stage.result.inserted,
              updated: stage.result.updated,
              unchanged: stage.result.unchanged,
            })}
            description={
              save || stage.result.scheduled ? (
                <>
                  {stage.result.scheduled ? (
                    <div data-testid="import-scheduled">
                      {t('import.wizard.scheduled', {
                        count: stage.result.scheduled,
                        changes: stage.result.scheduledChanges ?? 0,
                      })}
                    </div>
                  ) : null}
                  {save ? <div>{t('import.wizard.mappingSaved')}</div> : null}
                </>
              ) : undefined
            }
          />
        )}
        {stage.kind === 'refused' && <RefusalView refusal={stage.refusal} fieldLabel={fieldLabel} onReport={report} />}
      </Space>
    </Modal>
  );
}

interface TimeProps {
  columns: readonly ImportColumn[];
  time: TimeChoice;
  onTime: (time: TimeChoice) => void;
  disabled: boolean;
}

/**
 * When the rows take effect (docs/SCHEDULE.md): rows with a "takes effect at" cell, or every row
 * when one time is given for the whole file, become scheduled changes of this store's product or,
 * chain-wide, of every store's with the barcode, each on its own clock.
 */
function TimeStep({ columns, time, onTime, disabled }: TimeProps) {
  const { t } = useTranslation('products');
  const { t: ts } = useTranslation('schedule');
  return (
    <Space orientation="vertical" size="small" style={{ display: 'flex' }} data-testid="import-time">
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t('import.wizard.timeTitle')}
      </Typography.Title>
      <Typography.Text type="secondary">{t('import.wizard.timeHint')}</Typography.Text>
      <Space wrap>
        <Checkbox
          checked={time.wholeFile}
          disabled={disabled}
          onChange={(e) => onTime({ ...time, wholeFile: e.target.checked })}
          data-testid="import-whole-file"
        >
          {t('import.wizard.wholeFile')}
        </Checkbox>
        {time.wholeFile && (
          <DatePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            value={time.at === null ? null : dayjs(time.at)}
            disabled={disabled}
            aria-label={t('import.wizard.wholeFileAt')}
            placeholder={t('import.wizard.pickTime')}
            style={{ width: 220 }}
            data-testid="import-at"
            onChange={(v) => onTime({ ...time, at: v ? v.format('YYYY-MM-DDTHH:mm') : null })}
          />
        )}
      </Space>
      {schedules(columns, time) && (
        <Radio.Group
          value={time.scope}
          disabled={disabled}
          onChange={(e) => onTime({ ...time, scope: e.target.value as TimeChoice['scope'] })}
          data-testid="import-scope"
          options={[
            { value: 'store', label: ts('field.scopeStore') },
            { value: 'chain', label: ts('field.scopeChain') },
          ]}
        />
      )}
      {time.wholeFile && time.at === null && (
        <Typography.Text type="warning">{t('import.wizard.pickTime')}</Typography.Text>
      )}
    </Space>
  );
}

interface RefusalProps {
  refusal: Refusal;
  fieldLabel: (field: string) => string;
  onReport: (errors: ImportError[]) => void;
}

/** Why the server refused the file, with every bad row (line, field, reason) when there are rows. */
function RefusalView({ refusal, fieldLabel, onReport }: RefusalProps) {
  const { t } = useTranslation('products');
  const errorColumns: ColumnsType<ImportError> = [
    { title: t('import.col.line'), dataIndex: 'line', width: 80 },
    { title: t('import.col.field'), dataIndex: 'field', width: 140, render: (f: string) => fieldLabel(f) },
    { title: t('import.col.reason'), dataIndex: 'reason' },
  ];
  return (
    <>
      <Alert
        type="error"
        showIcon
        title={refusal.message}
        description={refusal.errors.length > 0 ? t('import.badRows', { count: refusal.errors.length }) : undefined}
        action={
          refusal.errors.length > 0 ? (
            <Button size="small" icon={<DownloadOutlined />} onClick={() => onReport(refusal.errors)}>
              {t('import.report')}
            </Button>
          ) : undefined
        }
      />
      {refusal.errors.length > 0 && (
        <Table<ImportError>
          rowKey={(e) => refusal.errors.indexOf(e)}
          size="small"
          columns={errorColumns}
          dataSource={refusal.errors}
          pagination={{ pageSize: 8, hideOnSinglePage: true, showSizeChanger: false }}
          data-testid="import-errors"
        />
      )}
    </>
  );
}

interface ColumnsProps {
  fileName: string;
  seen: ImportInspection;
  looking: boolean;
  save: boolean;
  onSave: (save: boolean) => void;
  refusal: Refusal | undefined;
  fieldLabel: (field: string) => string;
  onReport: (errors: ImportError[]) => void;
  onSheet: (sheet: number) => void;
  onHeaderLine: (line: number) => void;
  onColumn: (index: number, field: string) => void;
}

/** The sheet and the title row found, each column with its field, and the first rows with their problems. */
function ColumnsStep(props: ColumnsProps) {
  const { seen, looking, fieldLabel } = props;
  const { t, i18n } = useTranslation('products');
  const lang = i18n.language === 'en' ? 'en' : 'zh-CN';
  const { token } = theme.useToken();
  const label = (field: string) => (lang === 'en' ? sentenceCase(fieldLabel(field)) : fieldLabel(field));

  const fieldOptions = [
    { value: '', label: t('import.wizard.none') },
    ...seen.fields.map((f) => ({
      value: f.name,
      label: isStandardField(f.name) ? label(f.name) : t('import.wizard.custom', { key: f.name }),
    })),
    { value: IMPORT_TIME_FIELD, label: t('import.wizard.timeField') },
  ];
  const matchTag = (c: ImportColumn) => {
    if (c.field === null) return <Tag color="warning">{t('import.wizard.match.none')}</Tag>;
    return (
      <Tag color={c.match === 'chosen' ? 'processing' : 'success'}>
        {t(`import.wizard.match.${c.match ?? 'chosen'}`)}
      </Tag>
    );
  };

  const columnRows: ColumnsType<ImportColumn> = [
    {
      title: t('import.wizard.col.column'),
      key: 'column',
      width: 240,
      ellipsis: true,
      render: (_: unknown, c) => (
        <Space size={6}>
          <Typography.Text type="secondary">{columnLetter(c.index)}</Typography.Text>
          <Typography.Text strong>{c.title || t('import.wizard.untitled')}</Typography.Text>
        </Space>
      ),
    },
    {
      title: t('import.wizard.col.field'),
      key: 'field',
      width: 236,
      render: (_: unknown, c) => (
        <Select
          size="small"
          value={c.field ?? ''}
          options={fieldOptions}
          style={{ width: 212 }}
          disabled={looking}
          aria-label={t('import.wizard.fieldOf', { column: c.title || columnLetter(c.index) })}
          data-testid={`import-field-${c.index}`}
          onChange={(field: string) => props.onColumn(c.index, field)}
        />
      ),
    },
    { title: t('import.wizard.col.match'), key: 'match', render: (_: unknown, c) => matchTag(c) },
  ];

  const previewColumns: ColumnsType<ImportPreviewRow> = [
    { title: t('import.col.line'), dataIndex: 'line', width: 64 },
    {
      title: t('import.wizard.col.problems'),
      key: 'problems',
      width: 200,
      render: (_: unknown, r: ImportPreviewRow) =>
        r.problems.length === 0 ? (
          <Typography.Text type="success">{t('import.wizard.ok')}</Typography.Text>
        ) : (
          <Typography.Text type="danger">
            {r.problems
              .map((p) => (lang === 'en' ? sentenceCase(p.reason) : p.reason))
              .join(lang === 'en' ? '; ' : '；')}
          </Typography.Text>
        ),
    },
    ...seen.columns.map((c) => ({
      title: (
        <span>
          {c.title || columnLetter(c.index)}
          <br />
          <Typography.Text type={c.field ? 'success' : 'secondary'} style={{ fontWeight: 'normal' }}>
            {c.field ? `→ ${label(c.field)}` : t('import.wizard.none')}
          </Typography.Text>
        </span>
      ),
      key: `c${c.index}`,
      width: 130,
      // Long cells end in an ellipsis, the whole text in a tooltip; the titles above wrap.
      render: (_: unknown, r: ImportPreviewRow) => (
        <Typography.Text ellipsis={{ tooltip: r.cells[c.index] }} style={{ maxWidth: 114 }}>
          {r.cells[c.index] ?? ''}
        </Typography.Text>
      ),
    })),
  ];

  const encoding = seen.encoding ? t(`import.wizard.encoding.${seen.encoding}`) : null;
  const separator = seen.delimiter
    ? t(`import.wizard.separator.${seen.delimiter === '\t' ? 'tab' : seen.delimiter === ';' ? 'semicolon' : 'comma'}`)
    : null;

  return (
    <Spin spinning={looking}>
      <Space orientation="vertical" size="middle" style={{ display: 'flex' }} data-testid="import-columns">
        <Descriptions size="small" column={2} bordered>
          <Descriptions.Item label={t('import.wizard.file')}>{props.fileName}</Descriptions.Item>
          {seen.kind === 'xlsx' ? (
            <Descriptions.Item label={t('import.wizard.sheet')}>
              <Select
                value={seen.sheet}
                style={{ minWidth: 240 }}
                disabled={looking}
                aria-label={t('import.wizard.sheet')}
                data-testid="import-sheet"
                onChange={(sheet: number) => props.onSheet(sheet)}
                options={seen.sheets.map((s) => ({
                  value: s.index,
                  label: t('import.wizard.sheetOption', { name: s.name || String(s.index + 1), count: s.matched }),
                }))}
              />
            </Descriptions.Item>
          ) : (
            <>
              <Descriptions.Item label={t('import.wizard.encodingLabel')}>{encoding}</Descriptions.Item>
              <Descriptions.Item label={t('import.wizard.separatorLabel')}>{separator}</Descriptions.Item>
            </>
          )}
          <Descriptions.Item label={t('import.wizard.titleRow')} span={2}>
            <Select
              value={seen.headerLine}
              style={{ width: '100%', maxWidth: 560 }}
              disabled={looking}
              aria-label={t('import.wizard.titleRow')}
              data-testid="import-title-row"
              onChange={(headerLine: number) => props.onHeaderLine(headerLine)}
              options={seen.lines.map((l) => ({
                value: l.line,
                label: t('import.wizard.lineOption', { line: l.line, text: l.text }),
              }))}
            />
          </Descriptions.Item>
        </Descriptions>
        <Typography.Text type="secondary" data-testid="import-header-line">
          {t('import.wizard.headerLine', { line: seen.headerLine })}
        </Typography.Text>
        {props.refusal && <RefusalView refusal={props.refusal} fieldLabel={fieldLabel} onReport={props.onReport} />}
        {seen.missing.length > 0 && (
          <Alert
            type="warning"
            showIcon
            data-testid="import-missing"
            title={t('import.wizard.missing', { fields: seen.missing.map(label).join(lang === 'en' ? ', ' : '、') })}
          />
        )}
        <Table<ImportColumn>
          rowKey="index"
          size="small"
          columns={columnRows}
          dataSource={seen.columns}
          pagination={false}
          data-testid="import-column-table"
        />
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('import.wizard.preview', { count: seen.preview.length })}
        </Typography.Title>
        {/* The region scrolls sideways when the file has many columns: focusable, so a keyboard can scroll it. */}
        <section
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to be scrolled by keys
          tabIndex={0}
          aria-label={t('import.wizard.preview', { count: seen.preview.length })}
          style={{ overflowX: 'auto' }}
        >
          <Table<ImportPreviewRow>
            rowKey="line"
            size="small"
            columns={previewColumns}
            dataSource={seen.preview}
            pagination={false}
            tableLayout="fixed"
            style={{ width: 'max-content', minWidth: '100%' }}
            onRow={(r) => (r.problems.length > 0 ? { style: { background: token.colorErrorBg } } : {})}
            data-testid="import-preview"
          />
        </section>
        <Checkbox checked={props.save} onChange={(e) => props.onSave(e.target.checked)} data-testid="import-save">
          {t('import.wizard.save')}
        </Checkbox>
      </Space>
    </Spin>
  );
}
