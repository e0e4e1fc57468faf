import {
  DATA_KEY_PATTERN,
  DATA_KEYS,
  DitherMode,
  Rotation,
  type StandardDataKey,
  TemplateDocument,
} from '@esl/labels/model';
import { z } from 'zod';
import { Id, Ids, Line, Paging, RequiredLine } from '../common';
import { findTagModel, TagColourType } from '../models';

// The template document is defined once, in the labels model (DESIGN.md §6): bodies are checked
// against its schema (a VALIDATION error names the field, e.g. `doc.elements.2.colour`) and
// OpenAPI shows it. Whether a document fits its tag (size, inks of its colour set) is the
// server's check.

/** A template document as sent by the editor (defaults may be left out). */
export const TemplateDocBody = TemplateDocument.meta({
  description: 'A template document: TemplateDocument of @esl/labels/model (docs/TEMPLATES.md)',
});
/** A template document as the server answers it: current version, every default filled in. */
export const TemplateDoc = TemplateDocument.meta({
  description: 'A template document: TemplateDocument of @esl/labels/model, current version',
});

/** Two hex digits of a model in the tag-model catalogue, upper-cased. */
export const TemplateModelCode = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .refine((code) => findTagModel(code) !== undefined, 'invalid');

/** Panel pixels along one side. */
const Pixels = z.coerce.number().int().min(1).max(4096);
const TemplateRotation = Rotation;

/** A row of the template list (also the answer of add, copy and save). */
export const Template = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Tag model code from the catalogue, or null for a free width × length template. */
  model: z.string().nullable(),
  /** Catalogue name of the model (e.g. "2.66L"); empty for a free size. */
  modelName: z.string(),
  /** Panel pixels, as the panel is driven (the document's size). */
  width: z.number().int(),
  length: z.number().int(),
  colourType: TagColourType,
  /** Clockwise turn from the design to the panel; 90/270 mean a portrait design on a landscape panel. */
  rotation: TemplateRotation,
  /** Goes up by one on every save of the document. */
  revision: z.number().int(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  /**
   * URL of a PNG of the label drawn with sample data, quantised as the tag shows it (GET, no
   * session needed; the random key changes with every revision, so it can be cached forever).
   */
  thumbnail: z.string(),
});
export type Template = z.infer<typeof Template>;

export const TemplateListBody = Paging.extend({
  name: Line(64).optional(),
  model: TemplateModelCode.optional(),
  colourType: TagColourType.optional(),
});

/**
 * A new template: a model from the catalogue (its size, and a colour type it is made in; the
 * model's usual one when left out) or a free width × length with a colour type (bwr when left out).
 */
export const AddTemplateBody = z
  .object({
    name: RequiredLine(64),
    model: TemplateModelCode.optional(),
    width: Pixels.optional(),
    length: Pixels.optional(),
    colourType: TagColourType.optional(),
    rotation: TemplateRotation.default(0),
  })
  .superRefine((b, ctx) => {
    const model = b.model ? findTagModel(b.model) : undefined;
    if (!model) {
      if (b.width === undefined) ctx.addIssue({ code: 'custom', path: ['width'], message: 'required' });
      else if (b.length === undefined) ctx.addIssue({ code: 'custom', path: ['length'], message: 'required' });
      return;
    }
    if (b.colourType && !model.colours.includes(b.colourType)) {
      ctx.addIssue({ code: 'custom', path: ['colourType'], message: 'invalid' });
    }
  });

export const TemplateIdBody = z.object({ id: Id });

/** Copy a template; the copy is named "<name> - copy" (numbered when taken) unless a name is given. */
export const CopyTemplateBody = z.object({ id: Id, name: RequiredLine(64).optional() });

/** The document of a template, migrated to the current version on load. */
export const TemplateData = Template.extend({
  doc: TemplateDoc,
  /** What loading repaired in the stored document (one sentence each); empty when nothing. */
  repairs: z.array(z.string()),
});
export type TemplateData = z.infer<typeof TemplateData>;

/**
 * Save a template's document (and optionally rename it). `revision`, when given, must be the
 * revision the editor loaded; a newer one on the server answers CONFLICT instead of overwriting.
 */
export const SaveTemplateBody = z.object({
  id: Id,
  doc: TemplateDocBody,
  name: RequiredLine(64).optional(),
  revision: z.number().int().min(0).optional(),
});

/** Product data for a preview: data key → value (what a product supplies). */
export const SampleData = z.record(z.string().max(64), z.union([z.string().max(2000), z.number(), z.null()]));
export type SampleData = z.infer<typeof SampleData>;

const Dither = DitherMode;

/**
 * Preview a label exactly as the tag will show it. The template: a saved one (`id`) or an unsaved
 * document (`doc`, wins over `id`). The data: a product of the current store (`productId`), else
 * `data`, else the built-in sample data; `data` given with a product overrides its fields.
 */
export const PreviewBody = z
  .object({
    id: Id.optional(),
    doc: TemplateDocBody.optional(),
    productId: Id.optional(),
    data: SampleData.optional(),
    /** Overrides the document's dithering. */
    dither: Dither.optional(),
  })
  .refine((b) => b.id !== undefined || b.doc !== undefined, { path: ['id'], message: 'required' });

export const PreviewProblem = z.object({ element: z.string(), message: z.string() });

export const PreviewData = z.object({
  /** `data:image/png;base64,…`: a palette PNG holding only the colours of the template's colour set. */
  png: z.string(),
  /** Design size (what a reader sees): the panel size turned back by the rotation. */
  width: z.number().int(),
  height: z.number().int(),
  colourType: TagColourType,
  /** What could not be drawn as asked (a bad barcode value, an image that did not load, …). */
  problems: z.array(PreviewProblem),
});
export type PreviewData = z.infer<typeof PreviewData>;

/** Send templates to the tags: every tag whose label uses one of them is rendered again and delivered. */
export const DeviceTemplatesBody = z.object({ ids: Ids });
/** The fonts changed: every tag whose label draws text is rendered again and delivered. */
export const DeviceFontsBody = z.object({}).loose();
/** How many tags a template or font send re-renders, and its data-push rows (one per store). */
export const DeviceSendData = z.object({ tags: z.number().int(), pushIds: z.array(z.number().int()) });
export type DeviceSendData = z.infer<typeof DeviceSendData>;

/** A data key a template element can bind to: a letter, then letters, digits or _. */
export const DataKeyName = z.string().trim().regex(DATA_KEY_PATTERN, 'invalid');

/** Standard product fields every tenant has: the labels model's DATA_KEYS. */
export const STANDARD_DATA_KEYS = DATA_KEYS;
export type StandardDataKeyName = StandardDataKey;

/** Display names of the standard keys until a tenant renames them, per interface language. */
export const DEFAULT_KEY_NAMES: Record<StandardDataKeyName, { 'zh-CN': string; en: string }> = {
  name: { 'zh-CN': '商品名称', en: 'Name' },
  price: { 'zh-CN': '价格', en: 'Price' },
  originalPrice: { 'zh-CN': '原价', en: 'Original price' },
  barcode: { 'zh-CN': '条码', en: 'Barcode' },
  qrcode: { 'zh-CN': '二维码', en: 'QR code' },
  unit: { 'zh-CN': '单位', en: 'Unit' },
  spec: { 'zh-CN': '规格', en: 'Specification' },
  origin: { 'zh-CN': '产地', en: 'Origin' },
  grade: { 'zh-CN': '等级', en: 'Grade' },
};

/** One entry of a tenant's field mapping: data key `name` ↔ display name `tField`. */
export const DataKeyMapping = z.object({
  name: z.string(),
  tField: z.string(),
  /** True for the standard product fields (always present, can be renamed, never removed). */
  standard: z.boolean(),
});
export type DataKeyMapping = z.infer<typeof DataKeyMapping>;

const MappingInput = z.object({ name: DataKeyName, tField: RequiredLine(32) });

/** Rename one key, or add a custom key when the name is new. Answers the entry. */
export const AlterKeyMapBody = MappingInput;

/**
 * Replace the whole mapping: custom keys not listed are removed; standard keys not listed go back
 * to their default display names. Answers the whole mapping.
 */
export const UpdateKeyMapBody = z.object({
  keys: z
    .array(MappingInput)
    .max(200)
    .superRefine((keys, ctx) => {
      const seen = new Set<string>();
      keys.forEach((k, i) => {
        if (seen.has(k.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: 'invalid' });
        seen.add(k.name);
      });
    }),
});

/**
 * The font files labels are drawn with, served by the server under /fonts/ (the same files the
 * server canvas registers), so the browser editor draws text exactly as the tag will show it:
 * `new FontFace(f.family, `url(${f.url})`, { weight: f.weight })`.
 */
export const LABEL_FONTS = [
  { family: 'Noto Sans SC', weight: '400', url: '/fonts/NotoSansSC_400Regular.ttf' },
  { family: 'Noto Sans SC', weight: '700', url: '/fonts/NotoSansSC_700Bold.ttf' },
] as const;

/*
 * A tenant's own fonts (brand fonts, issue 28 item 3; docs/LABELS.md "Fonts a retailer brings"):
 * uploaded as TrueType (multipart, field `file`; an optional field `family` names the family, else
 * the file's own name table does), checked by content, drawn on that tenant's labels only.
 */

/** Largest brand font file the upload takes, bytes. */
export const FONT_UPLOAD_MAX_BYTES = 20 * 1024 * 1024;

/** The formats a brand font may be uploaded in, by content (a WOFF2 is kept as the font inside it). */
export const FONT_FORMATS = ['ttf', 'otf', 'woff2'] as const;

/** One of a tenant's brand fonts: a family at one weight. */
export const BrandFont = z.object({
  id: z.number().int(),
  /** The family a template's element names to use it. */
  family: z.string(),
  /** 400 regular, 700 bold. */
  weight: z.number().int(),
  format: z.enum(FONT_FORMATS),
  /** The uploaded file's name. */
  name: z.string(),
  /** The uploaded file's size, bytes. */
  size: z.number().int(),
  /** SHA-256 of the font as drawn (for a WOFF2, of the font inside it). */
  hash: z.string(),
  createdAt: z.number().int(),
  /** The templates whose documents name the family (deleting the font is refused while any does). */
  templates: z.array(z.string()),
});
export type BrandFont = z.infer<typeof BrandFont>;

/** A brand font by id (its file, or to delete it). */
export const FontIdBody = z.object({ id: Id });
