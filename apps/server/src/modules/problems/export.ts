import { PassThrough } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  ErrorCode,
  type Language,
  type Messages,
  type ParsedBodyOf,
  PROBLEM_KIND_LABELS,
  type Problem,
} from '@esl/contract';
import ExcelJS from 'exceljs';
import type { CallContext } from '../../api/context';
import { AppError } from '../../api/errors';
import type { FileReply } from '../../api/handlers';
import { toSpreadsheet } from '../../infra/lib/formula';
import { Gate } from '../../infra/lib/gate';
import { localTime } from '../proof/service';
import { currentStore, timeZones } from '../stores/service';
import { presentProblem } from './presenter';
import * as repo from './repository';
import { startedAt, storeScope } from './service';

/** Exports running at once: one per tenant, four in the process (as the other exports). */
const exportGate = new Gate(1, 4);

const ROWS_PER_TURN = 128;

const TITLES: ReadonlyArray<Messages> = [
  { 'zh-CN': '问题', en: 'Problem' },
  { 'zh-CN': '对象', en: 'What' },
  { 'zh-CN': '价签ID/基站SN', en: 'Tag ID / station SN' },
  { 'zh-CN': '商品/基站名称', en: 'Product / station' },
  { 'zh-CN': '条码', en: 'Barcode' },
  { 'zh-CN': '详情', en: 'Detail' },
  { 'zh-CN': '开始时间', en: 'Since' },
];

const SUBJECTS: Record<Problem['subject'], Messages> = {
  tag: { 'zh-CN': '价签', en: 'Tag' },
  station: { 'zh-CN': '基站', en: 'Base station' },
};

const DETAILS: Record<string, Messages> = {
  productGone: { 'zh-CN': '绑定的商品已删除', en: 'its product was deleted' },
  otherStoreProduct: { 'zh-CN': '商品不属于本门店', en: 'its product is not sold in this store' },
  wrongStore: { 'zh-CN': '在其他门店被收到', en: 'heard in another store' },
  offline: { 'zh-CN': '离线', en: 'offline' },
  lost: { 'zh-CN': '丢失', en: 'lost' },
};

/** The detail column: the reason in words, the battery or signal with its unit, or the code. */
export function detailText(p: Problem, lang: Language): string {
  if (p.kind === 'lowBattery') return `${p.detail}%`;
  if (p.kind === 'badSignal') return `${p.detail} dBm`;
  const words = DETAILS[p.detail]?.[lang] ?? p.detail;
  return p.otherStore ? `${words}: ${p.otherStore}` : words;
}

/** The problems of the current store (one kind, or all) as an XLSX workbook, times on the store's clock. */
export async function exportProblems(ctx: CallContext, filter: ParsedBodyOf<'problemsExport'>): Promise<FileReply> {
  const at = await currentStore(ctx);
  const leave = exportGate.enter(at.tenantId);
  if (!leave) throw new AppError(ErrorCode.BUSY, { detail: 'exportBusy' });
  const { db } = ctx.services;
  const stream = new PassThrough();
  try {
    const timeZone = (await timeZones(db, at.tenantId, [at.storeId])).get(at.storeId) ?? 'UTC';
    const rows = await repo.allProblems(db, await storeScope(db, at.tenantId, at.storeId), ctx.now, filter.kind);
    const starts = await startedAt(ctx, at);
    const problems = rows.map((r) => presentProblem(r, starts.get(`${r.kind}|${r.subject}:${r.id}`)));
    void writeWorkbook(stream, problems, ctx.lang, timeZone)
      .catch((err: unknown) => stream.destroy(err as Error))
      .finally(leave);
  } catch (err) {
    leave();
    throw err;
  }
  const day = new Date(ctx.now).toISOString().slice(0, 10).replaceAll('-', '');
  return { body: stream, filename: `problems-${at.storeId}-${day}.xlsx` };
}

async function writeWorkbook(stream: PassThrough, problems: Problem[], lang: Language, timeZone: string) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(lang === 'en' ? 'Problems' : '待处理问题');
  sheet.columns = TITLES.map((_, i) => ({ key: `c${i}`, width: i === 3 ? 28 : 20 }));
  sheet.addRow(TITLES.map((t) => t[lang])).commit();
  let written = 0;
  for (const p of problems) {
    sheet
      .addRow([
        PROBLEM_KIND_LABELS[p.kind][lang],
        SUBJECTS[p.subject][lang],
        toSpreadsheet(p.code),
        toSpreadsheet(p.name),
        toSpreadsheet(p.barcode),
        toSpreadsheet(detailText(p, lang)),
        localTime(p.since, timeZone),
      ])
      .commit();
    if (++written % ROWS_PER_TURN === 0) await nextTurn();
    if (stream.destroyed) return;
  }
  sheet.commit();
  await workbook.commit();
}
