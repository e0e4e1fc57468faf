import { CopyOutlined } from '@ant-design/icons';
import { Alert, App, Button, Descriptions, Input, Modal, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { copyText } from '../shared/clipboard';

interface Props {
  /** The station just added (or whose secret was renewed), with its secret; null when closed. */
  station: { sn: string; name?: string; secret: string } | null;
  /** A renewed secret: the old one no longer works. */
  renewed?: boolean;
  onClose: () => void;
}

/** The station's MQTT secret, shown this once: the server keeps only its hash. */
export function SecretModal({ station, renewed = false, onClose }: Props) {
  const { t } = useTranslation('stations');
  const { message } = App.useApp();

  const copy = async () => {
    if (!station) return;
    if (await copyText(station.secret)) message.success(t('secret.copied'));
    else message.error(t('secret.copyFailed'));
  };

  return (
    <Modal
      open={station !== null}
      title={t(renewed ? 'secret.renewedTitle' : 'secret.title')}
      onCancel={onClose}
      mask={{ closable: false }}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('secret.done')}
        </Button>
      }
      width={560}
    >
      {station && (
        <Space orientation="vertical" size="middle" style={{ display: 'flex' }}>
          <Alert type="warning" showIcon title={t(renewed ? 'secret.renewedOnce' : 'secret.once')} />
          <Descriptions
            size="small"
            column={1}
            bordered
            items={[
              { key: 'sn', label: t('field.sn'), children: station.sn },
              { key: 'name', label: t('field.name'), children: station.name || '—' },
            ]}
          />
          <Space.Compact style={{ width: '100%' }}>
            <Input readOnly value={station.secret} data-testid="station-secret" style={{ fontFamily: 'monospace' }} />
            <Button icon={<CopyOutlined />} onClick={() => void copy()} data-testid="copy-secret">
              {t('secret.copy')}
            </Button>
          </Space.Compact>
        </Space>
      )}
    </Modal>
  );
}
