import { CheckCircleOutlined, CloudServerOutlined, WarningOutlined } from '@ant-design/icons';
import type { PreviewData, Product } from '@esl/contract';
import type { LabelData, TemplateDocument } from '@esl/labels';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Select, Space, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { differingPixels, type LabelRender, paintRender, tagBytes } from '../../../editor/paint';
import { request, requestList } from '../../../platform/request';

/** A browser render with the document and data it was drawn from. */
export interface BrowserRender {
  readonly doc: TemplateDocument;
  readonly data: LabelData;
  readonly value: LabelRender;
}

interface Props {
  doc: TemplateDocument;
  /** The data the label is drawn with: the chosen product's, or the sample data. */
  data: LabelData;
  /** The browser's latest render. */
  render: BrowserRender | null;
  product: Product | null;
  onProduct: (product: Product | null) => void;
}

const SAMPLE = 0;
/** Wait this long after the last change before asking the server for its preview. */
const SERVER_DELAY_MS = 700;

async function decodePng(src: string): Promise<Uint8ClampedArray> {
  const image = new Image();
  image.src = src;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.naturalWidth;
  canvas.height = image.naturalHeight;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas');
  ctx.drawImage(image, 0, 0);
  return ctx.getImageData(0, 0, canvas.width, canvas.height).data;
}

interface ServerPreview {
  doc: TemplateDocument;
  productId: number;
  data: PreviewData;
  /** Pixels that differ from the browser's render of the same document and data, or null when not compared. */
  differing: number | null;
}

/**
 * The label as the tag will show it: the browser's quantised render at its real pixel size, the
 * bytes the tag receives, and the server's own render of the same document and data to compare.
 */
export function PreviewPanel({ doc, data, render, product, onProduct }: Props) {
  const { t } = useTranslation('editor');
  const realSize = useRef<HTMLCanvasElement>(null);
  const [search, setSearch] = useState('');
  const [server, setServer] = useState<ServerPreview | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [serverBusy, setServerBusy] = useState(false);
  const [bytes, setBytes] = useState<{ bytes: number; packed: number } | null>(null);

  const products = useQuery({
    queryKey: ['products', 'pick', search],
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
  const latest = useRef({ doc, data, productId, render });
  latest.current = { doc, data, productId, render };

  const askServer = async (forDoc: TemplateDocument, forData: LabelData, forProduct: number) => {
    setServerBusy(true);
    try {
      const answer = await request(
        'templatePreview',
        { doc: forDoc, productId: forProduct === SAMPLE ? undefined : forProduct },
        { quiet: true },
      );
      const mine = latest.current.render;
      let differing: number | null = null;
      if (mine && mine.doc === forDoc && mine.data === forData) {
        differing = differingPixels(mine.value.rgba, await decodePng(answer.png));
      }
      if (latest.current.doc === forDoc && latest.current.productId === forProduct) {
        setServer({ doc: forDoc, productId: forProduct, data: answer, differing });
        setServerError(null);
      }
    } catch (error) {
      setServerError((error as Error).message);
    } finally {
      setServerBusy(false);
    }
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: asks again only when the document or the data change
  useEffect(() => {
    const timer = window.setTimeout(() => void askServer(doc, data, productId), SERVER_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [doc, data]);

  const rows = products.data?.rows ?? [];
  const listed = product && !rows.some((p) => p.id === product.id) ? [product, ...rows] : rows;
  const options = [
    { value: SAMPLE, label: t('preview.sample') },
    ...listed.map((p) => ({ value: p.id, label: `${p.name} · ${p.barcode} · ${p.price}` })),
  ];
  const problems = render?.value.problems ?? [];
  const current = server && server.doc === doc && server.productId === productId ? server : null;

  return (
    <div className="tmpl-preview" data-testid="preview-panel">
      <div className="tmpl-preview-info">
        <Select
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
        {current && current.differing !== null && (
          <Typography.Text type={current.differing === 0 ? 'success' : 'warning'} data-testid="preview-compare">
            {current.differing === 0 ? <CheckCircleOutlined /> : <WarningOutlined />}{' '}
            {current.differing === 0 ? t('preview.same') : t('preview.differ', { count: current.differing })}
          </Typography.Text>
        )}
        {serverError && <Typography.Text type="danger">{serverError}</Typography.Text>}
        {problems.length > 0 && (
          <Alert
            type="warning"
            showIcon
            title={t('preview.problems')}
            description={
              <ul style={{ margin: 0, paddingLeft: 16 }}>
                {problems.map((p) => (
                  <li key={`${p.elementId}${p.message}`}>
                    {p.elementId}: {p.message}
                  </li>
                ))}
              </ul>
            }
          />
        )}
      </div>
      <figure className="tmpl-preview-figure">
        <figcaption>{t('preview.browser')}</figcaption>
        <canvas ref={realSize} className="tmpl-preview-image" data-testid="preview-browser" />
      </figure>
      <figure className="tmpl-preview-figure">
        <figcaption>
          <Space size={4}>
            <CloudServerOutlined />
            {t('preview.server')}
            {serverBusy && <Spin size="small" />}
            <Button
              size="small"
              type="link"
              style={{ padding: 0, height: 'auto' }}
              onClick={() => void askServer(doc, data, productId)}
            >
              {t('preview.refresh')}
            </Button>
          </Space>
        </figcaption>
        {current && (
          <img
            src={current.data.png}
            alt={t('preview.server')}
            className="tmpl-preview-image"
            data-testid="preview-server"
            width={current.data.width}
            height={current.data.height}
          />
        )}
      </figure>
    </div>
  );
}
