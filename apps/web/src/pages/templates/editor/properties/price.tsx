import { ELEMENT_TRAITS } from '@esl/labels/model';
import { Form, InputNumber, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { NumberField, type TypeFieldsProps } from './fields';

const { limits } = ELEMENT_TRAITS.price;
const CURRENCIES = ['¥', '$', '€', '£', 'HK$', ''];
/** Every number of decimals the schema allows. */
const DECIMALS = Array.from(
  { length: limits.decimals.max - limits.decimals.min + 1 },
  (_, i) => limits.decimals.min + i,
);

/**
 * A price's own fields: the value shown without a binding, currency, decimals and how they sit,
 * strike-through, and "only when above" another key (an original price beside the current one).
 */
export function PriceFields({ el, patch, keys }: TypeFieldsProps<'price'>) {
  const { t } = useTranslation('editor');
  return (
    <>
      <Form.Item label={t('props.value')} extra={el.binding ? t('props.valueFallback') : undefined}>
        <InputNumber
          size="small"
          value={el.value}
          style={{ width: '100%' }}
          onChange={(v) => patch('value', { value: v })}
        />
      </Form.Item>
      <div className="tmpl-row">
        <Form.Item label={t('props.currency')} style={{ flex: 1 }}>
          <Select
            size="small"
            value={el.currency}
            data-testid="prop-currency"
            options={CURRENCIES.map((c) => ({ value: c, label: c || t('props.noCurrency') }))}
            onChange={(currency: string) => patch('currency', { currency })}
          />
        </Form.Item>
        <Form.Item label={t('props.decimals')} style={{ flex: 1 }}>
          <Select
            size="small"
            value={el.decimals}
            data-testid="prop-decimals"
            options={DECIMALS.map((d) => ({ value: d, label: String(d) }))}
            onChange={(decimals: number) => patch('decimals', { decimals })}
          />
        </Form.Item>
      </div>
      <div className="tmpl-row">
        <Form.Item label={t('props.minorPosition')} style={{ flex: 1 }}>
          <Select
            size="small"
            value={el.minorPosition}
            options={[
              { value: 'top', label: t('props.minorTop') },
              { value: 'baseline', label: t('props.minorBaseline') },
            ]}
            onChange={(minorPosition: 'top' | 'baseline') => patch('minorPosition', { minorPosition })}
          />
        </Form.Item>
        <NumberField
          label={t('props.minorScale')}
          value={el.minorScale}
          range={limits.minorScale}
          step={0.05}
          integer={false}
          width={90}
          onChange={(minorScale) => patch('minorScale', { minorScale })}
        />
      </div>
      <Form.Item label={t('props.strike')}>
        <Switch size="small" checked={el.strike} onChange={(strike) => patch('strike', { strike })} />
      </Form.Item>
      <Form.Item label={t('props.onlyIfAbove')} extra={t('props.onlyIfAboveHelp')}>
        <Select
          size="small"
          allowClear
          value={el.onlyIfAbove ?? undefined}
          options={keys.map((k) => ({ value: k.key, label: k.label }))}
          onChange={(key: string | undefined) => patch('onlyIfAbove', { onlyIfAbove: key ?? null })}
        />
      </Form.Item>
    </>
  );
}
