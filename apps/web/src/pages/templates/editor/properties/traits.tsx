import { type Binding, type Element, FONT_FAMILY, LIMITS, TEXT_FORMATS, type TextFormat } from '@esl/labels/model';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Segmented, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DataKeyOption } from '../../../../editor/data';
import { brandFonts } from '../../../../editor/fonts';
import { NumberField, type Patch } from './fields';

interface TraitProps {
  el: Element;
  patch: Patch;
}

/** The font of the types that draw text (ELEMENT_TRAITS[type].font). */
export function FontFields({ el, patch }: TraitProps) {
  const { t } = useTranslation('editor');
  // The tenant's brand fonts (each family once), after the built-in one.
  const brand = useQuery({ queryKey: ['templates', 'brandFonts'], queryFn: brandFonts });
  const families = [FONT_FAMILY, ...new Set((brand.data ?? []).map((f) => f.family))];
  if (!families.some((f) => f.toLowerCase() === el.font.family.toLowerCase())) families.push(el.font.family);
  return (
    <>
      <Form.Item label={t('props.font')}>
        <Select
          size="small"
          value={el.font.family}
          data-testid="prop-font-family"
          options={families.map((f) => ({ value: f, label: f }))}
          onChange={(family: string) => patch('family', { font: { ...el.font, family } })}
        />
      </Form.Item>
      <div className="tmpl-row">
        <NumberField
          label={t('props.fontSize')}
          value={el.font.size}
          range={LIMITS.fontSize}
          suffix="px"
          testId="prop-font-size"
          onChange={(size) => patch('size', { font: { ...el.font, size } })}
        />
        <Form.Item label={t('props.fontWeight')} style={{ flex: 1 }}>
          <Segmented<'normal' | 'bold'>
            size="small"
            value={el.font.weight}
            options={[
              { value: 'normal', label: t('props.weightNormal') },
              { value: 'bold', label: t('props.weightBold') },
            ]}
            onChange={(weight) => patch('weight', { font: { ...el.font, weight } })}
          />
        </Form.Item>
      </div>
    </>
  );
}

const ALIGNS = ['left', 'center', 'right'] as const;
const VALIGNS = ['top', 'middle', 'bottom'] as const;

/** Where the content sits in its box (ELEMENT_TRAITS[type].alignment). */
export function AlignmentFields({ el, patch }: TraitProps) {
  const { t } = useTranslation('editor');
  return (
    <>
      <Form.Item label={t('props.align')}>
        <Segmented
          size="small"
          block
          value={el.align}
          options={ALIGNS.map((a) => ({ value: a, label: t(`props.align_${a}`) }))}
          onChange={(align) => patch('align', { align })}
        />
      </Form.Item>
      <Form.Item label={t('props.valign')}>
        <Segmented
          size="small"
          block
          value={el.valign}
          options={VALIGNS.map((a) => ({ value: a, label: t(`props.valign_${a}`) }))}
          onChange={(valign) => patch('valign', { valign })}
        />
      </Form.Item>
    </>
  );
}

/**
 * The data key a value comes from (ELEMENT_TRAITS[type].binding); a text's binding also has a
 * format and text before and after the value.
 */
export function BindingFields({ el, patch, keys }: TraitProps & { keys: readonly DataKeyOption[] }) {
  const { t } = useTranslation('editor');
  const binding = el.binding;
  const setBinding = (next: Partial<Binding> | null) =>
    patch('binding', {
      binding:
        next === null
          ? null
          : {
              key: next.key ?? binding?.key ?? '',
              format: next.format ?? binding?.format ?? 'plain',
              prefix: next.prefix ?? binding?.prefix ?? '',
              suffix: next.suffix ?? binding?.suffix ?? '',
            },
    });
  return (
    <>
      <Form.Item label={t('props.binding')} extra={binding ? undefined : t('props.bindingNone')}>
        <Select
          size="small"
          allowClear
          showSearch
          optionFilterProp="search"
          placeholder={t('props.bindingPlaceholder')}
          value={binding?.key}
          data-testid="prop-binding"
          options={keys.map((k) => ({
            value: k.key,
            search: `${k.label} ${k.key}`,
            // The key is the tenant's display name only: the stored key name is a developer's word.
            label: k.label,
          }))}
          onChange={(key: string | undefined) => setBinding(key ? { key } : null)}
        />
      </Form.Item>
      {binding && el.type === 'text' && (
        <>
          <Form.Item label={t('props.format')}>
            <Select
              size="small"
              value={binding.format}
              data-testid="prop-format"
              options={TEXT_FORMATS.map((f) => ({ value: f, label: t(`format.${f}`) }))}
              onChange={(format: TextFormat) => setBinding({ format })}
            />
          </Form.Item>
          <div className="tmpl-row">
            <Form.Item label={t('props.prefix')} style={{ flex: 1 }}>
              <Input
                size="small"
                value={binding.prefix}
                maxLength={LIMITS.affixChars}
                onChange={(e) => setBinding({ prefix: e.target.value })}
              />
            </Form.Item>
            <Form.Item label={t('props.suffix')} style={{ flex: 1 }}>
              <Input
                size="small"
                value={binding.suffix}
                maxLength={LIMITS.affixChars}
                onChange={(e) => setBinding({ suffix: e.target.value })}
              />
            </Form.Item>
          </div>
        </>
      )}
    </>
  );
}
