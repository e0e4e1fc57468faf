import type { Element } from '@esl/labels';
import { Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DataKeyOption } from '../../../editor/data';
import { type EditorState, select } from '../../../editor/state';
import type { EditorStore } from '../../../editor/store';
import { ELEMENT_ICONS } from './Toolbar';

/** A line saying what an element shows: its binding's display name, or its own content. */
function describe(el: Element, keys: readonly DataKeyOption[]): string {
  if (el.binding) {
    const key = el.binding.key;
    return `{${keys.find((k) => k.key === key)?.label ?? key}}`;
  }
  switch (el.type) {
    case 'text':
      return el.text;
    case 'price':
      return el.value === null ? '' : String(el.value);
    case 'barcode':
    case 'qrcode':
      return el.value;
    default:
      return '';
  }
}

/** The elements, topmost first; a click selects one, Shift+click adds or removes it. */
export function LayerList({
  store,
  state,
  keys,
}: {
  store: EditorStore;
  state: EditorState;
  keys: readonly DataKeyOption[];
}) {
  const { t } = useTranslation('editor');
  const elements = [...state.doc.elements].reverse();
  if (elements.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('layersEmpty')} />;
  }
  return (
    <div className="tmpl-layers" data-testid="layers">
      {elements.map((el) => {
        const on = state.selection.includes(el.id);
        return (
          <button
            key={el.id}
            type="button"
            className={`tmpl-layer${on ? ' tmpl-layer-selected' : ''}`}
            data-element={el.id}
            onClick={(e) =>
              store.update((s) =>
                select(
                  s,
                  e.shiftKey ? (on ? s.selection.filter((id) => id !== el.id) : [...s.selection, el.id]) : [el.id],
                ),
              )
            }
          >
            {ELEMENT_ICONS[el.type]}
            <span className="tmpl-layer-name">
              {t(`type.${el.type}`)}{' '}
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {describe(el, keys)}
              </Typography.Text>
            </span>
          </button>
        );
      })}
    </div>
  );
}
