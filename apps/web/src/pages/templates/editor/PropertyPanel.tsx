import { UploadOutlined } from '@ant-design/icons';
import {
  type Binding,
  type ColourType,
  type Element,
  FONT_FAMILY,
  type Ink,
  SYMBOLOGIES,
  TEXT_FORMATS,
  type TextFormat,
} from '@esl/labels';
import { App, Button, Form, Input, InputNumber, Segmented, Select, Space, Switch, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type ElementPatch, inksOf, updateElements } from '../../../editor/commands';
import type { DataKeyOption } from '../../../editor/data';
import { change, type EditorState, endGesture } from '../../../editor/state';
import type { EditorStore } from '../../../editor/store';
import { InkDot } from '../list/ColourType';

interface Props {
  store: EditorStore;
  state: EditorState;
  keys: readonly DataKeyOption[];
}

/** Largest image a template may hold, as a data URL (the document schema's limit). */
const MAX_IMAGE_CHARS = 5_000_000;

/** Elements that show a value, so they can be bound to a data key. */
const BINDABLE: ReadonlySet<Element['type']> = new Set(['text', 'price', 'barcode', 'qrcode', 'image']);
const WITH_FONT: ReadonlySet<Element['type']> = new Set(['text', 'price', 'barcode']);
const WITH_ALIGN: ReadonlySet<Element['type']> = new Set(['text', 'price', 'qrcode', 'image']);

export function InkSelect({
  value,
  colourType,
  onChange,
  allowNone,
  testId,
}: {
  value: Ink | null;
  colourType: ColourType;
  onChange: (ink: Ink | null) => void;
  allowNone?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation('editor');
  const inks = inksOf(colourType);
  const options: { value: string; label: ReactNode }[] = inks.map((ink) => ({
    value: ink,
    label: (
      <Space size={6}>
        <InkDot ink={ink} />
        {t(`ink.${ink}`)}
      </Space>
    ),
  }));
  if (allowNone) options.unshift({ value: 'none', label: t('ink.none') });
  return (
    <Select
      size="small"
      // With no ink and no "none" choice, the elements differ: the placeholder says so.
      value={value ?? (allowNone ? 'none' : undefined)}
      placeholder={t('props.mixed')}
      options={options}
      data-testid={testId}
      onChange={(v: string) => onChange(v === 'none' ? null : (inks.find((ink) => ink === v) ?? null))}
    />
  );
}

/** The fields of the selected element(s): position, size, font, colour, binding and format. */
export function PropertyPanel({ store, state, keys }: Props) {
  const { t } = useTranslation('editor');
  const { message } = App.useApp();
  const selected = state.doc.elements.filter((e) => state.selection.includes(e.id));
  const colourType = state.doc.colourType;

  // Typing in one field is one undo step: changes to a field merge until it loses focus.
  const patch = (field: string, p: ElementPatch | ((e: Element) => ElementPatch)) =>
    store.update((s) =>
      change(s, (doc) => updateElements(doc, s.selection, p), { gesture: `field-${field}-${s.selection.join(',')}` }),
    );
  const done = () => store.update(endGesture);

  if (selected.length === 0) return null;

  if (selected.length > 1) {
    const colours = new Set(selected.map((e) => e.colour));
    return (
      <Form layout="vertical" size="small" className="tmpl-props" onBlur={done}>
        <Typography.Text type="secondary">{t('props.many', { count: selected.length })}</Typography.Text>
        <Form.Item label={t('props.colour')}>
          <InkSelect
            value={colours.size === 1 ? selected[0].colour : null}
            colourType={colourType}
            onChange={(ink) => ink && patch('colour', { colour: ink })}
          />
        </Form.Item>
      </Form>
    );
  }

  const el = selected[0];
  const number = (field: 'x' | 'y' | 'w' | 'h', label: string, min: number) => (
    <Form.Item label={label} style={{ flex: 1 }}>
      <InputNumber
        size="small"
        value={el[field]}
        min={min}
        max={10_000}
        precision={0}
        style={{ width: '100%' }}
        data-testid={`prop-${field}`}
        onChange={(v) => v !== null && patch(field, { [field]: v })}
      />
    </Form.Item>
  );
  const lineFixed = el.type === 'line' && (el.w === 0 || el.h === 0);

  const bindingEditor = () => {
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
              label: (
                <Space size={6}>
                  {k.label}
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {k.key}
                  </Typography.Text>
                </Space>
              ),
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
                  maxLength={200}
                  onChange={(e) => setBinding({ prefix: e.target.value })}
                />
              </Form.Item>
              <Form.Item label={t('props.suffix')} style={{ flex: 1 }}>
                <Input
                  size="small"
                  value={binding.suffix}
                  maxLength={200}
                  onChange={(e) => setBinding({ suffix: e.target.value })}
                />
              </Form.Item>
            </div>
          </>
        )}
      </>
    );
  };

  const readImage = (file: File) => {
    const reader = new FileReader();
    reader.onload = () => {
      const src = typeof reader.result === 'string' ? reader.result : '';
      if (src.length > MAX_IMAGE_CHARS) message.error(t('props.imageTooLarge'));
      else if (src) patch('src', { src });
      done();
    };
    reader.readAsDataURL(file);
  };

  return (
    <Form layout="vertical" size="small" className="tmpl-props" onBlur={done} data-testid="prop-panel">
      <Typography.Text strong>
        {t(`type.${el.type}`)}{' '}
        <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
          {el.id}
        </Typography.Text>
      </Typography.Text>
      <div className="tmpl-row" style={{ marginTop: 8 }}>
        {number('x', 'X', -10_000)}
        {number('y', 'Y', -10_000)}
      </div>
      <div className="tmpl-row">
        {!(lineFixed && el.w === 0) && number('w', t('props.w'), el.type === 'line' ? 0 : 1)}
        {!(lineFixed && el.h === 0) && number('h', t('props.h'), el.type === 'line' ? 0 : 1)}
      </div>

      {el.type === 'text' && (
        <>
          <Form.Item label={t('props.text')} extra={el.binding ? t('props.textFallback') : undefined}>
            <Input.TextArea
              value={el.text}
              maxLength={2000}
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
            <Form.Item label={t('props.lines')} style={{ flex: 'none', width: 80 }}>
              <InputNumber
                size="small"
                value={el.lines}
                min={1}
                max={20}
                precision={0}
                onChange={(v) => v !== null && patch('lines', { lines: v })}
              />
            </Form.Item>
          </div>
        </>
      )}

      {el.type === 'price' && (
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
                options={['¥', '$', '€', '£', 'HK$', ''].map((c) => ({ value: c, label: c || t('props.noCurrency') }))}
                onChange={(currency: string) => patch('currency', { currency })}
              />
            </Form.Item>
            <Form.Item label={t('props.decimals')} style={{ flex: 1 }}>
              <Select
                size="small"
                value={el.decimals}
                data-testid="prop-decimals"
                options={[0, 1, 2, 3].map((d) => ({ value: d, label: String(d) }))}
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
            <Form.Item label={t('props.minorScale')} style={{ flex: 'none', width: 90 }}>
              <InputNumber
                size="small"
                value={el.minorScale}
                min={0.2}
                max={1}
                step={0.05}
                onChange={(v) => v !== null && patch('minorScale', { minorScale: v })}
              />
            </Form.Item>
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
      )}

      {el.type === 'barcode' && (
        <>
          <Form.Item label={t('props.symbology')}>
            <Select
              size="small"
              value={el.symbology}
              options={SYMBOLOGIES.map((s) => ({ value: s, label: t(`symbology.${s}`) }))}
              onChange={(symbology: (typeof SYMBOLOGIES)[number]) => patch('symbology', { symbology })}
            />
          </Form.Item>
          <Form.Item label={t('props.code')} extra={el.binding ? t('props.valueFallback') : undefined}>
            <Input size="small" value={el.value} onChange={(e) => patch('value', { value: e.target.value })} />
          </Form.Item>
          <Form.Item label={t('props.showText')}>
            <Switch size="small" checked={el.showText} onChange={(showText) => patch('showText', { showText })} />
          </Form.Item>
        </>
      )}

      {el.type === 'qrcode' && (
        <>
          <Form.Item label={t('props.code')} extra={el.binding ? t('props.valueFallback') : undefined}>
            <Input size="small" value={el.value} onChange={(e) => patch('value', { value: e.target.value })} />
          </Form.Item>
          <div className="tmpl-row">
            <Form.Item label={t('props.errorCorrection')} style={{ flex: 1 }}>
              <Select
                size="small"
                value={el.errorCorrection}
                options={(['L', 'M', 'Q', 'H'] as const).map((v) => ({ value: v, label: v }))}
                onChange={(errorCorrection: 'L' | 'M' | 'Q' | 'H') => patch('ec', { errorCorrection })}
              />
            </Form.Item>
            <Form.Item label={t('props.margin')} style={{ flex: 'none', width: 90 }}>
              <InputNumber
                size="small"
                value={el.margin}
                min={0}
                max={8}
                precision={0}
                onChange={(v) => v !== null && patch('margin', { margin: v })}
              />
            </Form.Item>
          </div>
        </>
      )}

      {(el.type === 'rect' || el.type === 'line') && (
        <Form.Item label={t('props.strokeWidth')}>
          <InputNumber
            size="small"
            value={el.strokeWidth}
            min={el.type === 'rect' ? 0 : 1}
            max={100}
            precision={0}
            onChange={(v) => v !== null && patch('strokeWidth', { strokeWidth: v })}
          />
        </Form.Item>
      )}
      {el.type === 'line' && !lineFixed && (
        <Form.Item label={t('props.flip')}>
          <Switch size="small" checked={el.flip} onChange={(flip) => patch('flip', { flip })} />
        </Form.Item>
      )}

      {el.type === 'image' && (
        <>
          <Form.Item label={t('props.image')} extra={t('props.imageHelp')}>
            <label className="ant-btn ant-btn-default ant-btn-sm" style={{ cursor: 'pointer' }}>
              <UploadOutlined /> {t('props.chooseImage')}
              <input
                type="file"
                accept="image/png,image/jpeg"
                hidden
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  if (file) readImage(file);
                  e.target.value = '';
                }}
              />
            </label>
          </Form.Item>
          <Form.Item label={t('props.imageFit')}>
            <Select
              size="small"
              value={el.fit}
              options={(['contain', 'cover', 'stretch'] as const).map((f) => ({
                value: f,
                label: t(`props.fit_${f}`),
              }))}
              onChange={(fit: 'contain' | 'cover' | 'stretch') => patch('fit', { fit })}
            />
          </Form.Item>
        </>
      )}

      {WITH_FONT.has(el.type) && (
        <>
          <Form.Item label={t('props.font')}>
            <Select
              size="small"
              value={el.font.family}
              options={[{ value: FONT_FAMILY, label: FONT_FAMILY }]}
              onChange={(family: string) => patch('family', { font: { ...el.font, family } })}
            />
          </Form.Item>
          <div className="tmpl-row">
            <Form.Item label={t('props.fontSize')} style={{ flex: 1 }}>
              <InputNumber
                size="small"
                value={el.font.size}
                min={4}
                max={1000}
                precision={0}
                suffix="px"
                style={{ width: '100%' }}
                data-testid="prop-font-size"
                onChange={(v) => v !== null && patch('size', { font: { ...el.font, size: v } })}
              />
            </Form.Item>
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
      )}

      {WITH_ALIGN.has(el.type) && (
        <>
          <Form.Item label={t('props.align')}>
            <Segmented
              size="small"
              block
              value={el.align}
              options={(['left', 'center', 'right'] as const).map((a) => ({ value: a, label: t(`props.align_${a}`) }))}
              onChange={(align) => patch('align', { align })}
            />
          </Form.Item>
          <Form.Item label={t('props.valign')}>
            <Segmented
              size="small"
              block
              value={el.valign}
              options={(['top', 'middle', 'bottom'] as const).map((a) => ({ value: a, label: t(`props.valign_${a}`) }))}
              onChange={(valign) => patch('valign', { valign })}
            />
          </Form.Item>
        </>
      )}

      <div className="tmpl-row">
        <Form.Item label={t('props.colour')} style={{ flex: 1 }}>
          <InkSelect
            value={el.colour}
            colourType={colourType}
            testId="prop-colour"
            onChange={(ink) => ink && patch('colour', { colour: ink })}
          />
        </Form.Item>
        {el.type !== 'line' && (
          <Form.Item label={t('props.fill')} style={{ flex: 1 }}>
            <InkSelect
              value={el.fill}
              colourType={colourType}
              allowNone
              onChange={(ink) => patch('fill', { fill: ink })}
            />
          </Form.Item>
        )}
      </div>

      {BINDABLE.has(el.type) && bindingEditor()}
      {el.type === 'image' && el.src !== '' && (
        <Button size="small" danger onClick={() => patch('src', { src: '' })}>
          {t('props.removeImage')}
        </Button>
      )}
    </Form>
  );
}
