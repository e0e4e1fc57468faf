import { BugOutlined } from '@ant-design/icons';
import { Badge, Button, Modal, Table, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/EmptyState';
import { type ErrorLogEntry, useErrorLogStore } from '../../store/errorLog';
import { parseTime } from '../../utils/time';

/** The error-log button and dialog; shown once an error has been collected. */
export function ErrorLog() {
  const { t } = useTranslation('navbar');
  const logs = useErrorLogStore((s) => s.logs);
  const clear = useErrorLogStore((s) => s.clear);
  const [open, setOpen] = useState(false);
  if (logs.length === 0 && !open) return null;
  return (
    <>
      <Tooltip title={t('errorLog')} placement="bottom">
        <button
          type="button"
          className="nav-item"
          aria-label={t('errorLog')}
          data-testid="error-log"
          onClick={() => setOpen(true)}
        >
          <Badge count={logs.length} size="small" offset={[4, -2]}>
            <BugOutlined style={{ color: '#f56c6c', fontSize: 18 }} />
          </Badge>
        </button>
      </Tooltip>
      <Modal
        open={open}
        title={t('errorLog')}
        width="80%"
        onCancel={() => setOpen(false)}
        footer={[
          <Button
            key="clear"
            danger
            onClick={() => {
              clear();
              setOpen(false);
            }}
          >
            {t('clearAll')}
          </Button>,
          <Button key="close" onClick={() => setOpen(false)}>
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
    </>
  );
}
