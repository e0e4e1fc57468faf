import { findTagModel, SaveTemplateBody, TagColourType } from '@esl/contract';
import {
  type ColourType as ColourTypeT,
  DITHER_MODES,
  type DitherMode,
  NFC_TYPES,
  type NfcType,
  type Rotation,
} from '@esl/labels';
import { LIMITS } from '@esl/labels/model';
import { Form, Input, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { maxLengthOf } from '../../../components/form/spec';
import { setColourType, setDocument } from '../../../editor/commands';
import type { DataKeyOption } from '../../../editor/data';
import { change, type EditorState } from '../../../editor/state';
import type { EditorStore } from '../../../editor/store';
import { ColourType } from '../list/ColourType';
import { MODEL_OPTIONS } from '../list/modelOptions';
import { InkSelect } from './properties/fields';

interface Props {
  store: EditorStore;
  state: EditorState;
  name: string;
  onName: (name: string) => void;
  /** The data keys a binding can pick (the tenant's field mapping), for the NFC content. */
  keys: readonly DataKeyOption[];
}

const CUSTOM = 'custom';
const NAME_CHARS = maxLengthOf(SaveTemplateBody.shape.name);
const PANEL = LIMITS.panel;

/**
 * The label's own settings, shown when nothing is selected: name, size, colours, rotation,
 * dithering, and which data field tags with NFC give a phone (docs/SHELF.md).
 */
export function DocumentPanel({ store, state, name, onName, keys }: Props) {
  const { t } = useTranslation(['editor', 'templates']);
  const { doc } = state;
  const model = doc.size.model ? findTagModel(doc.size.model) : undefined;
  const colourTypes: readonly ColourTypeT[] = model ? model.colours : TagColourType.options;

  const update = (fn: Parameters<typeof change>[1]) => store.update((s) => change(s, fn));

  const chooseModel = (code: string) => {
    if (code === CUSTOM) {
      update((d) => setDocument(d, { size: { ...d.size, model: null } }));
      return;
    }
    const m = findTagModel(code);
    if (!m) return;
    update((d) => {
      const sized = setDocument(d, { size: { model: m.code, w: m.w, h: m.h } });
      return m.colours.includes(sized.colourType) ? sized : setColourType(sized, m.colours[0]);
    });
  };

  // Typing a size that is not the model's makes the template a free width × length one.
  const setSide = (side: 'w' | 'h', value: number | null) => {
    if (value === null || value < PANEL.min || value > PANEL.max) return;
    update((d) => {
      const size = { ...d.size, [side]: Math.round(value) };
      const m = size.model ? findTagModel(size.model) : undefined;
      const fits = m !== undefined && m.w === size.w && m.h === size.h;
      return setDocument(d, { size: { ...size, model: fits ? size.model : null } });
    });
  };

  return (
    <Form layout="vertical" size="small" className="tmpl-props" data-testid="doc-panel">
      <Form.Item label={t('templates:field.name')}>
        <Input
          aria-label={t('templates:field.name')}
          value={name}
          maxLength={NAME_CHARS}
          onChange={(e) => onName(e.target.value)}
          data-testid="doc-name"
        />
      </Form.Item>
      <Form.Item label={t('templates:field.model')}>
        <Select
          aria-label={t('templates:field.model')}
          showSearch
          optionFilterProp="label"
          value={doc.size.model ?? CUSTOM}
          options={[{ value: CUSTOM, label: t('templates:customSize') }, ...MODEL_OPTIONS]}
          onChange={chooseModel}
        />
      </Form.Item>
      <div className="tmpl-row">
        <Form.Item label={t('templates:field.width')} style={{ flex: 1 }}>
          <InputNumber
            aria-label={t('templates:field.width')}
            value={doc.size.w}
            min={PANEL.min}
            max={PANEL.max}
            precision={0}
            suffix="px"
            style={{ width: '100%' }}
            onChange={(v) => setSide('w', v)}
          />
        </Form.Item>
        <Form.Item label={t('templates:field.length')} style={{ flex: 1 }}>
          <InputNumber
            aria-label={t('templates:field.length')}
            value={doc.size.h}
            min={PANEL.min}
            max={PANEL.max}
            precision={0}
            suffix="px"
            style={{ width: '100%' }}
            onChange={(v) => setSide('h', v)}
          />
        </Form.Item>
      </div>
      <Form.Item label={t('templates:field.colourType')}>
        <Select
          aria-label={t('templates:field.colourType')}
          value={doc.colourType}
          options={colourTypes.map((c) => ({ value: c, label: <ColourType value={c} /> }))}
          onChange={(c: ColourTypeT) => update((d) => setColourType(d, c))}
        />
      </Form.Item>
      <div className="tmpl-row">
        <Form.Item label={t('templates:field.rotation')} style={{ flex: 1 }}>
          <Select
            aria-label={t('templates:field.rotation')}
            value={doc.rotation}
            options={([0, 90, 180, 270] as const).map((r) => ({ value: r, label: `${r}°` }))}
            onChange={(rotation: Rotation) => update((d) => setDocument(d, { rotation }))}
          />
        </Form.Item>
        <Form.Item label={t('editor:doc.background')} style={{ flex: 1 }}>
          <InkSelect
            label={t('editor:doc.background')}
            value={doc.background}
            colourType={doc.colourType}
            onChange={(ink) => ink && update((d) => setDocument(d, { background: ink }))}
          />
        </Form.Item>
      </div>
      <Form.Item label={t('editor:doc.dither')} extra={t('editor:doc.ditherHelp')}>
        <Select
          aria-label={t('editor:doc.dither')}
          value={doc.dither}
          options={DITHER_MODES.map((m) => ({ value: m, label: t(`editor:dither.${m}`) }))}
          onChange={(dither: DitherMode) => update((d) => setDocument(d, { dither }))}
        />
      </Form.Item>
      {/* One per row: side by side in the 280 px panel the placeholder and "URL (…)" were cut off. */}
      <Form.Item label={t('editor:doc.nfc')} extra={t('editor:doc.nfcHelp')}>
        <Select
          aria-label={t('editor:doc.nfc')}
          allowClear
          showSearch
          optionFilterProp="search"
          placeholder={t('editor:doc.nfcNone')}
          value={doc.nfc?.key}
          data-testid="doc-nfc"
          options={keys.map((k) => ({ value: k.key, search: `${k.label} ${k.key}`, label: k.label }))}
          onChange={(key: string | undefined) =>
            update((d) => setDocument(d, { nfc: key ? { key, type: d.nfc?.type ?? 'uri' } : null }))
          }
        />
      </Form.Item>
      <Form.Item label={t('editor:doc.nfcType')}>
        <Select
          aria-label={t('editor:doc.nfcType')}
          disabled={!doc.nfc}
          value={doc.nfc?.type ?? 'uri'}
          data-testid="doc-nfc-type"
          options={NFC_TYPES.map((type) => ({ value: type, label: t(`editor:nfcType.${type}`) }))}
          onChange={(type: NfcType) => update((d) => (d.nfc ? setDocument(d, { nfc: { key: d.nfc.key, type } }) : d))}
        />
      </Form.Item>
    </Form>
  );
}
