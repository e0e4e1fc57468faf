import { COLOUR_SETS, type TagColourType } from '@esl/contract';
import { Space } from 'antd';
import { useTranslation } from 'react-i18next';

/** Screen colours of the inks (the label's own sRGB values, as @esl/labels draws them). */
export const INK_SWATCH: Readonly<Record<string, string>> = {
  white: '#ffffff',
  black: '#000000',
  red: '#ff0000',
  yellow: '#ffff00',
  green: '#00ff00',
  blue: '#0000ff',
  orange: '#ff8000',
};

export function InkDot({ ink, size = 12 }: { ink: string; size?: number }) {
  return (
    <span
      aria-hidden
      style={{
        display: 'inline-block',
        width: size,
        height: size,
        borderRadius: '50%',
        background: INK_SWATCH[ink] ?? '#ccc',
        border: '1px solid #8c8c8c',
        verticalAlign: 'middle',
      }}
    />
  );
}

/** A colour type as its name and the inks it has. */
export function ColourType({ value }: { value: TagColourType }) {
  const { t } = useTranslation('templates');
  return (
    <Space size={4} wrap data-colour-type={value}>
      <span style={{ whiteSpace: 'nowrap' }}>
        {COLOUR_SETS[value].map((ink) => (
          <InkDot key={ink} ink={ink} size={10} />
        ))}
      </span>
      {t(`colourType.${value}`)}
    </Space>
  );
}
