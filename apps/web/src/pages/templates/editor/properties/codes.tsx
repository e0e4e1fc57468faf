import { ELEMENT_TRAITS, LIMITS, SYMBOLOGIES, type Symbology } from '@esl/labels/model';
import { Form, Input, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { NumberField, type TypeFieldsProps } from './fields';

const ERROR_CORRECTION = ['L', 'M', 'Q', 'H'] as const;

/** A barcode's own fields: symbology, the code shown without a binding, the digits under the bars. */
export function BarcodeFields({ el, patch }: TypeFieldsProps<'barcode'>) {
  const { t } = useTranslation('editor');
  return (
    <>
      <Form.Item label={t('props.symbology')}>
        <Select
          size="small"
          value={el.symbology}
          options={SYMBOLOGIES.map((s) => ({ value: s, label: t(`symbology.${s}`) }))}
          onChange={(symbology: Symbology) => patch('symbology', { symbology })}
        />
      </Form.Item>
      <Form.Item label={t('props.code')} extra={el.binding ? t('props.valueFallback') : undefined}>
        <Input
          size="small"
          value={el.value}
          maxLength={LIMITS.barcodeChars}
          onChange={(e) => patch('value', { value: e.target.value })}
        />
      </Form.Item>
      <Form.Item label={t('props.showText')}>
        <Switch size="small" checked={el.showText} onChange={(showText) => patch('showText', { showText })} />
      </Form.Item>
    </>
  );
}

/** A QR code's own fields: the code shown without a binding, error correction, quiet zone. */
export function QrFields({ el, patch }: TypeFieldsProps<'qrcode'>) {
  const { t } = useTranslation('editor');
  return (
    <>
      <Form.Item label={t('props.code')} extra={el.binding ? t('props.valueFallback') : undefined}>
        <Input
          size="small"
          value={el.value}
          maxLength={LIMITS.qrChars}
          onChange={(e) => patch('value', { value: e.target.value })}
        />
      </Form.Item>
      <div className="tmpl-row">
        <Form.Item label={t('props.errorCorrection')} style={{ flex: 1 }}>
          <Select
            size="small"
            value={el.errorCorrection}
            options={ERROR_CORRECTION.map((v) => ({ value: v, label: v }))}
            onChange={(errorCorrection: (typeof ERROR_CORRECTION)[number]) => patch('ec', { errorCorrection })}
          />
        </Form.Item>
        <NumberField
          label={t('props.margin')}
          value={el.margin}
          range={ELEMENT_TRAITS.qrcode.limits.margin}
          width={90}
          onChange={(margin) => patch('margin', { margin })}
        />
      </div>
    </>
  );
}
