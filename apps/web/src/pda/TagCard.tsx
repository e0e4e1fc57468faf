import { useEffect, useState } from 'react';
import { screenUrl, type Tag, type TagDelivery, tagDelivery } from './api';
import { usePda } from './context';
import type { Key } from './i18n';

/** A tag's screen picture, fetched again when its version changes. */
function Screen({ tag, which }: { tag: Tag; which: 'shown' | 'desired' }) {
  const { t } = usePda();
  const ver = which === 'shown' ? tag.shownVer : tag.desiredVer;
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    let made: string | null = null;
    setUrl(null);
    if (ver === null) return;
    screenUrl(tag.id, which)
      .then((u) => {
        made = u;
        if (cancelled && u) URL.revokeObjectURL(u);
        else setUrl(u);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [tag.id, which, ver]);
  return (
    <figure className="screen">
      <figcaption>{t(which === 'shown' ? 'showing' : 'comingNext')}</figcaption>
      {url ? (
        <img
          src={url}
          alt={t(which === 'shown' ? 'showing' : 'comingNext')}
          data-testid={`screen-${which}`}
          data-ver={ver ?? ''}
        />
      ) : (
        <div className="screen-none">{t('noScreen')}</div>
      )}
    </figure>
  );
}

function timeOf(ms: number | null, lang: string, never: string): string {
  if (ms === null) return never;
  return new Date(ms).toLocaleString(lang, { month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** How the tag's label task stands: done, waiting, or failed with the reason (the tag log's words). */
function LastUpdate({ delivery }: { delivery: TagDelivery | null }) {
  const { t } = usePda();
  const image = delivery?.tasks.find((task) => task.kind === 'image');
  if (!image) return null;
  const text =
    image.state === 'failed'
      ? t('updateFailed', { reason: image.message || image.kindName })
      : image.state === 'done'
        ? t('updateOk')
        : t('updatePending');
  return (
    <div className={`fact${image.state === 'failed' ? ' bad' : ''}`}>
      <dt>{t('lastUpdate')}</dt>
      <dd data-testid="last-update" data-state={image.state}>
        {text}
      </dd>
    </div>
  );
}

/** What a clerk needs to know about a tag: its screen, product, status, battery and last update. */
export function TagCard({ tag }: { tag: Tag }) {
  const { t, lang } = usePda();
  const [delivery, setDelivery] = useState<TagDelivery | null>(null);
  const key = `${tag.id}|${tag.shownVer}|${tag.desiredVer}|${tag.pending}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again when the tag's screen state changes (key)
  useEffect(() => {
    let cancelled = false;
    tagDelivery(tag.id)
      .then((d) => !cancelled && setDelivery(d))
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [key]);
  const battery = tag.battery;
  return (
    <article className="card" data-testid="tag-card" data-hw={tag.hardwareId}>
      <header className="card-head">
        <strong className="mono">{tag.hardwareId}</strong>
        <span className="muted">{tag.modelName}</span>
      </header>
      <div className="screens">
        <Screen tag={tag} which="shown" />
        {tag.pending && tag.desiredVer !== null && <Screen tag={tag} which="desired" />}
      </div>
      <dl className="facts">
        <div className="fact">
          <dt>{t('product')}</dt>
          <dd data-testid="tag-product">
            {tag.product ? `${tag.product.name} · ${tag.product.barcode} · ${tag.product.price}` : t('noProduct')}
          </dd>
        </div>
        <div className="fact">
          <dt>{t('status')}</dt>
          <dd data-testid="tag-status">{t(`st_${tag.status}` as Key)}</dd>
        </div>
        <div className={`fact${battery !== null && battery < 20 ? ' bad' : ''}`}>
          <dt>{t('battery')}</dt>
          <dd data-testid="tag-battery">{battery === null ? '—' : `${battery}%`}</dd>
        </div>
        <div className="fact">
          <dt>{t('signal')}</dt>
          <dd>{tag.signal === null ? '—' : `${tag.signal} dBm`}</dd>
        </div>
        <div className="fact">
          <dt>{t('lastSeen')}</dt>
          <dd>{timeOf(tag.lastSeen, lang, t('never'))}</dd>
        </div>
        <LastUpdate delivery={delivery} />
      </dl>
    </article>
  );
}
