import { createHash } from 'node:crypto';
import { brotliDecompressSync } from 'node:zlib';
import { type BrandFont, ErrorCode, FONT_UPLOAD_MAX_BYTES, type Language } from '@esl/contract';
import {
  checkBrandFont,
  decodeWoff2,
  FALLBACK_ORDER,
  FontRefused,
  fontFormat,
  type TemplateDocument,
} from '@esl/labels';
import type { BrandFace } from '@esl/labels/node';
import type {} from '@fastify/multipart';
import type { Kysely } from 'kysely';
import { type CallContext, requireTenant } from '../../api/context';
import { AppError, badFile, conflict, invalidField, notFound } from '../../api/errors';
import type { Database } from '../../infra/db/schema';
import { onUniqueViolation } from '../../infra/db/unique';
import { relabelTenant, tasksChanged } from '../../outbox/slots/enqueue';
import { presentFont } from './presenter';
import * as repo from './repository';

/*
 * A tenant's brand fonts (issue 28 item 3; docs/LABELS.md "Fonts a retailer brings"). Uploaded
 * like every file of the server: one multipart file, its size capped while it streams, checked by
 * its content (magic bytes, then the font parses and every glyph's outline reads), never by its
 * name. Stored per tenant; the render stage, the previews and the editor draw a family a
 * template names with the faces of that template's tenant only.
 */

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The families of the shared label fonts: a brand font may not take their names. */
const BUILT_IN = new Set(FALLBACK_ORDER.map((f) => f.toLowerCase()));

const FAMILY_MAX = 64;

/** The families (lower case) a document's text elements name. */
export function familiesOf(doc: TemplateDocument): Set<string> {
  const out = new Set<string>();
  for (const e of doc.elements) {
    if (e.type === 'text' || e.type === 'price' || (e.type === 'barcode' && e.showText)) {
      out.add(e.font.family.toLowerCase());
    }
  }
  return out;
}

/** Families named by a stored document (JSON), read without validating the whole document. */
function familiesOfJson(json: string): Set<string> {
  const out = new Set<string>();
  try {
    const doc = JSON.parse(json) as { elements?: { font?: { family?: unknown } }[] };
    for (const e of doc.elements ?? []) {
      const family = e.font?.family;
      if (typeof family === 'string') out.add(family.toLowerCase());
    }
  } catch {
    // A document that does not parse names nothing.
  }
  return out;
}

/** The tenant's templates (id and name) whose documents name a family (lower case), by family. */
async function templatesNamingFamilies(
  db: Kysely<Database>,
  tenantId: number,
): Promise<Map<string, { id: number; name: string }[]>> {
  const byFamily = new Map<string, { id: number; name: string }[]>();
  for (const row of await repo.templateDocuments(db, tenantId)) {
    for (const family of familiesOfJson(row.document))
      byFamily.set(family, [...(byFamily.get(family) ?? []), { id: row.id, name: row.name }]);
  }
  return byFamily;
}

/** Names of the tenant's templates whose documents name a family (lower case), by family. */
async function templatesNaming(db: Kysely<Database>, tenantId: number): Promise<Map<string, string[]>> {
  const byFamily = new Map<string, string[]>();
  for (const [family, rows] of await templatesNamingFamilies(db, tenantId)) {
    byFamily.set(
      family,
      rows.map((r) => r.name),
    );
  }
  return byFamily;
}

/** Ids of the tenant's templates whose documents name this family (any case). */
export async function templatesUsing(db: Kysely<Database>, tenantId: number, family: string): Promise<number[]> {
  return ((await templatesNamingFamilies(db, tenantId)).get(family.toLowerCase()) ?? []).map((r) => r.id);
}

export async function list(ctx: CallContext): Promise<BrandFont[]> {
  const { tenantId } = requireTenant(ctx);
  const rows = await repo.listFonts(ctx.services.db, tenantId);
  const naming = rows.length > 0 ? await templatesNaming(ctx.services.db, tenantId) : new Map();
  return rows.map((row) => presentFont(row, naming.get(row.family_key) ?? []));
}

/** The plain font inside a WOFF2 file; Brotli is stopped at the size the file declares. */
function unpackWoff2(bytes: Uint8Array): Uint8Array {
  return decodeWoff2(bytes, (data, max) => brotliDecompressSync(data, { maxOutputLength: max }));
}

/** The file and the optional `family` field of a multipart upload; a second file is refused. */
async function readUpload(ctx: CallContext): Promise<{ name: string; bytes: Buffer; family: string | null }> {
  if (!ctx.request.isMultipart()) throw badFile('fileMissing');
  let file: { name: string; bytes: Buffer } | null = null;
  let family: string | null = null;
  try {
    for await (const part of ctx.request.parts({ limits: { fileSize: FONT_UPLOAD_MAX_BYTES, files: 2 } })) {
      if (part.type !== 'file') {
        if (part.fieldname === 'family' && typeof part.value === 'string') family = part.value;
        continue;
      }
      if (file !== null || part.fieldname !== 'file') {
        part.file.resume();
        throw badFile('oneFile');
      }
      file = { name: part.filename.slice(0, 100), bytes: await part.toBuffer() };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw badFile('fontSize');
    if (code === 'FST_FILES_LIMIT') throw badFile('oneFile');
    throw badFile('fileMissing');
  }
  if (!file) throw badFile('fileMissing');
  return { ...file, family };
}

/** Stores an uploaded brand font for the caller's tenant. */
export async function upload(ctx: CallContext): Promise<BrandFont> {
  const { tenantId } = requireTenant(ctx);
  const { db } = ctx.services;
  const file = await readUpload(ctx);
  ctx.target = { kind: 'file', name: file.name };
  let info: ReturnType<typeof checkBrandFont>;
  const uploaded = new Uint8Array(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
  const uploadedFormat = fontFormat(uploaded);
  let drawn: Uint8Array = uploaded;
  try {
    // A WOFF2 is unpacked once, here: what is stored and drawn is the TrueType or OpenType font
    // inside it (the browser's editor and the render workers read plain fonts).
    if (uploadedFormat === 'woff2') drawn = unpackWoff2(uploaded);
    info = checkBrandFont(drawn);
  } catch (error) {
    if (error instanceof FontRefused) throw badFile(error.reason);
    throw badFile('fontBroken');
  }
  const family = (file.family ?? '').replace(/\s+/g, ' ').trim() || info.family;
  if (!family) throw invalidField('family', 'fontFamilyNone');
  if (family.length > FAMILY_MAX || /["\\,]/.test(family)) throw invalidField('family', 'invalid');
  const familyKey = family.toLowerCase();
  if (BUILT_IN.has(familyKey)) throw invalidField('family', 'fontFamilyBuiltIn');
  const label = `${family} ${info.weight}`;
  ctx.target = { kind: 'font', name: label };
  if (await repo.familyTaken(db, tenantId, familyKey, info.weight)) throw conflict(label);
  const id = await onUniqueViolation(
    repo.insertFont(db, {
      tenant_id: tenantId,
      family,
      family_key: familyKey,
      weight: info.weight,
      // What the user uploaded (the list shows it); the bytes are the font drawn.
      format: uploadedFormat ?? info.format,
      name: file.name,
      size: file.bytes.length,
      hash: sha256(drawn),
      bytes: Buffer.from(drawn.buffer, drawn.byteOffset, drawn.byteLength),
      created_at: ctx.now,
    }),
    () => conflict(label),
  );
  const row = await repo.findFont(db, tenantId, id);
  if (!row) throw notFound();
  const naming = (await templatesNaming(db, tenantId)).get(familyKey) ?? [];
  if (naming.length > 0) {
    // Templates already name the family (they were drawn in the base font until now): their tags
    // get the label drawn with it. The render key holds the fonts' hashes, so only those re-render.
    await relabelTenant(db, tenantId, ctx.now);
    tasksChanged();
  }
  return presentFont(row, naming);
}

/** "templates "A", "B"" in the reader's language. */
function templateList(names: readonly string[], lang: Language): string {
  const shown = names.slice(0, 10);
  const more = names.length - shown.length;
  if (lang === 'zh-CN')
    return `模板 ${shown.map((n) => `“${n}”`).join('、')}${more > 0 ? ` 等 ${names.length} 个` : ''} 使用该字体`;
  return `used by template${names.length === 1 ? '' : 's'} ${shown.map((n) => `"${n}"`).join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** Deletes a brand font; refused while a template of the tenant names its family. */
export async function remove(ctx: CallContext, id: number): Promise<{ deleted: number }> {
  const { tenantId } = requireTenant(ctx);
  const { db } = ctx.services;
  const row = await repo.findFont(db, tenantId, id);
  if (!row) throw notFound();
  ctx.target = { kind: 'font', name: `${row.family} ${row.weight}` };
  const using = (await templatesNaming(db, tenantId)).get(row.family_key) ?? [];
  if (using.length > 0) throw new AppError(ErrorCode.IN_USE, { detail: templateList(using, ctx.lang) });
  return { deleted: await repo.deleteFont(db, tenantId, id) };
}

/** A brand font's file, the caller's tenant's only. */
export async function file(ctx: CallContext, id: number): Promise<{ body: Buffer; filename: string }> {
  const { tenantId } = requireTenant(ctx);
  const row = await repo.findFont(ctx.services.db, tenantId, id);
  const bytes = row ? await repo.fontBytes(ctx.services.db, tenantId, id) : undefined;
  if (!row || !bytes) throw notFound();
  // A WOFF2 upload is kept as the font inside it: the file is named for what it holds.
  const filename =
    row.format === 'woff2' ? `${row.name.replace(/\.woff2$/i, '')}.${fontFormat(bytes) ?? 'ttf'}` : row.name;
  return { body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), filename };
}

const BYTES_KEPT = 32;
const bytesByHash = new Map<string, Uint8Array>();

/**
 * The brand faces a tenant's documents need (the families their texts name), with their bytes,
 * for the render jobs and previews: only this tenant's rows are read, so another tenant's family
 * is never found and is drawn in the base font (and reported by the renderer). Bytes are kept by
 * hash between batches.
 */
export async function facesFor(
  db: Kysely<Database>,
  tenantId: number,
  docs: Iterable<TemplateDocument>,
): Promise<BrandFace[]> {
  const families = new Set<string>();
  for (const doc of docs) for (const family of familiesOf(doc)) if (!BUILT_IN.has(family)) families.add(family);
  if (families.size === 0) return [];
  const rows = await repo.facesOf(db, tenantId, [...families]);
  const faces: BrandFace[] = [];
  for (const row of rows) {
    let bytes = bytesByHash.get(row.hash);
    if (!bytes) {
      bytes = await repo.fontBytes(db, tenantId, row.id);
      if (!bytes) continue;
      bytes = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      if (bytesByHash.size >= BYTES_KEPT) bytesByHash.clear();
      bytesByHash.set(row.hash, bytes);
    }
    faces.push({ family: row.family, weight: row.weight, hash: row.hash, bytes });
  }
  return faces;
}
