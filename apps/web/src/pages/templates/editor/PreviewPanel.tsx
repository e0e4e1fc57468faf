import type { Product } from '@esl/contract';
import { type LabelData, LEGIBLE_PX, type RenderProblem, type TemplateDocument, tinyTexts } from '@esl/labels';
import { useQuery } from '@tanstack/react-query';
import { Alert, Select, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type LabelRender, paintRender, tagBytes } from '../../../editor/paint';
import { queryKeys } from '../../../platform/queryKeys';
import { requestList } from '../../../platform/request';

/** A browser render with the document and data it was drawn from. */
export interface BrowserRender {
  readonly doc: TemplateDocument;
  readonly data: LabelData;
  readonly value: LabelRender;
}

interface Props {
  /** The editor's latest render, drawn with the chosen product's data or the sample data. */
  render: BrowserRender | null;
  product: Product | null;
  onProduct: (product: Product | null) => void;
}

const SAMPLE = 0;

/**
 * The label as the tag will show it: the editor's render at its real pixel size (drawn by the label
 * rasteriser the server uses too, so these are the tag's very pixels) and the bytes the tag receives.
 */
export function PreviewPanel({ render, product, onProduct }: Props) {
  const { t } = useTranslation('editor');
  const realSize = useRef<HTMLCanvasElement>(null);
  const [search, setSearch] = useState('');
  const [bytes, setBytes] = useState<{ bytes: number; packed: number } | null>(null);

  const products = useQuery({
    queryKey: queryKeys.productPick(search),
    queryFn: () => requestList('productList', { page: 1, limit: 20, text: search || undefined }, { quiet: true }),
  });

  useEffect(() => {
    if (render && realSize.current) paintRender(realSize.current, render.value);
  }, [render]);

  // Packing and compressing waits for a pause in editing: it is the costly part.
  useEffect(() => {
    if (!render) return;
    const timer = window.setTimeout(() => setBytes(tagBytes(render.doc, render.value)), 300);
    return () => window.clearTimeout(timer);
  }, [render]);

  const productId = product?.id ?? SAMPLE;
  const rows = products.data?.rows ?? [];
  const listed = product && !rows.some((p) => p.id === product.id) ? [product, ...rows] : rows;
  const options = [
    { value: SAMPLE, label: t('preview.sample') },
    ...listed.map((p) => ({ value: p.id, label: `${p.name} · ${p.barcode} · ${p.price}` })),
  ];
  const problems = render?.value.problems ?? [];
  const tiny = useMemo(() => (render ? tinyTexts(render.doc) : []), [render]);

  return (
    <div className="tmpl-preview" data-testid="preview-panel">
      <div className="tmpl-preview-info">
        <Select
          aria-label={t('preview.product')}
          showSearch
          size="small"
          value={productId}
          filterOption={false}
          onSearch={setSearch}
          options={options}
          loading={products.isFetching}
          style={{ width: '100%' }}
          data-testid="preview-product"
          onChange={(id: number) => onProduct(listed.find((p) => p.id === id) ?? null)}
          notFoundContent={t('preview.noProducts')}
        />
        {products.isError && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('preview.productsUnavailable')}
          </Typography.Text>
        )}
        {bytes && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="preview-bytes">
            {t('preview.bytes', { bytes: bytes.bytes, packed: bytes.packed })}
          </Typography.Text>
        )}
        {problems.length > 0 && (
          <Alert
            type="warning"
            showIcon
            title={t('preview.problems')}
            description={
              <ul style={{ margin: 0, paddingLeft: 16 }}>
                {problems.map((p) => (
                  <li key={`${p.elementId}${p.message}`} data-testid={p.code ? `problem-${p.code}` : undefined}>
                    {problemText(p, t)}
                  </li>
                ))}
              </ul>
            }
          />
        )}
        {tiny.length > 0 && (
          <Alert
            type="info"
            showIcon
            data-testid="preview-tiny"
            title={t('preview.tiny', { px: LEGIBLE_PX })}
            description={tiny
              .map((x) => t('preview.tinyItem', { element: x.elementId, px: x.size }))
              .join(t('preview.listSep'))}
          />
        )}
      </div>
      <figure className="tmpl-preview-figure">
        <figcaption>{t('preview.browser')}</figcaption>
        <canvas ref={realSize} className="tmpl-preview-image" data-testid="preview-browser" />
      </figure>
    </div>
  );
}

/** A render problem in the user's language where the renderer says what it is (missing glyphs), else as drawn. */
export function problemText(p: RenderProblem, t: (key: string, values?: Record<string, string>) => string): string {
  if (p.code === 'unknownFont') return t('preview.unknownFont', { element: p.elementId, family: p.family ?? '' });
  if (p.code !== 'missingGlyph' || p.chars === undefined) return `${p.elementId}: ${p.message}`;
  const codes = Array.from(p.chars, (c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
  const values = { element: p.elementId, chars: p.chars, codes: codes.join(' '), field: p.field ?? '' };
  return t(p.field ? 'preview.missingGlyphField' : 'preview.missingGlyph', values);
}
