/**
 * The import wizard's look at a file (issue 14 item 6): the time to read the top of a large
 * workbook, as /mgr/product/importcheck does for every choice the user makes, against reading the
 * whole sheet as the import does. Not a test.
 *
 *   node --import tsx bench/import-wizard.bench.ts [--rows 100000] [--runs 5]
 *
 * The workbook is written by ExcelJS (shared strings, as Excel writes them) with an instructions
 * sheet first; figures are medians of `runs` runs in one process.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import { Workbook } from '../apps/server/src/modules/products/import/xlsx';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const rows = arg('rows', 100_000);
const runs = arg('runs', 5);

async function workbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('填写说明').addRow(['请在“商品”工作表中填写商品']);
  const sheet = book.addWorksheet('商品');
  sheet.addRow(['商品名称', '售价', '条形码', '规格', '产地', '备注']);
  for (let i = 0; i < rows; i++) {
    sheet.addRow([
      `商品 ${i}`,
      (i % 1000) / 10 + 1,
      `69${String(i).padStart(11, '0')}`,
      `${i % 7}00g`,
      '山东',
      `备注 ${i}`,
    ]);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const bytes = await workbook();
const look: number[] = [];
const whole: number[] = [];
for (let run = 0; run < runs; run++) {
  let started = performance.now();
  const book = Workbook.open(bytes);
  const sheets = await book.sheets();
  for (let i = 0; i < sheets.length; i++) await book.rows(i, 20);
  look.push(performance.now() - started);
  started = performance.now();
  await Workbook.open(bytes).rows(1);
  whole.push(performance.now() - started);
}
console.log(
  JSON.stringify({
    rows,
    fileMb: Math.round((bytes.length / 1024 / 1024) * 10) / 10,
    runs,
    lookMs: Math.round(median(look)),
    wholeMs: Math.round(median(whole)),
    load: loadavg().map((l) => Math.round(l * 100) / 100),
  }),
);
