import { Button, Modal, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/EmptyState';
import { type ErrorLogEntry, useErrorLogStore } from '../../store/errorLog';
import { parseTime } from '../../utils/time';

/** The error-log dialog: every collected error, and the way to clear them (loaded on first open). */
export default function ErrorLogDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('navbar');
  const logs = useErrorLogStore((s) => s.logs);
  const clear = useErrorLogStore((s) => s.clear);
  return (
    <Modal
      open={open}
      title={t('errorLog')}
      width="80%"
      onCancel={onClose}
      footer={[
        <Button
          key="clear"
          danger
          onClick={() => {
            clear();
            onClose();
          }}
        >
          {t('clearAll')}
        </Button>,
        <Button key="close" onClick={onClose}>
          {t('close')}
        </Button>,
      ]}
    >
      <Table<ErrorLogEntry>
        size="small"
        rowKey={(r) => `${r.time}-${r.message}`}
        dataSource={logs}
        pagination={false}
        locale={{ emptyText: <EmptyState title={t('errorLogEmpty')} /> }}
        columns={[
          { title: t('errorMessage'), dataIndex: 'message', width: '30%' },
          { title: t('errorUrl'), dataIndex: 'url', width: '25%' },
          { title: t('errorTime'), dataIndex: 'time', width: 170, render: (v: number) => parseTime(v) },
          {
            title: t('errorStack'),
            dataIndex: 'stack',
            render: (v: string) => <pre style={{ whiteSpace: 'pre-wrap', margin: 0, fontSize: 12 }}>{v}</pre>,
          },
        ]}
      />
    </Modal>
  );
}
