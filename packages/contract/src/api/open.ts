import { z } from 'zod';
import { Id, Ids, Line, Paging } from '../common';
import { AlterProductBody, Barcode, ProductFieldTypes } from './products';
import { AddPromotionFields, EditPromotionFields, PROMOTION_STATES, targetGiven, timesInOrder } from './promotions';
import { LocalTime, SCHEDULE_SCOPES, SCHEDULE_STATUSES, ScheduleChanges } from './schedule';
import { HardwareId, TagStatus } from './tags';

/**
 * The integration API for ERP/POS callers (issue 15, docs/INTEGRATION.md): every call is POST
 * under this prefix with a JSON body, answers the console's envelope, and is signed with the
 * tenant's API key pair (ck names the tenant, sk signs; see `signingText`).
 */
export const OPEN_BASE = '/open/v1';

/** The headers a signed call carries (lower case, as HTTP/2 and Node present them). */
export const OPEN_HEADERS = {
  /** The tenant's ck. */
  key: 'x-esl-key',
  /** Unix milliseconds when the call was made (decimal digits). */
  timestamp: 'x-esl-timestamp',
  /** A random string, never used twice with the same key: 16–64 of A–Z a–z 0–9 _ -. */
  nonce: 'x-esl-nonce',
  /** HMAC-SHA256 of `signingText(...)` keyed with sk, as 64 lower-case hex characters. */
  signature: 'x-esl-signature',
} as const;

/** How far a call's timestamp may be from the server's clock (either way); nonces are kept this long. */
export const OPEN_WINDOW_MS = 5 * 60_000;
export const NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
/** Most items one call takes (products, barcodes, tags). */
export const OPEN_MAX_ITEMS = 1000;

/**
 * The text a call signs: method, path (as sent, query included), timestamp, nonce and the
 * SHA-256 of the raw body bytes (lower-case hex; the hash of the empty string for no body),
 * joined by '\n'. Pure, so the server, the docs' example and callers build it the same way.
 */
export function signingText(method: string, path: string, timestamp: string, nonce: string, bodySha256Hex: string) {
  return [method.toUpperCase(), path, timestamp, nonce, bodySha256Hex.toLowerCase()].join('\n');
}

/** A store of the key's tenant, by its code (the code the console shows; another tenant's is not found). */
export const StoreCode = z.string().trim().min(1, 'required').max(32);

/**
 * One product of a bulk upsert, by barcode: a product the store lacks needs `name` and `price`;
 * for one it has, only the fields given change (`custom`, when given, replaces the whole set).
 */
export const OpenProductInput = ProductFieldTypes.partial().required({ barcode: true });
export type OpenProductInput = z.infer<typeof OpenProductInput>;

const unique =
  <T>(key: (item: T) => string) =>
  (items: readonly T[]) =>
    new Set(items.map(key)).size === items.length;

export const UpsertProductsBody = z.object({
  store: StoreCode,
  products: z
    .array(OpenProductInput)
    .min(1, 'required')
    .max(OPEN_MAX_ITEMS)
    .refine(
      unique((p: OpenProductInput) => p.barcode),
      'duplicate',
    ),
});
/**
 * The request of a product change: its id (progress and per-tag results by /requests/get; a
 * `request.done` callback when the last tag has its new label) and how many tags it relabels —
 * those showing a changed or deleted product. With none it is done at once (its callback is sent
 * all the same).
 */
const ChangeRequest = {
  requestId: z.number().int(),
  tasks: z.number().int(),
};

/** What an upsert did: products added, changed, and given but already as asked (the same call twice: all unchanged). */
export const UpsertProductsData = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  ...ChangeRequest,
});

const Barcodes = z
  .array(Barcode)
  .min(1, 'required')
  .max(OPEN_MAX_ITEMS)
  .refine(
    unique((b: string) => b),
    'duplicate',
  );
const HardwareIds = z
  .array(HardwareId)
  .min(1, 'required')
  .max(OPEN_MAX_ITEMS)
  .refine(
    unique((h: string) => h),
    'duplicate',
  );

/** Barcodes the store does not have are ignored (deleting twice is the same as once). */
export const DeleteProductsBody = z.object({ store: StoreCode, barcodes: Barcodes });
export const DeleteProductsData = z.object({ deleted: z.number().int(), ...ChangeRequest });

/**
 * Prices on a schedule (docs/SCHEDULE.md): one product's change by barcode, the fields it sets
 * (those of an upsert; `custom`, when given, replaces the whole set), at least one.
 */
export const OpenScheduleItem = AlterProductBody.omit({ id: true })
  .extend({ barcode: Barcode })
  .refine((c) => Object.entries(c).some(([k, v]) => k !== 'barcode' && v !== undefined), 'empty');
export type OpenScheduleItem = z.infer<typeof OpenScheduleItem>;

/**
 * Changes of products of a store that take effect at `at` on the store's own clock (its time
 * zone); `chain`: also of the same barcode's product in every other store of the tenant, each at
 * `at` on its own clock. All or nothing: a barcode the store lacks refuses the call (1002).
 */
export const OpenScheduleBody = z.object({
  store: StoreCode,
  at: LocalTime,
  scope: z.enum(SCHEDULE_SCOPES).default('store'),
  note: Line(200).default(''),
  changes: z
    .array(OpenScheduleItem)
    .min(1, 'required')
    .max(OPEN_MAX_ITEMS)
    .refine(
      unique((c: OpenScheduleItem) => c.barcode),
      'duplicate',
    ),
});
/** The changes made (one per product and store) and the stores they are in. */
export const OpenScheduleData = z.object({ ids: z.array(z.number().int()), stores: z.number().int() });
/** A store's scheduled changes, pending first (soonest first); `barcode`: one product's. */
export const OpenScheduleListBody = Paging.extend({
  store: StoreCode,
  status: z.enum(SCHEDULE_STATUSES).optional(),
  barcode: Barcode.optional(),
});
/** Cancels pending changes of the store by id: all of them, or none when one is not pending (1001). */
export const OpenScheduleCancelBody = z.object({ store: StoreCode, ids: Ids });
/**
 * Another time (the store's clock) and/or other fields (given: they replace the whole set) for a
 * pending change of the store; one that took effect or was cancelled is refused (1001).
 */
export const OpenScheduleEditBody = z.object({
  store: StoreCode,
  id: Id,
  at: LocalTime.optional(),
  changes: ScheduleChanges.optional(),
});

/*
 * Promotions (docs/PROMOTIONS.md) through the ERP API: the console's calls with the store named by
 * its code; the same fields, checks and answers.
 */
export const OpenPromotionListBody = Paging.extend({ store: StoreCode, state: z.enum(PROMOTION_STATES).optional() });
/** A promotion of the store (`chain`: of every store of the tenant, each on its own clock). */
export const OpenAddPromotionBody = AddPromotionFields.extend({ store: StoreCode })
  .superRefine(targetGiven)
  .superRefine(timesInOrder);
/** Fields given replace those of a promotion of the store that has not ended. */
export const OpenEditPromotionBody = EditPromotionFields.extend({ store: StoreCode })
  .superRefine(targetGiven)
  .superRefine(timesInOrder);
/** Cancels promotions of the store that have not ended: all of them, or none (1001). */
export const OpenCancelPromotionBody = z.object({ store: StoreCode, ids: Ids });

/** All or nothing: an unknown tag or barcode refuses the whole call (code 1002 naming it). */
export const BindTagsBody = z.object({
  store: StoreCode,
  bindings: z
    .array(z.object({ hardwareId: HardwareId, barcode: Barcode }))
    .min(1, 'required')
    .max(100)
    .refine(
      unique((b: { hardwareId: string }) => b.hardwareId),
      'duplicate',
    ),
});
export const BindTagsData = z.object({ bound: z.number().int() });

/** All or nothing: a tag the store does not have refuses the whole call. */
export const OpenTagsBody = z.object({ store: StoreCode, hardwareIds: HardwareIds });
export const OpenUnbindData = z.object({ unbound: z.number().int() });

export const OpenTagListBody = Paging.extend({
  store: StoreCode,
  status: TagStatus.optional(),
  /** true: only tags showing a product; false: only tags without one. */
  bound: z.boolean().optional(),
});

/** A tag as an integration sees it. */
export const OpenTag = z.object({
  hardwareId: z.string(),
  /** Catalogue code and its name (e.g. '05', '2.13L'). */
  model: z.string(),
  modelName: z.string(),
  status: TagStatus,
  battery: z.number().int().nullable(),
  signal: z.number().int().nullable(),
  /** Unix ms when a base station heard the tag last; null until then. */
  lastSeen: z.number().int().nullable(),
  /** Barcode of the product the tag shows; null when unbound. */
  barcode: z.string().nullable(),
  /** How the tag's latest finished work ended (its tag log); null when none is recorded. */
  lastResult: z
    .object({
      /** 'done' (the tag confirmed, or already showed it) or 'failed'. */
      state: z.enum(['done', 'failed']),
      /** Why it failed ('timeout', 'nack', 'renderError', 'cancelled', …); null when done. */
      code: z.string().nullable(),
      /** What the work was: 'refresh' (a label), 'led' or 'ping'. */
      kind: z.string(),
      /**
       * The request it belonged to (the requestId a refresh, LED, product upsert or delete call
       * answered); null for automatic work such as a price changed in the console.
       */
      requestId: z.number().int().nullable(),
      /** Unix ms when it ended. */
      time: z.number().int(),
    })
    .nullable(),
});
export type OpenTag = z.infer<typeof OpenTag>;
export type OpenTagResult = NonNullable<OpenTag['lastResult']>;

export const OpenStoreListBody = Paging;
export const OpenStore = z.object({
  code: z.string(),
  name: z.string(),
  address: z.string(),
  contact: z.string(),
  phone: z.string(),
});
export type OpenStore = z.infer<typeof OpenStore>;

export const OpenRefreshBody = OpenTagsBody.extend({
  /** Send the label even to a tag that already shows it. */
  force: z.boolean().default(false),
});
export const OpenLedBody = OpenTagsBody.extend({
  led: z.object({
    colour: z.enum(['red', 'green', 'blue', 'yellow', 'cyan', 'magenta', 'white']).default('green'),
    onMs: z.number().int().min(1).max(10_000).default(500),
    offMs: z.number().int().min(0).max(10_000).default(500),
    count: z.number().int().min(1).max(100).default(3),
    repeat: z.number().int().min(1).max(1000).default(1),
  }),
});
/** What a tag operation answers at once: its request id (for /requests/get) and how many tasks it made. */
export const OpenRequestData = z.object({ requestId: z.number().int(), tasks: z.number().int() });

export const OpenRequestBody = z.object({ requestId: Id });
export const OpenRequestProgress = z.object({
  requestId: z.number().int(),
  /** What the request was: 'tag.refresh', 'tag.led', 'product.upsert' or 'product.delete'. */
  kind: z.string(),
  /** 'running' until done + failed reach total, then 'done'. */
  status: z.string(),
  total: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  /** Per tag: its hardware ID, 'queued' | 'sent' | 'done' | 'failed', and the failure code. */
  results: z.array(z.object({ hardwareId: z.string(), state: z.string(), code: z.string().nullable() })),
});

/**
 * A shell example of one signed call (list the stores) for bash with GNU date, openssl, sha256sum
 * and curl: the console's "try it" box and docs/INTEGRATION.md show it; a test runs it.
 */
export function curlExample(origin: string, ck: string, sk: string): string {
  const path = `${OPEN_BASE}/stores/list`;
  return [
    `CK='${ck}'`,
    `SK='${sk}'`,
    `BODY='{"page":1,"limit":20}'`,
    `TS=$(date +%s%3N)`,
    `NONCE=$(openssl rand -hex 16)`,
    `HASH=$(printf '%s' "$BODY" | sha256sum | cut -d' ' -f1)`,
    `SIG=$(printf 'POST\\n%s\\n%s\\n%s\\n%s' '${path}' "$TS" "$NONCE" "$HASH" | openssl dgst -sha256 -hmac "$SK" | sed 's/^.* //')`,
    `curl -s -X POST '${origin}${path}' -H 'content-type: application/json' \\`,
    `  -H "${OPEN_HEADERS.key}: $CK" -H "${OPEN_HEADERS.timestamp}: $TS" \\`,
    `  -H "${OPEN_HEADERS.nonce}: $NONCE" -H "${OPEN_HEADERS.signature}: $SIG" \\`,
    `  -d "$BODY"`,
  ].join('\n');
}
