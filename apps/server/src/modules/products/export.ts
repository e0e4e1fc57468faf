import { PassThrough } from 'node:stream';
import { type ParsedBodyOf, PRODUCT_FIELDS, PRODUCT_IMPORT_MAX_ROWS } from '@esl/contract';
import ExcelJS from 'exceljs';
import type { CallContext } from '../../api/context';
import type { FileReply } from '../../api/handlers';
import { toSpreadsheet } from '../../lib/formula';
import { currentStore } from '../stores/service';
import { effectiveFieldMap } from './mapping';
import { parseCustom, presentProduct } from './presenter';
import * as repo from './repository';

/**
 * The products the list filters select, as an XLSX workbook titled with the tenant's field
 * mapping so the file imports back unchanged. The workbook is written as it is sent.
 */
export async function exportProducts(ctx: CallContext, filter: ParsedBodyOf<'productExport'>): Promise<FileReply> {
  const at = await currentStore(ctx);
  const { db } = ctx.services;
  const [rows, saved] = await Promise.all([
    repo.allProducts(db, at, filter, PRODUCT_IMPORT_MAX_ROWS),
    repo.findFieldMap(db, at.tenantId),
  ]);
  const map = effectiveFieldMap(saved);
  const stream = new PassThrough();
  void writeWorkbook(stream, map, rows).catch((err: unknown) => stream.destroy(err as Error));
  const day = new Date(ctx.now).toISOString().slice(0, 10).replaceAll('-', '');
  return { body: stream, filename: `products-${at.storeId}-${day}.xlsx` };
}

async function writeWorkbook(
  stream: PassThrough,
  map: ReturnType<typeof effectiveFieldMap>,
  rows: repo.ProductDetailRow[],
): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet('products');
  const standard = new Set<string>(PRODUCT_FIELDS);
  sheet.addRow(map.map((m) => toSpreadsheet(m.tField))).commit();
  for (const row of rows) {
    const product = presentProduct(row);
    const custom = parseCustom(row.custom);
    const values = map.map(({ name }) => {
      if (!standard.has(name)) return toSpreadsheet(custom[name] ?? '');
      const v = product[name as keyof typeof product];
      return v === null ? '' : toSpreadsheet(String(v));
    });
    sheet.addRow(values).commit();
  }
  sheet.commit();
  await workbook.commit();
}
