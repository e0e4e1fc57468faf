import { z } from 'zod';
import { Id, Ids, Line, Paging } from '../common';
import type { Messages } from '../errors';
import { findTagModel, TagColourType } from '../models';

/**
 * Operating status of a tag (SPEC.md §4): online, offline, normal, unknown, tag lost,
 * communication interruption, abnormal disconnection.
 */
export const TAG_STATUSES = ['online', 'offline', 'normal', 'unknown', 'lost', 'interrupted', 'disconnected'] as const;
export const TagStatus = z.enum(TAG_STATUSES);
export type TagStatus = z.infer<typeof TagStatus>;

export const TAG_STATUS_LABELS: Record<TagStatus, { 'zh-CN': string; en: string }> = {
  online: { 'zh-CN': '在线', en: 'online' },
  offline: { 'zh-CN': '离线', en: 'offline' },
  normal: { 'zh-CN': '正常', en: 'normal' },
  unknown: { 'zh-CN': '未知', en: 'unknown' },
  lost: { 'zh-CN': '标签丢失', en: 'tag lost' },
  interrupted: { 'zh-CN': '通讯中断', en: 'communication interruption' },
  disconnected: { 'zh-CN': '异常断开', en: 'abnormal disconnection' },
};

/** 'please select a model or an ID' when the field is left out; zod's own message otherwise. */
const modelOrId = { error: (issue: { input?: unknown }) => (issue.input === undefined ? 'modelOrId' : undefined) };

/** A tag's hardware ID: 8 to 16 hex characters, stored and answered upper case. */
export const HardwareId = z
  .string(modelOrId)
  .trim()
  .regex(/^[0-9A-Fa-f]{8,16}$/, 'invalid')
  .transform((s) => s.toUpperCase());

/** A catalogue model code ('01'–'44'), answered upper case. */
export const TagModelCode = z
  .string(modelOrId)
  .trim()
  .min(1, 'modelOrId')
  .transform((s) => s.toUpperCase())
  .refine((s) => findTagModel(s) !== undefined, 'invalid');

/** A learned model's key (`oepl-35`), as tag reports name it. */
export const LEARNED_MODEL_KEY = /^[a-z]{1,16}-[0-9A-Za-z-]{1,28}$/;

/**
 * A tag model as a filter or a rule names it: a catalogue code ('01'–'44', answered upper case) or
 * the key of a learned model (`oepl-35`, as the station named it); whether the tenant has that
 * learned model is the server's question.
 */
export const TagModelKey = z
  .string(modelOrId)
  .trim()
  .min(1, 'modelOrId')
  .transform((s) => (LEARNED_MODEL_KEY.test(s) ? s : s.toUpperCase()))
  .refine((s) => findTagModel(s) !== undefined || LEARNED_MODEL_KEY.test(s), 'invalid');

/** The product a tag shows, as the tag list presents it. */
export const TagProduct = z.object({
  id: z.number().int(),
  barcode: z.string(),
  name: z.string(),
  /** Decimal string, two fraction digits. */
  price: z.string(),
});

/**
 * Which rule chose a tag's template (docs/TEMPLATES.md, "Which template a tag shows"), from the
 * most specific: the tag's own template, then for a tag without a product the unbound label,
 * else a product-field (category) rule, else the default; each store rule before the tenant's.
 */
export const LABEL_SOURCES = [
  'tag',
  'storeUnbound',
  'tenantUnbound',
  'storeCategory',
  'tenantCategory',
  'storeDefault',
  'tenantDefault',
  'none',
] as const;
export const LabelSource = z.enum(LABEL_SOURCES);
export type LabelSource = z.infer<typeof LabelSource>;

export const LABEL_SOURCE_LABELS: Record<LabelSource, Messages> = {
  tag: { 'zh-CN': '标签指定', en: 'set on the tag' },
  storeUnbound: { 'zh-CN': '门店未绑定标签', en: "store's unbound label" },
  tenantUnbound: { 'zh-CN': '商户未绑定标签', en: "tenant's unbound label" },
  storeCategory: { 'zh-CN': '门店分类规则', en: 'store category rule' },
  tenantCategory: { 'zh-CN': '商户分类规则', en: 'tenant category rule' },
  storeDefault: { 'zh-CN': '门店默认模板', en: 'store default' },
  tenantDefault: { 'zh-CN': '商户默认模板', en: 'tenant default' },
  none: { 'zh-CN': '未指定模板', en: 'no template' },
};

/** The template a tag shows and why. */
export const TagLabel = z.object({
  /** null when no rule gives the tag a template that fits it (`source` 'none'). */
  templateId: z.number().int().nullable(),
  templateName: z.string(),
  source: LabelSource,
  /** The rule that matched (see /mgr/templ/rulelist); null for 'none'. */
  ruleId: z.number().int().nullable(),
  /** Rules that matched first but were passed over because their template no longer fits the tag. */
  skipped: z.array(z.number().int()),
});
export type TagLabel = z.infer<typeof TagLabel>;

/**
 * A tag model a station of the tenant taught (docs/PROTOCOL.md §5.13): not in the catalogue,
 * described by the vendor's hardware. `key` is what `Tag.model` holds for a tag of it.
 */
export const LearnedTagModel = z.object({
  key: z.string(),
  name: z.string(),
  w: z.number().int(),
  h: z.number().int(),
  /** The panel's colours in its index order. */
  colours: z.array(z.string()),
  /** Our colour type with exactly these colours; null: none, no label can be drawn for it. */
  colourType: TagColourType.nullable(),
  rotate: z.number().int(),
  led: z.boolean(),
  button: z.boolean(),
  nfc: z.boolean(),
  /** Where it came from, e.g. 'shop AP, tag type 35 v2'. */
  source: z.string(),
  /** Serial of the station that taught it last; '' when that station is gone. */
  stationSn: z.string(),
  updatedAt: z.number().int(),
});
export type LearnedTagModel = z.infer<typeof LearnedTagModel>;

export const Tag = z.object({
  id: z.number().int(),
  hardwareId: z.string(),
  /**
   * Catalogue code (see TAG_MODELS), or the key of a learned model (`learnedModel`); `modelName`
   * is its name, e.g. '2.13L'.
   */
  model: z.string(),
  modelName: z.string(),
  /** The learned model when `model` is one (its size, colours and where it came from); else null. */
  learnedModel: LearnedTagModel.nullable(),
  /** The station reported a model key no station of the tenant described (`hardwareModel` is that key). */
  unknownModel: z.boolean(),
  colour: TagColourType,
  status: TagStatus,
  /** Signal strength in dBm (negative); null until reported. */
  signal: z.number().int().nullable(),
  /** Battery in percent, 0–100; null until reported. */
  battery: z.number().int().nullable(),
  /** Degrees Celsius; null until reported. */
  temperature: z.number().int().nullable(),
  /** The hardware model the tag reports (free text); empty until reported. */
  hardwareModel: z.string(),
  /** Serial number of the base station that heard the tag last; null until reported. */
  stationSn: z.string().nullable(),
  /** Unix ms when a base station heard the tag last; null until reported. */
  lastSeen: z.number().int().nullable(),
  product: TagProduct.nullable(),
  /** The template the tag shows and the rule that chose it (beyond SPEC). */
  label: TagLabel,
  /**
   * The image version the tag last reported showing (16 hex digits); null: none known. Changes
   * when its screen does, so it names the picture /mgr/tag/screen `shown` answers (beyond SPEC).
   */
  shownVer: z.string().nullable(),
  /** The page of its label the tag last reported showing (docs/PAGES.md); 1: the first (beyond SPEC). */
  shownPage: z.number().int(),
  /** The version of the label it should show; null: nothing rendered for it yet (beyond SPEC). */
  desiredVer: z.string().nullable(),
  /** An update is on its way: the tag does not show the label it should yet (beyond SPEC). */
  pending: z.boolean(),
  /** Where it is on the shop floor (docs/SHELF.md); null while not placed. */
  aisle: z.string().nullable(),
  bay: z.string().nullable(),
  shelf: z.string().nullable(),
  position: z.number().int().nullable(),
  createdAt: z.number().int(),
});
export type Tag = z.infer<typeof Tag>;

export const TAG_SORTS = ['id', 'hardwareId', 'model', 'status', 'signal', 'battery', 'lastSeen'] as const;
export const SortOrder = z.enum(['asc', 'desc']);

export const TagListBody = Paging.extend({
  status: TagStatus.optional(),
  /** A catalogue code or a learned model's key. */
  model: TagModelKey.optional(),
  /** true: only tags showing a product; false: only tags without one. */
  bound: z.boolean().optional(),
  /** true: only tags whose last label update failed (their image task ended failed; the handheld's list). */
  failed: z.boolean().optional(),
  /**
   * Only tags not heard from since this time (Unix ms), or never: the absentees of a roll call
   * started then (a tag that answers is heard).
   */
  notSeenSince: z.number().int().nonnegative().optional(),
  /** Contained in the hardware ID, or in the bound product's name or barcode; case-insensitive. */
  text: Line(64).optional(),
  /**
   * Exactly this hardware ID (any case): the one tag a scanner read, however many barcodes or
   * other IDs contain it (the handheld's look-up).
   */
  hardwareId: HardwareId.optional(),
  /** Default: newest first (id desc). */
  sort: z.enum(TAG_SORTS).default('id'),
  order: SortOrder.default('desc'),
});

/** Hardware IDs one add call takes. */
export const TAG_IDS_PER_ADD = 2000;
/** One ID or many (a scanner adds in bulk); a string may hold several IDs split by spaces, commas or lines. */
const HardwareIds = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(/[\s,;]+/).filter(Boolean) : v),
  z.array(HardwareId, modelOrId).min(1, 'modelOrId').max(TAG_IDS_PER_ADD),
);

export const AddTagsBody = z
  .object({
    model: TagModelCode,
    /** One of the model's colour types; the model's usual one when left out. */
    colour: TagColourType.optional(),
    hardwareIds: HardwareIds,
  })
  .refine((b) => b.colour === undefined || (findTagModel(b.model)?.colours ?? []).includes(b.colour), {
    path: ['colour'],
    message: 'invalid',
  });

export const AddTagsData = z.object({ added: z.number().int(), tags: z.array(Tag) });
export type AddTagsData = z.infer<typeof AddTagsData>;

/** The handheld flow: scan the tag, scan the product. */
export const BindTagBody = z.object({
  hardwareId: HardwareId,
  barcode: z.string().trim().min(1, 'required').max(64),
});

export const UnbindTagsBody = z.object({ ids: Ids });
export const UnbindTagsData = z.object({ unbound: z.number().int() });

/** Refresh or roll-call some tags of the current store. */
export const TagOperationBody = z.object({ ids: Ids });

/** Refresh some tags; `force` sends the label even when the tag already shows it. */
export const RefreshTagsBody = z.object({ ids: Ids, force: z.boolean().optional() });
export const RefreshAllTagsBody = z.object({ force: z.boolean().optional() });

/** An LED flash pattern (DELIVERY.md §4.4; OEPL's LED command, BT ESL LED Control, Hanshow flash_light). */
export const LedPatternBody = z.object({
  colour: z.enum(['red', 'green', 'blue', 'yellow', 'cyan', 'magenta', 'white']),
  onMs: z.number().int().min(1).max(10_000),
  offMs: z.number().int().min(0).max(10_000),
  count: z.number().int().min(1).max(100),
  repeat: z.number().int().min(1).max(1000),
});
export type LedPatternBody = z.infer<typeof LedPatternBody>;

/** Roll call of some tags; with `led`, each flashes while it answers (to be found on the shelf). */
export const RollCallTagsBody = z.object({ ids: Ids, led: LedPatternBody.optional() });
export const LedTagsBody = z.object({ ids: Ids, led: LedPatternBody });

/** Label pages (docs/PAGES.md): the page to show (1: the first) and how long before page 1 again. */
export const ShowPageBody = z.object({
  ids: Ids,
  page: z.number().int().min(1).max(8),
  /** Seconds the page stays before the tag goes back to page 1; 0: it stays. */
  staySeconds: z.number().int().min(0).max(86_400),
  /**
   * When the tags switch (Unix ms): the switch is sent ahead and each tag makes it by its own
   * timer at that moment (docs/PAGES.md); left out or past: at each tag's next check-in.
   */
  at: z.number().int().min(0).max(8_640_000_000_000).optional(),
});
export type ShowPageBody = z.infer<typeof ShowPageBody>;

/** What a tag operation answers at once: its request id (progress by /mgr/request/get) and its tasks. */
export const TagRequestData = z.object({ requestId: z.number().int(), tasks: z.number().int() });
export type TagRequestData = z.infer<typeof TagRequestData>;

export const RequestGetBody = z.object({ id: Id });
/** Progress of a tag operation. */
export const RequestProgress = z.object({
  id: z.number().int(),
  kind: z.string(),
  /** 'running' until done + failed reach total, then 'done'. */
  status: z.string(),
  total: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  createdAt: z.number().int(),
  finishedAt: z.number().int().nullable(),
});
export type RequestProgress = z.infer<typeof RequestProgress>;

/** Which screen of a tag /mgr/tag/screen draws: the label it shows, or the one it is about to show. */
export const TAG_SCREENS = ['shown', 'desired'] as const;
export const TagScreen = z.enum(TAG_SCREENS);
export type TagScreen = z.infer<typeof TagScreen>;

/** A tag of the current store and which of its screens. */
export const TagScreenBody = z.object({ id: Id, which: TagScreen.default('shown') });

/** A tag of the current store, for /mgr/tag/delivery. */
export const TagDeliveryBody = z.object({ id: Id });

/** Where a tag task stands: to render, waiting for the tag, sent to a station, taken by it, or finished. */
export const TAG_TASK_STATES = ['render', 'queued', 'sent', 'accepted', 'done', 'failed', 'cancelled'] as const;
export const TagTaskState = z.enum(TAG_TASK_STATES);
export type TagTaskState = z.infer<typeof TagTaskState>;

/** One task slot of a tag (its label, LED, roll call): its latest revision (beyond SPEC). */
export const TagTask = z.object({
  /** The engine's kind ('image', 'led', 'ping', 'rollcall') and its name in the reader's language. */
  kind: z.string(),
  kindName: z.string(),
  state: TagTaskState,
  rev: z.number().int(),
  /** Times the current revision was sent to a station. */
  attempts: z.number().int(),
  /** The failure code ('' for none) and the reason in the reader's language (the tag log's words). */
  code: z.string(),
  message: z.string(),
  /** The station it went (or goes) through; null when none hears the tag. */
  stationSn: z.string().nullable(),
  requestId: z.number().int().nullable(),
  queuedAt: z.number().int().nullable(),
  sentAt: z.number().int().nullable(),
  finishedAt: z.number().int().nullable(),
  /**
   * Unfinished tasks: when the tag should take it, Unix ms — its next check-in after any retry
   * wait; null when finished, or when the tag has not reported its wake interval.
   */
  expectedAt: z.number().int().nullable(),
});
export type TagTask = z.infer<typeof TagTask>;

/** How a tag's deliveries stand (beyond SPEC): its wake figures and its task slots, unfinished first. */
export const TagDelivery = z.object({
  tagId: z.number().int(),
  /** The wake interval the tag last reported, s; null until reported. */
  wakeS: z.number().int().nullable(),
  /** When the tag is expected to check in next, Unix ms; null until known. */
  nextWakeAt: z.number().int().nullable(),
  tasks: z.array(TagTask),
});
export type TagDelivery = z.infer<typeof TagDelivery>;

/*
 * Where a tag is (issue 29 item 5, docs/SHELF.md): its aisle, bay and shelf as the store names
 * them, and its position along the shelf from the left (1, 2, …).
 */

/** A place name: up to 16 characters, one line; '' or null: not set. */
const PlaceName = z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), Line(16).nullable());
/** The position along the shelf from the left, 1–9999; null: not set. */
const ShelfPosition = z.preprocess((v) => (v === '' ? null : v), z.coerce.number().int().min(1).max(9999).nullable());

/** A tag's place; every field null (or '') takes it off the wall. */
export const TagPlace = z.object({
  aisle: PlaceName.default(null),
  bay: PlaceName.default(null),
  shelf: PlaceName.default(null),
  position: ShelfPosition.default(null),
});
export type TagPlace = z.infer<typeof TagPlace>;

/** Set where one tag of the current store is: by its id or by its hardware ID (the handheld scans it). */
export const SetTagPositionBody = TagPlace.extend({
  id: Id.optional(),
  hardwareId: HardwareId.optional(),
}).refine((b) => b.id !== undefined || b.hardwareId !== undefined, { path: ['hardwareId'], message: 'modelOrId' });

/** Rows one position import takes. */
export const TAG_POSITIONS_PER_IMPORT = 2000;
/** Places of many tags by hardware ID (a shelf plan); all or nothing. */
export const ImportTagPositionsBody = z.object({
  rows: z
    .array(TagPlace.extend({ hardwareId: HardwareId }))
    .min(1)
    .max(TAG_POSITIONS_PER_IMPORT),
});
export const ImportTagPositionsData = z.object({ updated: z.number().int() });

/** The store wall: the current store's placed tags, of one aisle or all. */
export const TagWallBody = z.object({ aisle: Line(16).optional() });

/** Tags the wall answers at most (the rest: `truncated`; filter by aisle). */
export const WALL_MAX_TAGS = 2000;

/** One tag on the wall: its place, its screens (for /mgr/tag/screen), its product and what is wrong with it. */
export const WallTag = z.object({
  id: z.number().int(),
  hardwareId: z.string(),
  aisle: z.string(),
  bay: z.string(),
  shelf: z.string(),
  position: z.number().int().nullable(),
  shownVer: z.string().nullable(),
  desiredVer: z.string().nullable(),
  pending: z.boolean(),
  status: TagStatus,
  productName: z.string().nullable(),
  barcode: z.string().nullable(),
  /** The problem kinds (docs/PROBLEMS.md) the tag has now. */
  problems: z.array(z.string()),
});
export type WallTag = z.infer<typeof WallTag>;

export const TagWall = z.object({
  /** Every aisle of the store that has a placed tag, sorted. */
  aisles: z.array(z.string()),
  /** Tags of the store with no aisle set (not on the wall). */
  unplaced: z.number().int(),
  /** By aisle, bay, shelf, then position (unset last), then hardware ID. */
  tags: z.array(WallTag),
  truncated: z.boolean(),
});
export type TagWall = z.infer<typeof TagWall>;
