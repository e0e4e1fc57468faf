import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DataKeyOption } from '../../../editor/data';

interface Props {
  keys: readonly DataKeyOption[];
  /** True when the selection can take a binding (one text, price, barcode, QR code or image element). */
  canBind: boolean;
  onPick: (key: string) => void;
}

/**
 * The tenant's data keys by their display names. A click binds the selected element to the key,
 * or, with nothing bindable selected, adds a text element bound to it.
 */
export function DataKeyList({ keys, canBind, onPick }: Props) {
  const { t } = useTranslation('editor');
  return (
    <div data-testid="data-keys">
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 6 }}>
        {canBind ? t('keys.bindHelp') : t('keys.addHelp')}
      </Typography.Paragraph>
      {keys.map((k) => (
        <Tag
          key={k.key}
          color={k.standard ? 'blue' : 'purple'}
          style={{ cursor: 'pointer', marginBottom: 4 }}
          data-key={k.key}
          onClick={() => onPick(k.key)}
        >
          {k.label}
        </Tag>
      ))}
    </div>
  );
}
