import { ErrorCode, type Language, type Product, productLabelData, type TemplateData } from '@esl/contract';
import {
  designSize,
  type ElementType,
  type LabelData,
  type LabelFonts,
  LIMITS,
  pageCount,
  SAMPLE_DATA,
  type TemplateDocument,
} from '@esl/labels';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Popconfirm, Segmented, Space } from 'antd';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker, useNavigate } from 'react-router';
import { browserCanvasFactory } from '../../../editor/canvas';
import {
  addElement,
  alignElements,
  deleteElements,
  distributeElements,
  duplicateElements,
  moveElements,
  reorder,
  setDocument,
  updateElements,
} from '../../../editor/commands';
import { dataKeyOptions } from '../../../editor/data';
import { newElement } from '../../../editor/factory';
import { fitZoom, stepZoom } from '../../../editor/geometry';
import type { LabelRender } from '../../../editor/paint';
import { shortcutFor } from '../../../editor/shortcuts';
import {
  addPage,
  canRedo,
  canUndo,
  change,
  deletePage,
  documentOf,
  redo,
  sameDocument,
  select,
  showPage,
  undo,
} from '../../../editor/state';
import { createEditorStore } from '../../../editor/store';
import { queryKeys } from '../../../platform/queryKeys';
import { ApiError, request } from '../../../platform/request';
import { DataKeyList } from './DataKeyList';
import { DocumentPanel } from './DocumentPanel';
import { LayerList } from './LayerList';
import { PreviewPanel } from './PreviewPanel';
import { PropertyPanel } from './properties';
import { SaveModal, type SaveValues } from './SaveModal';
import { Stage } from './Stage';
import { Toolbar } from './Toolbar';
import { dialogShown, isTypingTarget, useEditorState } from './useEditor';

interface Props {
  template: TemplateData;
  /** The document as loaded (migrated and repaired). */
  doc: TemplateDocument;
  repairs: readonly string[];
  canWrite: boolean;
  /** The label fonts the picture is drawn with (the server's own files). */
  fonts: LabelFonts;
}

const BINDABLE = new Set<ElementType>(['text', 'price', 'barcode', 'qrcode', 'image']);

/** Everything of the editor once its template and fonts have loaded. */
export function Editor({ template, doc: loaded, repairs, canWrite, fonts }: Props) {
  const { t, i18n } = useTranslation('editor');
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const lang: Language = i18n.language === 'en' ? 'en' : 'zh-CN';

  const [store] = useState(() => createEditorStore(loaded));
  const state = useEditorState(store);
  const canvas = useMemo(() => browserCanvasFactory(fonts), [fonts]);
  const [name, setName] = useState(template.name);
  const [saved, setSaved] = useState({ doc: loaded, name: template.name, revision: template.revision });
  // saved.doc is the stored document (page 1 first); choosing another page is no change.
  const dirty = !sameDocument(documentOf(state), saved.doc) || name.trim() !== saved.name;

  const [zoom, setZoom] = useState(1);
  const [grid, setGrid] = useState(0);
  const [snap, setSnap] = useState(true);
  const [outlines, setOutlines] = useState(true);
  const [saveOpen, setSaveOpen] = useState(false);
  const [product, setProduct] = useState<Product | null>(null);
  const data: LabelData = useMemo(() => (product ? productLabelData(product) : SAMPLE_DATA), [product]);
  const [render, setRender] = useState<{ doc: TemplateDocument; data: LabelData; value: LabelRender } | null>(null);
  const room = useRef<HTMLDivElement>(null);
  const label = designSize(state.doc);

  const keyMap = useQuery({
    queryKey: queryKeys.dataKeyMap(),
    queryFn: () => request('dataKeyMap', {}, { quiet: true }),
  });
  const bound = [
    ...state.doc.elements.flatMap((e) => (e.binding ? [e.binding.key] : [])),
    ...(state.doc.nfc ? [state.doc.nfc.key] : []),
  ];
  const keys = dataKeyOptions(keyMap.data, lang, bound);

  const fit = useCallback(() => {
    const box = room.current;
    if (!box) return;
    const size = designSize(store.getState().doc);
    setZoom(fitZoom(size, { w: box.clientWidth - 48, h: box.clientHeight - 48 }));
  }, [store]);
  useLayoutEffect(fit, [fit]);

  // Ctrl + wheel over the label zooms it (and not the page).
  useEffect(() => {
    const box = room.current;
    if (!box) return;
    const onWheel = (e: WheelEvent) => {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      setZoom((z) => stepZoom(z, e.deltaY < 0 ? 1 : -1));
    };
    box.addEventListener('wheel', onWheel, { passive: false });
    return () => box.removeEventListener('wheel', onWheel);
  }, []);

  const selection = state.selection;
  const act = {
    add(type: ElementType, bindTo?: string) {
      const s = store.getState();
      let el = newElement(s.doc, designSize(s.doc), type, { text: bindTo ? '' : t('newText') });
      if (bindTo) el = { ...el, binding: { key: bindTo, format: 'plain', prefix: '', suffix: '' } };
      store.update((st) => change(st, (d) => addElement(d, el), { selection: [el.id] }));
    },
    undo: () => store.update(undo),
    redo: () => store.update(redo),
    delete: () => store.update((s) => change(s, (d) => deleteElements(d, s.selection), { selection: [] })),
    duplicate: () =>
      store.update((s) => {
        const copy = duplicateElements(s.doc, s.selection);
        return change(s, () => copy.doc, { selection: copy.ids });
      }),
    align: (how: Parameters<typeof alignElements>[2]) =>
      store.update((s) => change(s, (d) => alignElements(d, s.selection, how, designSize(d)))),
    distribute: (axis: 'x' | 'y') => store.update((s) => change(s, (d) => distributeElements(d, s.selection, axis))),
    order: (where: Parameters<typeof reorder>[2]) =>
      store.update((s) => change(s, (d) => reorder(d, s.selection, where))),
    bindOrAdd(key: string) {
      const s = store.getState();
      const chosen = s.doc.elements.filter((e) => s.selection.includes(e.id));
      if (chosen.length === 1 && BINDABLE.has(chosen[0].type)) {
        const el = chosen[0];
        const binding = { key, format: el.binding?.format ?? 'plain', prefix: '', suffix: '' } as const;
        store.update((st) => change(st, (d) => updateElements(d, [el.id], { binding })));
      } else {
        act.add('text', key);
      }
    },
  };

  const save = useMutation({
    mutationFn: async ({ values, force }: { values: SaveValues; force: boolean }) => {
      store.update((s) =>
        change(s, (d) => {
          if (d.size.w === values.width && d.size.h === values.length) return d;
          return setDocument(d, { size: { model: null, w: values.width, h: values.length } });
        }),
      );
      // The editor holds the page it shows in front (docs/PAGES.md); the stored document has page 1 there.
      const doc = documentOf(store.getState());
      const row = await request('alterTemplateData', {
        id: template.id,
        doc,
        name: values.name,
        revision: force ? undefined : saved.revision,
      });
      return { row, doc };
    },
    onSuccess: ({ row, doc }) => {
      setSaved({ doc, name: row.name, revision: row.revision });
      setName(row.name);
      setSaveOpen(false);
      message.success(t('saved'));
      void queryClient.invalidateQueries({ queryKey: queryKeys.lists('templates') });
    },
    onError: async (error, { values }) => {
      if (!(error instanceof ApiError && error.code === ErrorCode.CONFLICT)) return;
      // 1004 is also a taken name (its message, already shown, says so); only a newer revision on
      // the server is someone else's save, which may be overwritten.
      const stored = await request('templateData', { id: template.id }, { quiet: true }).catch(() => null);
      if (stored && stored.revision > saved.revision) {
        modal.confirm({
          title: t('conflictTitle'),
          content: t('conflict'),
          okText: t('overwrite'),
          okButtonProps: { danger: true },
          cancelText: t('cancel'),
          onOk: () => save.mutate({ values, force: true }),
        });
      }
    },
  });

  const openSave = () => {
    if (canWrite) setSaveOpen(true);
  };

  // Keyboard shortcuts, unless a field has the focus or a dialog is open.
  const keyState = useRef({ saveOpen, nudge: 0 });
  keyState.current.saveOpen = saveOpen;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (keyState.current.saveOpen || isTypingTarget(e.target) || dialogShown()) return;
      const action = shortcutFor(e);
      if (!action) return;
      e.preventDefault();
      const s = store.getState();
      switch (action.type) {
        case 'undo':
          act.undo();
          break;
        case 'redo':
          act.redo();
          break;
        case 'nudge': {
          if (s.selection.length === 0) break;
          // Holding an arrow key down makes one undo step.
          if (!e.repeat) keyState.current.nudge++;
          const gesture = `nudge-${keyState.current.nudge}`;
          store.update((st) => change(st, (d) => moveElements(d, st.selection, action.dx, action.dy), { gesture }));
          break;
        }
        case 'delete':
          act.delete();
          break;
        case 'selectAll':
          store.update((st) =>
            select(
              st,
              st.doc.elements.map((el) => el.id),
            ),
          );
          break;
        case 'duplicate':
          act.duplicate();
          break;
        case 'deselect':
          store.update((st) => select(st, []));
          break;
        case 'save':
          openSave();
          break;
        case 'zoom':
          setZoom((z) => stepZoom(z, action.direction));
          break;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  // Unsaved changes: ask before leaving the page or closing the window.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  const blockerRef = useRef(blocker);
  blockerRef.current = blocker;
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    const answer = (go: boolean) => {
      const b = blockerRef.current;
      if (b.state !== 'blocked') return;
      if (go) b.proceed();
      else b.reset();
    };
    modal.confirm({
      title: t('leaveTitle'),
      content: t('leave'),
      okText: t('leaveOk'),
      okButtonProps: { danger: true },
      cancelText: t('cancel'),
      onOk: () => answer(true),
      onCancel: () => answer(false),
    });
  }, [blocker.state, modal, t]);
  useEffect(() => {
    if (!dirty) return;
    const onUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [dirty]);

  const onRendered = useCallback(
    (value: LabelRender, doc: TemplateDocument, forData: LabelData) => setRender({ doc, data: forData, value }),
    [],
  );
  const chosen = state.doc.elements.filter((e) => selection.includes(e.id));
  const canBind = chosen.length === 1 && BINDABLE.has(chosen[0].type);

  return (
    <div className="tmpl-editor" data-testid="template-editor" data-dirty={dirty ? 'true' : 'false'}>
      <Toolbar
        selected={selection.length}
        canUndo={canUndo(state)}
        canRedo={canRedo(state)}
        dirty={dirty}
        saving={save.isPending}
        canSave={canWrite}
        zoom={zoom}
        grid={grid}
        snap={snap}
        outlines={outlines}
        onAdd={(type) => act.add(type)}
        onUndo={act.undo}
        onRedo={act.redo}
        onAlign={act.align}
        onDistribute={act.distribute}
        onOrder={act.order}
        onDuplicate={act.duplicate}
        onDelete={act.delete}
        onZoom={setZoom}
        onFit={fit}
        onGrid={setGrid}
        onSnap={setSnap}
        onOutlines={setOutlines}
        onSave={openSave}
        onBack={() => navigate('/tmpl/index')}
      />
      {repairs.length > 0 && (
        <Alert
          type="info"
          showIcon
          closable
          title={t('repaired')}
          description={
            <ul style={{ margin: 0, paddingLeft: 16 }}>
              {repairs.map((r) => (
                <li key={r}>{r}</li>
              ))}
            </ul>
          }
        />
      )}
      <div className="tmpl-editor-body">
        <div className="tmpl-editor-side tmpl-editor-side-left">
          <Card size="small" title={t('layers')}>
            <LayerList store={store} state={state} keys={keys} />
          </Card>
          <Card size="small" title={t('keys.title')}>
            <DataKeyList keys={keys} canBind={canBind} onPick={act.bindOrAdd} />
          </Card>
        </div>
        <div className="tmpl-editor-main">
          <div className="tmpl-editor-room" ref={room}>
            <Stage
              store={store}
              state={state}
              data={data}
              canvas={canvas}
              zoom={zoom}
              grid={grid}
              snap={snap}
              outlines={outlines}
              onRendered={onRendered}
            />
          </div>
          <Space size={8} wrap data-testid="editor-pages">
            {/* Label pages (docs/PAGES.md): page 1 is what a tag shows; the others it switches to. */}
            <Segmented
              size="small"
              value={state.page ?? 1}
              options={Array.from({ length: pageCount(documentOf(state)) }, (_, i) => ({
                value: i + 1,
                label: t('pages.page', { n: i + 1 }),
              }))}
              onChange={(page) => store.update((s) => showPage(s, Number(page)))}
            />
            <Button
              size="small"
              onClick={() => store.update(addPage)}
              disabled={pageCount(documentOf(state)) >= LIMITS.pages}
              data-testid="add-page"
            >
              {t('pages.add')}
            </Button>
            {pageCount(documentOf(state)) > 1 && (
              <Popconfirm
                title={t('pages.deleteConfirm', { n: state.page ?? 1 })}
                okText={t('pages.delete')}
                onConfirm={() => store.update(deletePage)}
              >
                <Button size="small" danger data-testid="delete-page">
                  {t('pages.delete')}
                </Button>
              </Popconfirm>
            )}
          </Space>
          <div style={{ color: '#595959', fontSize: 12 }} data-testid="editor-status">
            {t('status', { w: label.w, h: label.h, zoom: Math.round(zoom * 100), count: state.doc.elements.length })}
            {' · '}
            {t('hints')}
          </div>
          <Card size="small" title={t('preview.title')} styles={{ body: { padding: 8 } }}>
            <PreviewPanel render={render} product={product} onProduct={setProduct} />
          </Card>
        </div>
        <div className="tmpl-editor-side">
          <Card size="small" title={selection.length > 0 ? t('properties') : t('labelSettings')}>
            {selection.length > 0 ? (
              <PropertyPanel store={store} state={state} keys={keys} />
            ) : (
              <DocumentPanel store={store} state={state} name={name} onName={setName} keys={keys} />
            )}
          </Card>
        </div>
      </div>
      <SaveModal
        open={saveOpen}
        initial={{ name: name.trim() || template.name, width: state.doc.size.w, length: state.doc.size.h }}
        saving={save.isPending}
        onSave={(values) => save.mutate({ values, force: false })}
        onClose={() => setSaveOpen(false)}
      />
    </div>
  );
}
