import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { type ImportData, type ImportError, PRODUCT_FIELD_LABELS, PRODUCT_IMPORT_MAX_BYTES } from '@esl/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Modal, Progress, Space, Table, Typography, Upload, type UploadFile } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CALL_PATHS } from '../../api/callPaths';
import { ApiError, request, upload } from '../../platform/request';
import { saveBlob } from '../../utils/download';
import { importErrorsOf, isStandardField } from './body';
import { csvBlob, importFileType } from './csv';
import { FIELD_MAP_KEY } from './FieldMapModal';

interface Props {
  open: boolean;
  onClose: () => void;
  /** Products were written. */
  onImported: () => void;
}

/** A big file takes a while to check and write; the usual 5 s call timeout would cut it off. */
const IMPORT_TIMEOUT_MS = 180_000;

type Stage =
  | { kind: 'idle' }
  | { kind: 'sending'; percent: number }
  | { kind: 'done'; result: ImportData }
  | { kind: 'refused'; message: string; errors: ImportError[] };

/**
 * Imports products from one CSV or XLSX file through the field mapping. All or nothing: when the
 * server refuses the file, every bad row is listed with its line and reason.
 */
export function ImportModal({ open, onClose, onImported }: Props) {
  const { t, i18n } = useTranslation('products');
  const lang = i18n.language === 'en' ? 'en' : 'zh-CN';
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });

  const mapping = useQuery({
    queryKey: FIELD_MAP_KEY,
    queryFn: () => request('productFieldMap', {}),
    enabled: open,
  });

  useEffect(() => {
    if (open) {
      setFile(null);
      setStage({ kind: 'idle' });
    }
  }, [open]);

  const sending = stage.kind === 'sending';

  // Set by a drop of several files, before the Upload hands over the first of them.
  const droppedSeveral = useRef(false);

  const pick = (picked: File, all: readonly File[]): boolean => {
    if (droppedSeveral.current) {
      droppedSeveral.current = false;
    } else if (all.length > 1) {
      // Called once per dropped file: say it once.
      if (picked === all[0]) message.error(t('import.oneFile'));
    } else if (!importFileType(picked.name)) {
      message.error(t('import.fileType'));
    } else if (picked.size > PRODUCT_IMPORT_MAX_BYTES) {
      message.error(t('import.fileSize', { mb: PRODUCT_IMPORT_MAX_BYTES / 1024 / 1024 }));
    } else {
      setFile(picked);
      setStage({ kind: 'idle' });
    }
    // Never let the Upload component send it: the import goes through the request client.
    return false;
  };

  const start = async () => {
    if (!file) return;
    setStage({ kind: 'sending', percent: 0 });
    try {
      const data = (await upload(CALL_PATHS.importProducts, file, {
        timeout: IMPORT_TIMEOUT_MS,
        onProgress: (fraction) => setStage({ kind: 'sending', percent: Math.round(fraction * 100) }),
      })) as ImportData;
      setStage({ kind: 'done', result: data });
      onImported();
    } catch (error) {
      const refusal = error instanceof ApiError ? error : new ApiError(-1, String(error));
      setStage({ kind: 'refused', message: refusal.message, errors: importErrorsOf(refusal.data) });
    }
  };

  // A standard field by its label; a custom field by its key; '' is the whole row or file.
  const fieldLabel = (field: string) => {
    if (!field) return '—';
    return isStandardField(field) ? PRODUCT_FIELD_LABELS[field][lang] : field;
  };

  const template = () => {
    const titles = (mapping.data?.fields ?? []).map((f) => f.tField);
    saveBlob(csvBlob([titles]), t('import.templateFile'));
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

  const errorColumns: ColumnsType<ImportError> = [
    { title: t('import.col.line'), dataIndex: 'line', width: 80 },
    { title: t('import.col.field'), dataIndex: 'field', width: 140, render: (f: string) => fieldLabel(f) },
    { title: t('import.col.reason'), dataIndex: 'reason' },
  ];

  return (
    <Modal
      open={open}
      title={t('import.title')}
      onCancel={sending ? undefined : onClose}
      closable={!sending}
      mask={{ closable: !sending }}
      width={720}
      footer={
        <Space>
          <Button onClick={onClose} disabled={sending}>
            {stage.kind === 'done' ? t('close') : t('cancel')}
          </Button>
          {stage.kind !== 'done' && (
            <Button
              type="primary"
              disabled={!file}
              loading={sending}
              onClick={() => void start()}
              data-testid="import-start"
            >
              {t('import.start')}
            </Button>
          )}
        </Space>
      }
    >
      <Space orientation="vertical" size="middle" style={{ display: 'flex' }}>
        <Typography.Text type="secondary">
          {t('import.hint')}{' '}
          <Button type="link" size="small" icon={<DownloadOutlined />} onClick={template} disabled={!mapping.data}>
            {t('import.template')}
          </Button>
        </Typography.Text>
        {/* With multiple={false} the Upload would keep the first of several dropped files and say
            nothing: seen first (capture phase), such a drop is refused with the spec's message. */}
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
            disabled={sending}
            beforeUpload={pick}
            fileList={file ? [{ uid: 'import', name: file.name, size: file.size, status: 'done' } as UploadFile] : []}
            onRemove={() => {
              setFile(null);
              setStage({ kind: 'idle' });
            }}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">{t('import.drop')}</p>
            <p className="ant-upload-hint">{t('import.dropHint')}</p>
          </Upload.Dragger>
        </div>
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
            })}
          />
        )}
        {stage.kind === 'refused' && (
          <>
            <Alert
              type="error"
              showIcon
              title={stage.message}
              description={stage.errors.length > 0 ? t('import.badRows', { count: stage.errors.length }) : undefined}
              action={
                stage.errors.length > 0 ? (
                  <Button size="small" icon={<DownloadOutlined />} onClick={() => report(stage.errors)}>
                    {t('import.report')}
                  </Button>
                ) : undefined
              }
            />
            {stage.errors.length > 0 && (
              <Table<ImportError>
                rowKey={(e) => stage.errors.indexOf(e)}
                size="small"
                columns={errorColumns}
                dataSource={stage.errors}
                pagination={{ pageSize: 8, hideOnSinglePage: true, showSizeChanger: false }}
                data-testid="import-errors"
              />
            )}
          </>
        )}
      </Space>
    </Modal>
  );
}
