import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ErrorCode, type Language, type Messages, type ParsedBodyOf, type ProofState } from '@esl/contract';
import ExcelJS from 'exceljs';
import type { CallContext } from '../../api/context';
import { AppError } from '../../api/errors';
import type { FileReply } from '../../api/handlers';
import { toSpreadsheet } from '../../infra/lib/formula';
import { Gate } from '../../infra/lib/gate';
import { currentStore, timeZones } from '../stores/service';
import { presentProof } from './presenter';
import * as repo from './repository';

/** Report exports running at once: one per tenant, four in the process (as the product export). */
const exportGate = new Gate(1, 4);

/** Rows read per query. */
const PAGE_ROWS = 2000;

/** Rows written between two turns of the event loop given to other requests. */
const ROWS_PER_TURN = 128;

/** Excel's format for a price: two decimals, shown even when zero (as the product export). */
const PRICE_FORMAT = '0.00';

const TITLES: ReadonlyArray<[string, Messages]> = [
  ['hardwareId', { 'zh-CN': '价签ID', en: 'Tag ID' }],
  ['barcode', { 'zh-CN': '条码', en: 'Barcode' }],
  ['productName', { 'zh-CN': '商品名称', en: 'Product' }],
  ['price', { 'zh-CN': '当前价格', en: 'Price now' }],
  ['screenPrice', { 'zh-CN': '屏幕价格', en: 'Price on screen' }],
  ['state', { 'zh-CN': '核对结果', en: 'Result' }],
  ['renderedAt', { 'zh-CN': '屏幕生成时间', en: 'Screen rendered' }],
  ['confirmedAt', { 'zh-CN': '最后确认时间', en: 'Last confirmed' }],
  ['wrongSince', { 'zh-CN': '错误开始时间', en: 'Wrong since' }],
];

const STATES: Record<ProofState, Messages> = {
  agree: { 'zh-CN': '一致', en: 'Agrees' },
  disagree: { 'zh-CN': '不一致', en: 'Disagrees' },
  unknown: { 'zh-CN': '未知', en: 'Unknown' },
};

const OTHER_PRODUCT: Messages = { 'zh-CN': '（非本商品）', en: ' (not this product)' };

/** `YYYY-MM-DD HH:mm:ss` on the store's clock; '' for none. */
export function localTime(ms: number | null, timeZone: string): string {
  if (ms === null) return '';
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  const p = (type: string) => parts.find((x) => x.type === type)?.value ?? '00';
  return `${p('year')}-${p('month')}-${p('day')} ${p('hour')}:${p('minute')}:${p('second')}`;
}

/**
 * The price-accuracy report of the current store (the list's filter) as an XLSX workbook, in tag
 * order, times on the store's clock; written as it is sent, a page at a time (as the product export).
 */
export async function exportProof(ctx: CallContext, filter: ParsedBodyOf<'proofExport'>): Promise<FileReply> {
  const at = await currentStore(ctx);
  const leave = exportGate.enter(at.tenantId);
  if (!leave) throw new AppError(ErrorCode.BUSY, { detail: 'exportBusy' });
  const { db } = ctx.services;
  const stream = new PassThrough();
  try {
    const timeZone = (await timeZones(db, at.tenantId, [at.storeId])).get(at.storeId) ?? 'UTC';
    const page = (after: string | null) => repo.exportProofPage(db, at, filter, after, PAGE_ROWS);
    void writeWorkbook(stream, page, ctx.lang, timeZone)
      .catch((err: unknown) => stream.destroy(err as Error))
      .finally(leave);
  } catch (err) {
    leave();
    throw err;
  }
  const day = new Date(ctx.now).toISOString().slice(0, 10).replaceAll('-', '');
  return { body: stream, filename: `price-accuracy-${at.storeId}-${day}.xlsx` };
}

async function writeWorkbook(
  stream: PassThrough,
  page: (after: string | null) => Promise<repo.ProofRow[]>,
  lang: Language,
  timeZone: string,
): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(lang === 'en' ? 'Price accuracy' : '价格核对');
  sheet.columns = TITLES.map(([key]) => ({ key, width: key === 'productName' ? 28 : 20 }));
  sheet.addRow(TITLES.map(([, title]) => title[lang])).commit();
  let written = 0;
  let after: string | null = null;
  for (;;) {
    const rows = await page(after);
    for (const row of rows) {
      const p = presentProof(row);
      const added = sheet.addRow([
        toSpreadsheet(p.hardwareId),
        toSpreadsheet(p.barcode),
        toSpreadsheet(p.productName),
        Number(p.price),
        p.screenPrice === null ? '' : Number(p.screenPrice),
        STATES[p.state][lang] + (p.otherProduct ? OTHER_PRODUCT[lang] : ''),
        localTime(p.renderedAt, timeZone),
        localTime(p.confirmedAt, timeZone),
        localTime(p.wrongSince, timeZone),
      ]);
      added.getCell(4).numFmt = PRICE_FORMAT;
      added.getCell(5).numFmt = PRICE_FORMAT;
      added.commit();
      if (++written % ROWS_PER_TURN === 0) await nextTurn();
      if (stream.writableNeedDrain) await Promise.race([once(stream, 'drain'), once(stream, 'close')]);
      if (stream.destroyed) return;
    }
    if (rows.length < PAGE_ROWS) break;
    after = rows[rows.length - 1]?.hardware_id ?? null;
  }
  sheet.commit();
  await workbook.commit();
}
