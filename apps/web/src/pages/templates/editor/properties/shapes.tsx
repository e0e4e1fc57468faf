import { ELEMENT_TRAITS } from '@esl/labels/model';
import { Form, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { NumberField, type TypeFieldsProps } from './fields';

/** A rectangle's own field: its border (0 for none). */
export function RectFields({ el, patch }: TypeFieldsProps<'rect'>) {
  const { t } = useTranslation('editor');
  return (
    <NumberField
      label={t('props.strokeWidth')}
      value={el.strokeWidth}
      range={ELEMENT_TRAITS.rect.limits.strokeWidth}
      onChange={(strokeWidth) => patch('strokeWidth', { strokeWidth })}
    />
  );
}

/** Whether a line runs along an axis (0 wide or 0 high): it then has no direction to flip. */
export function isStraightLine(el: { type: string; w: number; h: number }): boolean {
  return el.type === 'line' && (el.w === 0 || el.h === 0);
}

/** A line's own fields: its width, and which diagonal a slanted line takes. */
export function LineFields({ el, patch }: TypeFieldsProps<'line'>) {
  const { t } = useTranslation('editor');
  return (
    <>
      <NumberField
        label={t('props.strokeWidth')}
        value={el.strokeWidth}
        range={ELEMENT_TRAITS.line.limits.strokeWidth}
        onChange={(strokeWidth) => patch('strokeWidth', { strokeWidth })}
      />
      {!isStraightLine(el) && (
        <Form.Item label={t('props.flip')}>
          <Switch size="small" checked={el.flip} onChange={(flip) => patch('flip', { flip })} />
        </Form.Item>
      )}
    </>
  );
}
