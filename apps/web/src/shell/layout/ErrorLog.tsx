import { BugOutlined } from '@ant-design/icons';
import { Badge, Tooltip } from 'antd';
import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OnceOpened } from '../../components/OnceOpened';
import { useErrorLogStore } from '../../store/errorLog';

// The dialog's table loads when it first opens, not with the layout every screen needs.
const ErrorLogDialog = lazy(() => import('./ErrorLogDialog'));

/** The error-log button and dialog; shown once an error has been collected. */
export function ErrorLog() {
  const { t } = useTranslation('navbar');
  const count = useErrorLogStore((s) => s.logs.length);
  const [open, setOpen] = useState(false);
  if (count === 0 && !open) return null;
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
          <Badge count={count} size="small" offset={[4, -2]}>
            <BugOutlined style={{ color: '#f56c6c', fontSize: 18 }} />
          </Badge>
        </button>
      </Tooltip>
      <OnceOpened open={open}>
        <ErrorLogDialog open={open} onClose={() => setOpen(false)} />
      </OnceOpened>
    </>
  );
}
