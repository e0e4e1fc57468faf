import { ELEMENT_TRAITS, LIMITS } from '@esl/labels/model';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { NumberField, type TypeFieldsProps } from './fields';

const { limits } = ELEMENT_TRAITS.text;

/** A text element's own fields: its text (shown when no binding gives one), fitting and lines. */
export function TextFields({ el, patch }: TypeFieldsProps<'text'>) {
  const { t } = useTranslation('editor');
  return (
    <>
      <Form.Item label={t('props.text')} extra={el.binding ? t('props.textFallback') : undefined}>
        <Input.TextArea
          value={el.text}
          maxLength={LIMITS.textChars}
          autoSize={{ minRows: 1, maxRows: 4 }}
          data-testid="prop-text"
          onChange={(e) => patch('text', { text: e.target.value })}
        />
      </Form.Item>
      <div className="tmpl-row">
        <Form.Item label={t('props.fit')} style={{ flex: 1 }}>
          <Select
            size="small"
            value={el.fit}
            options={[
              { value: 'shrink', label: t('props.fitShrink') },
              { value: 'ellipsis', label: t('props.fitEllipsis') },
            ]}
            onChange={(fit: 'shrink' | 'ellipsis') => patch('fit', { fit })}
          />
        </Form.Item>
        <NumberField
          label={t('props.lines')}
          value={el.lines}
          range={limits.lines}
          width={80}
          onChange={(lines) => patch('lines', { lines })}
        />
      </div>
    </>
  );
}
