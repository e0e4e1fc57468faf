import { PassThrough } from 'node:stream';
import {
  API_BASE,
  type Envelope,
  hasPermission,
  PRODUCT_EXPORT_PATH,
  PRODUCT_FIELDS,
  PRODUCT_IMPORT_MAX_ROWS,
  ProductExportBody,
  pickLanguage,
} from '@esl/contract';
import ExcelJS from 'exceljs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CallContext, Services } from '../../api/context';
import { AppError, forbidden, messageOf } from '../../api/errors';
import { validationError } from '../../api/validation';
import { toSpreadsheet } from '../../lib/formula';
import { resolveCaller, tokenOf } from '../session/service';
import { currentStore } from '../stores/current';
import { effectiveFieldMap } from './mapping';
import { parseCustom, presentProduct } from './presenter';
import * as repo from './repository';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * POST /api/mgr/product/export: the list filters as JSON → an XLSX file of every product they
 * select, titled with the tenant's field mapping so the file imports back unchanged. Refusals
 * answer the usual envelope (code 800, 1003, 1001, 1008) as JSON.
 */
export function registerProductExport(app: FastifyInstance, services: Services): void {
  app.post(API_BASE + PRODUCT_EXPORT_PATH, (request, reply) => exportProducts(services, request, reply));
}

async function exportProducts(services: Services, request: FastifyRequest, reply: FastifyReply) {
  const lang = pickLanguage(request.headers['accept-language']);
  const now = services.config.now();
  const ctx: CallContext = { services, lang, ip: request.ip, request, caller: null, now, target: '' };
  try {
    ctx.caller = await resolveCaller(services, tokenOf(request), now);
    if (!hasPermission(ctx.caller.roles, 'product.read')) throw forbidden();
    const body = request.body ?? {};
    const parsed = ProductExportBody.safeParse(body);
    if (!parsed.success) throw validationError(parsed.error, body);
    const at = await currentStore(ctx);
    const [rows, saved] = await Promise.all([
      repo.allProducts(services.db, at, parsed.data, PRODUCT_IMPORT_MAX_ROWS),
      repo.findFieldMap(services.db, at.tenantId),
    ]);
    const map = effectiveFieldMap(saved);
    const stream = new PassThrough();
    void writeWorkbook(stream, map, rows).catch((err: unknown) => stream.destroy(err as Error));
    const day = new Date(now).toISOString().slice(0, 10).replaceAll('-', '');
    return reply
      .type(XLSX_TYPE)
      .header('content-disposition', `attachment; filename="products-${at.storeId}-${day}.xlsx"`)
      .send(stream);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const envelope: Envelope<unknown> = { code: err.code, msg: messageOf(err.code, lang, err.vars), data: err.data };
    return reply.send(envelope);
  }
}

async function writeWorkbook(
  stream: PassThrough,
  map: ReturnType<typeof effectiveFieldMap>,
  rows: repo.ProductDetailRow[],
): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet('products');
  const standard = new Set<string>(PRODUCT_FIELDS);
  sheet.addRow(map.map((m) => m.tField)).commit();
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
