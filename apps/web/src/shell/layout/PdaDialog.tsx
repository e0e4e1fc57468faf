import { Alert, Modal, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../platform/request';
import { pdaUrl } from './pdaUrl';

/** Drawn this long after the dialog opens, once its content is laid out (SPEC.md §7). */
export const QR_DELAY_MS = 500;
export const QR_SIZE = 160;

/** The handheld page's address as a 160×160 QR code, error correction level Q. */
export function PdaDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('navbar');
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [url, setUrl] = useState('');

  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    setState('loading');
    const data = request('pdaConfig');
    const timer = setTimeout(() => {
      data
        .then(async (config) => {
          // The encoder loads with the first dialog, not with the layout every screen needs.
          const { default: QRCode } = await import('qrcode');
          if (cancelled || !canvas.current) return;
          const address = pdaUrl(config);
          await QRCode.toCanvas(canvas.current, address, {
            width: QR_SIZE,
            errorCorrectionLevel: 'Q',
          });
          if (!cancelled) {
            setUrl(address);
            setState('ready');
          }
        })
        .catch(() => {
          if (!cancelled) setState('failed');
        });
    }, QR_DELAY_MS);
    // The request client reports a failed call; this only keeps the rejection handled.
    data.catch(() => undefined);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [open]);

  return (
    <Modal open={open} title={t('pda')} footer={null} onCancel={onClose} width={320} destroyOnHidden centered>
      <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 12, padding: '8px 0' }}>
        <div style={{ width: QR_SIZE, height: QR_SIZE, position: 'relative' }}>
          <canvas
            ref={canvas}
            width={QR_SIZE}
            height={QR_SIZE}
            data-testid="pda-qr"
            data-state={state}
            style={{ visibility: state === 'ready' ? 'visible' : 'hidden' }}
          />
          {state === 'loading' && <Spin style={{ position: 'absolute', inset: 0, margin: 'auto', height: 32 }} />}
        </div>
        {state === 'failed' ? (
          <Alert type="error" title={t('pdaFailed')} showIcon />
        ) : (
          <>
            <Typography.Text type="secondary" style={{ textAlign: 'center' }}>
              {t('pdaHint')}
            </Typography.Text>
            {url && (
              <Typography.Link
                href={url}
                target="_blank"
                rel="noreferrer"
                data-testid="pda-url"
                style={{ wordBreak: 'break-all', textAlign: 'center' }}
              >
                {url}
              </Typography.Link>
            )}
          </>
        )}
      </div>
    </Modal>
  );
}
