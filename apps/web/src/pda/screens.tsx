import { useCallback, useEffect, useRef, useState } from 'react';
import {
  bindTag,
  failedTags,
  findTag,
  flashLed,
  requestProgress,
  setTagPlace,
  showPage,
  type Tag,
  tagDelivery,
  unbindTag,
} from './api';
import { usePda } from './context';
import { type LabelState, labelState } from './label';
import { nextPlace, type PlaceFields, parsePlaceCode } from './place';
import { ScanBox } from './ScanBox';
import { TagCard } from './TagCard';
import { asBarcode, asHardwareId } from './wedge';

const POLL_MS = 1500;
/** How long a screen keeps watching a tag take its new label or flash, ms. */
const WATCH_MS = 5 * 60_000;
/** How many rows of the failed list show why they failed (one call each). */
const REASONS_SHOWN = 20;

type Note = { kind: 'ok' | 'error' | 'info'; text: string } | null;

function NoteLine({ note }: { note: Note }) {
  if (!note) return null;
  return (
    <p className={`note note-${note.kind}`} role={note.kind === 'error' ? 'alert' : 'status'} data-testid="note">
      {note.text}
    </p>
  );
}

/** Calls `read` every POLL_MS until it answers true or WATCH_MS pass; stops on unmount or with null. */
function useWatch() {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback((read: (() => Promise<boolean>) | null) => {
    clearTimeout(timer.current);
    if (!read) return;
    const until = Date.now() + WATCH_MS;
    const step = async () => {
      const finished = await read().catch(() => false);
      if (!finished && Date.now() < until) timer.current = setTimeout(step, POLL_MS);
    };
    timer.current = setTimeout(step, POLL_MS);
  }, []);
}

/** Reads a scanned tag ID and finds the tag in the current store; reports why not. */
function useTagScan(setNote: (n: Note) => void) {
  const { t, explain } = usePda();
  return useCallback(
    async (code: string): Promise<Tag | null> => {
      const hw = asHardwareId(code);
      if (!hw) {
        setNote({ kind: 'error', text: t('notTagId', { code: code.slice(0, 40) }) });
        return null;
      }
      try {
        const tag = await findTag(hw);
        if (!tag) setNote({ kind: 'error', text: t('tagNotFound', { code: hw }) });
        return tag;
      } catch (error) {
        setNote({ kind: 'error', text: explain(error) });
        return null;
      }
    },
    [t, explain, setNote],
  );
}

/** Scan a tag, then a product barcode: bound, and the label follows. */
export function BindScreen() {
  const { t, explain } = usePda();
  const [tag, setTag] = useState<Tag | null>(null);
  const [bound, setBound] = useState<Tag | null>(null);
  const [label, setLabel] = useState<LabelState | null>(null);
  const [note, setNote] = useState<Note>(null);
  const [busy, setBusy] = useState(false);
  const scanTag = useTagScan(setNote);
  const watch = useWatch();

  const onScan = async (code: string) => {
    setBusy(true);
    try {
      if (!tag) {
        setNote(null);
        const found = await scanTag(code);
        if (found) {
          watch(null);
          setTag(found);
          setBound(null);
          setLabel(null);
        }
        return;
      }
      const barcode = asBarcode(code);
      if (!barcode) {
        setNote({ kind: 'error', text: t('notBarcode') });
        return;
      }
      try {
        const result = await bindTag(tag.hardwareId, barcode);
        setBound(result);
        setTag(null);
        setLabel('updating');
        setNote({ kind: 'ok', text: t('bound', { name: result.product?.name ?? barcode }) });
        // The binding raised the tag's label task before it answered: its end is this label's
        // (also when the label came out as the tag shows already and nothing is sent). The
        // task first, then the tag, so the card shows the picture the task's end speaks of.
        watch(async () => {
          const state = labelState(await tagDelivery(result.id));
          const now = await findTag(result.hardwareId);
          if (!now) return true;
          setBound(now);
          setLabel(state);
          return state !== 'updating';
        });
      } catch (error) {
        setNote({ kind: 'error', text: explain(error) });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="screen-body">
      <ol className="steps" aria-label={t('tabBind')}>
        <li className={tag ? 'done' : 'current'}>{t('step1')}</li>
        <li className={tag ? 'current' : ''}>{t('step2')}</li>
      </ol>
      <ScanBox
        testId={tag ? 'scan-product' : 'scan-tag'}
        prompt={tag ? t('scanProduct') : t('scanTag')}
        label={tag ? t('codeProduct') : t('codeTag')}
        onScan={onScan}
        busy={busy}
      />
      <NoteLine note={note} />
      {tag && (
        <>
          <TagCard tag={tag} />
          <button
            type="button"
            className="btn btn-wide btn-plain"
            onClick={() => setTag(null)}
            data-testid="bind-restart"
          >
            {t('startOver')}
          </button>
        </>
      )}
      {bound && (
        <>
          <p
            className={`label-state ${label ?? ''}`}
            data-testid="label-state"
            data-state={label ?? ''}
            role={label === 'failed' ? 'alert' : 'status'}
          >
            {label === 'updated'
              ? t('labelUpdated')
              : label === 'current'
                ? t('labelCurrent')
                : label === 'failed'
                  ? t('labelFailed')
                  : `${t('labelUpdating')} ${t('labelWaiting')}`}
          </p>
          <TagCard tag={bound} />
          <p className="hint">{t('nextHint')}</p>
        </>
      )}
    </div>
  );
}

/** Scan a tag, see what it shows, unbind it. */
export function UnbindScreen() {
  const { t, explain } = usePda();
  const [tag, setTag] = useState<Tag | null>(null);
  const [note, setNote] = useState<Note>(null);
  const [busy, setBusy] = useState(false);
  const scanTag = useTagScan(setNote);

  const onScan = async (code: string) => {
    setBusy(true);
    setNote(null);
    const found = await scanTag(code);
    setTag(found);
    if (found && !found.product) setNote({ kind: 'info', text: t('notBound') });
    setBusy(false);
  };

  const unbind = async () => {
    if (!tag) return;
    setBusy(true);
    try {
      await unbindTag(tag.id);
      setNote({ kind: 'ok', text: t('unbound', { hw: tag.hardwareId }) });
      setTag((await findTag(tag.hardwareId)) ?? null);
    } catch (error) {
      setNote({ kind: 'error', text: explain(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="screen-body">
      <ScanBox testId="scan-unbind" prompt={t('scanTag')} label={t('codeTag')} onScan={onScan} busy={busy} />
      <NoteLine note={note} />
      {tag?.product && (
        <button type="button" className="btn btn-wide btn-danger" onClick={unbind} disabled={busy} data-testid="unbind">
          {t('unbind')}
        </button>
      )}
      {tag && <TagCard tag={tag} />}
    </div>
  );
}

/** Scan a tag (or pick one from the failed list): its screen, status, battery; flash its LED. */
export function LookupScreen({ open }: { open: string | null }) {
  const { t, explain, can } = usePda();
  const [tag, setTag] = useState<Tag | null>(null);
  const [note, setNote] = useState<Note>(null);
  const [led, setLed] = useState<'sent' | 'done' | 'failed' | null>(null);
  /** A page switch (docs/PAGES.md): the page, its stay, and how the switch went. */
  const [page, setPage] = useState({ page: 2, stay: 30 });
  const [paged, setPaged] = useState<'sent' | 'done' | 'failed' | null>(null);
  const [busy, setBusy] = useState(false);
  const scanTag = useTagScan(setNote);
  const watch = useWatch();

  const show = useCallback(
    async (code: string) => {
      setBusy(true);
      setNote(null);
      setLed(null);
      setPaged(null);
      setTag(await scanTag(code));
      setBusy(false);
    },
    [scanTag],
  );

  useEffect(() => {
    if (open) void show(open);
  }, [open, show]);

  const flash = async () => {
    if (!tag) return;
    setBusy(true);
    try {
      const { requestId } = await flashLed(tag.id);
      setLed('sent');
      watch(async () => {
        const progress = await requestProgress(requestId);
        if (progress.status !== 'done') return false;
        setLed(progress.failed > 0 ? 'failed' : 'done');
        return true;
      });
    } catch (error) {
      setNote({ kind: 'error', text: explain(error) });
    } finally {
      setBusy(false);
    }
  };

  const switchPage = async () => {
    if (!tag) return;
    setBusy(true);
    try {
      const { requestId } = await showPage(tag.id, page.page, page.stay);
      setPaged('sent');
      watch(async () => {
        const progress = await requestProgress(requestId);
        if (progress.status !== 'done') return false;
        setPaged(progress.failed > 0 ? 'failed' : 'done');
        return true;
      });
    } catch (error) {
      setNote({ kind: 'error', text: explain(error) });
    } finally {
      setBusy(false);
    }
  };

  const reload = async () => {
    if (tag) setTag((await findTag(tag.hardwareId).catch(() => tag)) ?? null);
  };

  const ledText = { sent: t('flashSent'), done: t('flashDone'), failed: t('flashFailed') };
  const pageText = { sent: t('pageSent'), done: t('pageDone'), failed: t('pageFailed') };
  const whole = (value: string, min: number, max: number) =>
    Math.min(max, Math.max(min, Math.round(Number(value) || 0)));
  return (
    <div className="screen-body">
      <ScanBox testId="scan-lookup" prompt={t('scanTag')} label={t('codeTag')} onScan={show} busy={busy} />
      <NoteLine note={note} />
      {tag && (
        <>
          <div className="actions">
            {can('tag.operate') && (
              <button type="button" className="btn" onClick={flash} disabled={busy} data-testid="led">
                {t('flash')}
              </button>
            )}
            <button type="button" className="btn btn-plain" onClick={reload} data-testid="lookup-reload">
              {t('refresh')}
            </button>
          </div>
          {led && (
            <p className={`note note-${led === 'failed' ? 'error' : 'ok'}`} data-testid="led-state" data-state={led}>
              {ledText[led]}
            </p>
          )}
          {can('tag.operate') && (
            <div className="actions page-switch" data-testid="page-switch">
              <label>
                {t('pageNumber')}{' '}
                <input
                  type="number"
                  min={1}
                  max={8}
                  value={page.page}
                  onChange={(e) => setPage({ ...page, page: whole(e.target.value, 1, 8) })}
                  data-testid="page-number"
                />
              </label>
              <label>
                {t('staySeconds')}{' '}
                <input
                  type="number"
                  min={0}
                  max={86400}
                  value={page.stay}
                  onChange={(e) => setPage({ ...page, stay: whole(e.target.value, 0, 86_400) })}
                  data-testid="page-stay"
                />
              </label>
              <button type="button" className="btn" onClick={switchPage} disabled={busy} data-testid="show-page">
                {t('showPage')}
              </button>
            </div>
          )}
          {paged && (
            <p
              className={`note note-${paged === 'failed' ? 'error' : 'ok'}`}
              data-testid="page-state"
              data-state={paged}
            >
              {pageText[paged]}
            </p>
          )}
          <TagCard tag={tag} />
        </>
      )}
    </div>
  );
}

/** The store's tags whose last update failed; a tap opens one in the look-up screen. */
export function FailedScreen({ onOpen }: { onOpen: (hardwareId: string) => void }) {
  const { t, explain } = usePda();
  const [rows, setRows] = useState<Tag[] | null>(null);
  const [count, setCount] = useState(0);
  const [reasons, setReasons] = useState<Record<number, string>>({});
  const [note, setNote] = useState<Note>(null);
  const loads = useRef(0);

  const load = useCallback(async () => {
    setNote(null);
    const run = ++loads.current;
    try {
      const { data, count: total } = await failedTags();
      setRows(data);
      setCount(total);
      // Why each failed, one after the other for the first rows (what a screen shows).
      for (const tag of data.slice(0, REASONS_SHOWN)) {
        const delivery = await tagDelivery(tag.id).catch(() => null);
        if (run !== loads.current) return;
        const image = delivery?.tasks.find((task) => task.kind === 'image' && task.state === 'failed');
        if (image?.message) setReasons((r) => ({ ...r, [tag.id]: image.message }));
      }
    } catch (error) {
      setNote({ kind: 'error', text: explain(error) });
    }
  }, [explain]);

  useEffect(() => {
    void load();
    return () => {
      loads.current++;
    };
  }, [load]);

  return (
    <div className="screen-body">
      <div className="list-head">
        <h2 className="prompt">{t('failedTitle')}</h2>
        <button type="button" className="btn btn-plain" onClick={load} data-testid="failed-reload">
          {t('refresh')}
        </button>
      </div>
      <NoteLine note={note} />
      {rows && (
        <p className="muted" data-testid="failed-count">
          {rows.length ? t('failedCount', { n: count }) : t('failedNone')}
        </p>
      )}
      <ul className="rows" data-testid="failed-list">
        {rows?.map((tag) => (
          <li key={tag.id}>
            <button type="button" className="row" onClick={() => onOpen(tag.hardwareId)} data-hw={tag.hardwareId}>
              <span className="mono">{tag.hardwareId}</span>
              <span className="row-sub">
                {tag.product ? tag.product.name : t('noProduct')} · {t(`st_${tag.status}`)}
                {tag.battery === null ? '' : ` · ${tag.battery}%`}
              </span>
              {reasons[tag.id] && (
                <span className="row-reason" data-testid="failed-reason">
                  {reasons[tag.id]}
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** How a place reads on the handheld: `A3 / 2 / 4 · 7`. */
function placeText(p: PlaceFields): string {
  return `${[p.aisle, p.bay, p.shelf].map((v) => v || '–').join(' / ')}${p.position ? ` · ${p.position}` : ''}`;
}

const EMPTY_PLACE: PlaceFields = { aisle: '', bay: '', shelf: '', position: '' };

/**
 * Shelf work (docs/SHELF.md): scan a tag, then scan the shelf code (or type the place) and save;
 * the next tag is offered the next position on the same shelf.
 */
export function PlaceScreen() {
  const { t, explain } = usePda();
  const [tag, setTag] = useState<Tag | null>(null);
  const [place, setPlace] = useState<PlaceFields>(EMPTY_PLACE);
  const [note, setNote] = useState<Note>(null);
  const [busy, setBusy] = useState(false);
  const scanTag = useTagScan(setNote);

  const onScan = async (code: string) => {
    setBusy(true);
    try {
      if (tag) {
        const shelfCode = parsePlaceCode(code);
        if (shelfCode) {
          setPlace(shelfCode);
          setNote(null);
          return;
        }
      }
      setNote(null);
      const found = await scanTag(code);
      if (found) setTag(found);
      else if (tag) setNote({ kind: 'error', text: t('notShelfCode') });
    } finally {
      setBusy(false);
    }
  };

  const save = async () => {
    if (!tag) return;
    setBusy(true);
    try {
      const placed = await setTagPlace(tag.hardwareId, place);
      setNote({ kind: 'ok', text: t('placeSaved', { hw: placed.hardwareId, place: placeText(place) }) });
      setTag(null);
      setPlace(nextPlace(place));
    } catch (error) {
      setNote({ kind: 'error', text: explain(error) });
    } finally {
      setBusy(false);
    }
  };

  const field = (key: keyof PlaceFields) => (
    <label className="label" key={key}>
      {t(key)}
      <input
        className="field"
        value={place[key]}
        inputMode={key === 'position' ? 'numeric' : 'text'}
        maxLength={16}
        onChange={(e) => setPlace({ ...place, [key]: e.target.value })}
        data-testid={`place-${key}`}
      />
    </label>
  );
  const current: PlaceFields | null =
    tag && tag.aisle !== null
      ? { aisle: tag.aisle, bay: tag.bay ?? '', shelf: tag.shelf ?? '', position: tag.position?.toString() ?? '' }
      : null;

  return (
    <div className="screen-body">
      <ol className="steps" aria-label={t('tabPlace')}>
        <li className={tag ? 'done' : 'current'}>{t('step1')}</li>
        <li className={tag ? 'current' : ''}>{t('position')}</li>
      </ol>
      <ScanBox
        testId={tag ? 'scan-shelf' : 'scan-place-tag'}
        prompt={tag ? t('placeScanShelf') : t('placeScanTag')}
        label={tag ? t('codeShelf') : t('codeTag')}
        onScan={onScan}
        busy={busy}
      />
      <NoteLine note={note} />
      {tag && (
        <>
          <p className="hint" data-testid="place-now">
            {current ? t('placeNow', { place: placeText(current) }) : t('placeNone')}
          </p>
          {field('aisle')}
          {field('bay')}
          {field('shelf')}
          {field('position')}
          <button type="button" className="btn btn-wide" onClick={save} disabled={busy} data-testid="place-save">
            {t('placeSave')}
          </button>
          <TagCard tag={tag} />
        </>
      )}
    </div>
  );
}
