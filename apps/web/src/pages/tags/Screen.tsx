import { CALLS, type Tag, type TagScreen } from '@esl/contract';
import { useQuery } from '@tanstack/react-query';
import { Flex, Tag as Mark, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { download } from '../../platform/request';

/** The PNG as a data URL: small, and nothing to revoke when the cache lets it go. */
function dataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

/**
 * One screen of a tag (/mgr/tag/screen): cached by the version the row names, so a new picture
 * is fetched exactly when the tag's shown or desired version changes, and never otherwise.
 */
export function ScreenImage({
  storeId,
  tag,
  which,
  height,
  maxWidth,
}: {
  storeId: number;
  tag: Pick<Tag, 'id' | 'hardwareId' | 'shownVer' | 'desiredVer'>;
  which: TagScreen;
  height: number;
  maxWidth: number;
}) {
  const { t } = useTranslation('tags');
  const ver = which === 'shown' ? tag.shownVer : tag.desiredVer;
  const image = useQuery({
    queryKey: ['tagScreen', storeId, tag.id, which, ver],
    queryFn: async () => dataUrl((await download(CALLS.tagScreen.path, { id: tag.id, which }, { quiet: true })).blob),
    enabled: ver !== null,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const alt = t(which === 'shown' ? 'screen.shownAlt' : 'screen.desiredAlt', { id: tag.hardwareId });
  if (ver === null || image.isError || !image.data) {
    return (
      <Flex
        align="center"
        justify="center"
        data-testid={`screen-${which}`}
        data-ver={ver ?? ''}
        style={{ height, width: Math.min(maxWidth, height * 2), border: '1px dashed #d9d9d9', borderRadius: 2 }}
      >
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {ver === null || image.isError ? t('screen.none') : '…'}
        </Typography.Text>
      </Flex>
    );
  }
  return (
    <img
      src={image.data}
      alt={alt}
      data-testid={`screen-${which}`}
      data-ver={ver}
      style={{
        height,
        maxWidth,
        objectFit: 'contain',
        imageRendering: 'pixelated',
        border: '1px solid #d9d9d9',
        borderRadius: 2,
        background: '#fff',
      }}
    />
  );
}

/** The list's thumbnails: what the tag shows, and beside it, while an update is pending, what it is about to show. */
export function ScreenCell({ storeId, tag, onOpen }: { storeId: number; tag: Tag; onOpen: () => void }) {
  const { t } = useTranslation('tags');
  return (
    <Flex
      align="center"
      gap={6}
      role="button"
      tabIndex={0}
      style={{ cursor: 'pointer' }}
      onClick={onOpen}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onOpen();
        }
      }}
      data-testid="screen-cell"
      data-pending={tag.pending}
    >
      <ScreenImage storeId={storeId} tag={tag} which="shown" height={40} maxWidth={96} />
      {tag.pending && (
        <>
          <Typography.Text type="secondary" aria-hidden>
            →
          </Typography.Text>
          <Flex vertical align="center" gap={2}>
            <ScreenImage storeId={storeId} tag={tag} which="desired" height={32} maxWidth={76} />
            <Mark color="processing" style={{ marginInlineEnd: 0, fontSize: 11, lineHeight: '16px' }}>
              {t('screen.pending')}
            </Mark>
          </Flex>
        </>
      )}
      {tag.shownPage > 1 && (
        // A label of several pages (docs/PAGES.md): the tag shows another page than the first now.
        <Mark color="blue" style={{ marginInlineEnd: 0, fontSize: 11, lineHeight: '16px' }} data-testid="shown-page">
          {t('screen.page', { n: tag.shownPage })}
        </Mark>
      )}
      {/* The button's name is its visible content ("No picture", "Pending", the images' text)
          followed by this: an aria-label would hide the words a speech user reads (axe
          label-content-name-mismatch, WCAG 2.5.3). */}
      <span className="sr-only">{t('detail.open', { id: tag.hardwareId })}</span>
    </Flex>
  );
}
