import { ELEMENT_TRAITS, type Element, type ElementType, LIMITS } from '@esl/labels/model';
import { Form, Typography } from 'antd';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { type ElementPatch, updateElements } from '../../../../editor/commands';
import type { DataKeyOption } from '../../../../editor/data';
import { change, type EditorState, endGesture } from '../../../../editor/state';
import type { EditorStore } from '../../../../editor/store';
import { BarcodeFields, QrFields } from './codes';
import { InkSelect, NumberField, type Patch, type TypeFieldsProps } from './fields';
import { ImageFields, ImageRemove } from './image';
import { PriceFields } from './price';
import { isStraightLine, LineFields, RectFields } from './shapes';
import { TextFields } from './text';
import { AlignmentFields, BindingFields, FontFields } from './traits';

/**
 * Each element type's own fields, and what it shows below the bindings. What the type shares
 * with others (font, alignment, fill, binding, size limits) is its ELEMENT_TRAITS entry in
 * @esl/labels/model, the same table the schema and renderer follow.
 */
const TYPE_FIELDS: {
  [T in ElementType]: { Fields: ComponentType<TypeFieldsProps<T>>; End?: ComponentType<TypeFieldsProps<T>> };
} = {
  text: { Fields: TextFields },
  price: { Fields: PriceFields },
  barcode: { Fields: BarcodeFields },
  qrcode: { Fields: QrFields },
  rect: { Fields: RectFields },
  line: { Fields: LineFields },
  image: { Fields: ImageFields, End: ImageRemove },
};

interface Props {
  store: EditorStore;
  state: EditorState;
  keys: readonly DataKeyOption[];
}

/** The fields of the selected element(s): position, size, the type's own fields and traits, colour, binding. */
export function PropertyPanel({ store, state, keys }: Props) {
  const { t } = useTranslation('editor');
  const selected = state.doc.elements.filter((e) => state.selection.includes(e.id));
  const colourType = state.doc.colourType;

  // Typing in one field is one undo step: changes to a field merge until it loses focus.
  const patch: Patch = (field: string, p: ElementPatch) =>
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
  const traits = ELEMENT_TRAITS[el.type];
  const straight = isStraightLine(el);
  const position = (field: 'x' | 'y') => (
    <NumberField
      label={field.toUpperCase()}
      value={el[field]}
      range={LIMITS.coordinate}
      testId={`prop-${field}`}
      onChange={(v) => patch(field, { [field]: v })}
    />
  );
  const length = (field: 'w' | 'h', label: string) =>
    // A straight line has no extent across itself: that field is not offered.
    !(straight && el[field] === 0) && (
      <NumberField
        label={label}
        value={el[field]}
        range={traits.limits[field]}
        testId={`prop-${field}`}
        onChange={(v) => patch(field, { [field]: v })}
      />
    );

  return (
    <Form layout="vertical" size="small" className="tmpl-props" onBlur={done} data-testid="prop-panel">
      <Typography.Text strong>
        {t(`type.${el.type}`)}{' '}
        <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
          {el.id}
        </Typography.Text>
      </Typography.Text>
      <div className="tmpl-row" style={{ marginTop: 8 }}>
        {position('x')}
        {position('y')}
      </div>
      <div className="tmpl-row">
        {length('w', t('props.w'))}
        {length('h', t('props.h'))}
      </div>
      <TypeSection el={el} part="Fields" patch={patch} done={done} keys={keys} />
      {traits.font && <FontFields el={el} patch={patch} />}
      {traits.alignment && <AlignmentFields el={el} patch={patch} />}
      <div className="tmpl-row">
        <Form.Item label={t('props.colour')} style={{ flex: 1 }}>
          <InkSelect
            value={el.colour}
            colourType={colourType}
            testId="prop-colour"
            onChange={(ink) => ink && patch('colour', { colour: ink })}
          />
        </Form.Item>
        {traits.fill && (
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
      {traits.binding && <BindingFields el={el} patch={patch} keys={keys} />}
      <TypeSection el={el} part="End" patch={patch} done={done} keys={keys} />
    </Form>
  );
}

/** The element's type's own fields (`Fields`) or closing part (`End`), from TYPE_FIELDS. */
function TypeSection({
  el,
  part,
  ...rest
}: { el: Element; part: 'Fields' | 'End' } & Omit<TypeFieldsProps<ElementType>, 'el'>) {
  // TYPE_FIELDS[el.type] takes elements of that type; TypeScript cannot pair the two through the union.
  const Section = TYPE_FIELDS[el.type][part] as ComponentType<TypeFieldsProps<ElementType>> | undefined;
  return Section ? <Section el={el} {...rest} /> : null;
}
