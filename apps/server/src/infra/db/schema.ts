import type { Generated, Insertable, Selectable } from 'kysely';

/** Table shapes as Kysely sees them. Times are Unix milliseconds. */
export interface Database {
  tenants: TenantTable;
  users: UserTable;
  user_stores: UserStoreTable;
  stores: StoreTable;
  store_params: StoreParamsTable;
  sessions: SessionTable;
  login_attempts: LoginAttemptTable;
  op_logs: OpLogTable;
  sys_logs: SysLogTable;
  avatars: AvatarTable;
  firmware: FirmwareTable;
  firmware_tasks: FirmwareTaskTable;
  templates: TemplateTable;
  template_thumbs: TemplateThumbTable;
  data_keys: DataKeyTable;
  template_rules: TemplateRuleTable;
  stations: StationTable;
  products: ProductTable;
  tags: TagTable;
  field_maps: FieldMapTable;
  device_requests: DeviceRequestTable;
  device_tasks: DeviceTaskTable;
  tag_images: TagImageTable;
  tag_log: TagLogTable;
  push_log: PushLogTable;
  open_nonces: OpenNonceTable;
  callback_settings: CallbackSettingsTable;
  callback_outbox: CallbackOutboxTable;
  cluster_leases: ClusterLeaseTable;
  learned_models: LearnedModelTable;
  scheduled_changes: ScheduledChangeTable;
  timed_labels: TimedLabelTable;
  promotions: PromotionTable;
  page_schedules: PageScheduleTable;
  page_schedule_tags: PageScheduleTagTable;
  problems: ProblemTable;
  tenant_fonts: TenantFontTable;
}

export interface TenantTable {
  id: Generated<number>;
  name: string;
  company: string;
  description: string;
  /** Username of the administrator created with the tenant. */
  account: string;
  appid: string;
  ck: string;
  sk: string;
  created_at: number;
}

export interface UserTable {
  id: Generated<number>;
  /** Null for platform operators. */
  tenant_id: number | null;
  /** Lower case, unique across the platform (login names no tenant). */
  username: string;
  name: string;
  password_hash: string;
  /** Comma-separated role names. */
  roles: string;
  introduction: string;
  avatar_key: string | null;
  created_at: number;
  last_login_at: number | null;
}

export interface UserStoreTable {
  tenant_id: number;
  user_id: number;
  store_id: number;
}

export interface StoreTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  code: string;
  address: string;
  contact: string;
  phone: string;
  remark: string;
  created_at: number;
}

export interface StoreParamsTable {
  store_id: number;
  tenant_id: number;
  /** JSON of the contract's StoreParams. */
  params: string;
  updated_at: number;
}

export interface SessionTable {
  /** sha256 hex of the token; the token itself is never stored. */
  id: string;
  user_id: number;
  tenant_id: number | null;
  store_id: number | null;
  created_at: number;
  expires_at: number;
  ip: string;
  /** The one role a derived session acts as (/user/changerole); null = all of the user's roles. */
  role: string | null;
}

export interface LoginAttemptTable {
  id: Generated<number>;
  /** Lower-cased username as typed, whether or not such a user exists. */
  username: string;
  ip: string;
  time: number;
}

export interface OpLogTable {
  id: Generated<number>;
  tenant_id: number | null;
  store_id: number | null;
  user_id: number | null;
  username: string;
  call: string;
  target: string;
  code: number;
  msg: string;
  ip: string;
  time: number;
}

export interface SysLogTable {
  id: Generated<number>;
  /** Null for platform-wide events (start, stop, crashes). */
  tenant_id: number | null;
  /** The store the event belongs to (a station's: its store); null for tenant-wide events. */
  store_id: number | null;
  /** The user the event is about (a sign-in's user); null for the rest. */
  user_id: number | null;
  level: 'info' | 'warn' | 'error';
  event: string;
  message: string;
  time: number;
}

export interface AvatarTable {
  /** Random hex, part of the public URL. */
  key: string;
  tenant_id: number | null;
  user_id: number;
  mime: string;
  bytes: Uint8Array;
  created_at: number;
}

export interface FirmwareTable {
  id: Generated<number>;
  kind: 'ap' | 'module' | 'tag';
  version: string;
  name: string;
  size: number;
  bytes: Uint8Array;
  created_at: number;
  /** SHA-256 of the whole file (the blob stations pull); '' for rows from before migration 014. */
  hash: Generated<string>;
  /** Station models it is for (station and module firmware), JSON array of strings. */
  models: Generated<string>;
  /** Tag hardware codes it is for (tag firmware), JSON array of strings. */
  hw: Generated<string>;
  /** SHA-256 of the payload after the header, as the header states it. */
  payload_hash: Generated<string>;
}

export type FirmwareTaskKind = 'apfw' | 'modulefw' | 'tagfw';
export type FirmwareTaskState = 'queued' | 'sent' | 'accepted' | 'installing' | 'done' | 'failed' | 'cancelled';

/** One upgrade slot per device and kind (migration 014), reused for each new upgrade of it. */
export interface FirmwareTaskTable {
  id: Generated<number>;
  tenant_id: number;
  store_id: number;
  /** 's:<stationId>' or 't:<tagId>'. */
  target_key: string;
  kind: FirmwareTaskKind;
  station_id: number | null;
  tag_id: number | null;
  firmware_id: number;
  version: string;
  hash: string;
  size: number;
  /** The version the device ran when the upgrade was asked for. */
  from_version: Generated<string>;
  state: FirmwareTaskState;
  /** Why it failed or was cancelled ('rolledBack', 'badBlob', 'timeout', 'stopped', …); '' for none. */
  code: Generated<string>;
  rev: Generated<number>;
  attempt: Generated<number>;
  /** Bytes of the blob the station reported having (up/progress). */
  done_bytes: Generated<number>;
  not_before: Generated<number>;
  /** When the current state gives up (ack, transfer, install). */
  deadline: number | null;
  created_by: number | null;
  created_at: number;
  sent_at: number | null;
  accepted_at: number | null;
  installing_at: number | null;
  finished_at: number | null;
  /**
   * A station upgrade accepted but no longer held at a restart whose hello announced results:
   * the version it came back on, which judges the `ok` result when it arrives. Null otherwise.
   */
  came_back_on: Generated<string | null>;
}

export interface TemplateTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  /** Tag model code, or null for a free width × height. The next four mirror the document. */
  model: string | null;
  width: number;
  height: number;
  colour_type: string;
  rotation: number;
  /** JSON of the @esl/labels TemplateDocument, as saved (migrated when read). */
  document: string;
  revision: number;
  created_at: number;
  updated_at: number;
}

/** The PNG a template's list row shows: drawn with sample data at the template's revision. */
export interface TemplateThumbTable {
  template_id: number;
  tenant_id: number;
  /** Random hex, part of the public URL; changes with every revision. */
  key: string;
  png: Uint8Array;
  revision: number;
}

/** A tenant's display name for a data key; standard keys have a row only once renamed. */
export interface DataKeyTable {
  tenant_id: number;
  name: string;
  t_field: string;
  position: number;
}

/**
 * Which template a tag shows (docs/TEMPLATES.md, "Which template a tag shows"): a per-tag override
 * (`tag_id` set), a product-field match, a default, or the label of tags without a product; for a
 * tag model and colour type, in one store or (`store_id` null) in every store of the tenant.
 */
export interface TemplateRuleTable {
  id: Generated<number>;
  tenant_id: number;
  /** null: every store of the tenant. */
  store_id: number | null;
  /** Set for a per-tag override (kind 'tag'), null otherwise. */
  tag_id: number | null;
  /** 'tag' | 'category' | 'default' | 'unbound' */
  kind: string;
  /** Tag model code and colour type the rule is for. */
  model: string;
  colour: string;
  /** Category rules: the product field (standard or custom key) and the value it must have; '' otherwise. */
  match_key: Generated<string>;
  match_value: Generated<string>;
  /** Category rules: lower is tried first. */
  priority: Generated<number>;
  template_id: number;
  created_at: number;
  updated_at: number;
}

export type TenantRow = Selectable<TenantTable>;
export type UserRow = Selectable<UserTable>;
export type StoreRow = Selectable<StoreTable>;
export type NewUser = Insertable<UserTable>;
export type NewStore = Insertable<StoreTable>;
export type TemplateRow = Selectable<TemplateTable>;
export type NewTemplate = Insertable<TemplateTable>;

/** A base station of a store. Runtime figures stay null/empty until the station reports them. */
export interface StationTable {
  id: Generated<number>;
  tenant_id: number;
  store_id: number;
  /** Upper case, unique per tenant. */
  sn: string;
  name: string;
  module: string;
  /** sha256 hex of the MQTT secret issued on add; the secret itself is shown once and not kept. */
  secret_hash: string;
  cpu: number | null;
  memory: number | null;
  disk: number | null;
  ip: string;
  mac: string;
  wifi_password: string;
  ntp_server: string;
  gateway: string;
  mask: string;
  server_address: string;
  server_port: number | null;
  upgrade_url: string;
  firmware: string;
  last_heartbeat: number | null;
  /** 0 or 1. */
  online: number;
  created_at: number;
  /** The station's current MQTT connection (from its status/hello); a Will naming another is stale. */
  conn_id: Generated<string>;
  /** Boot counter of the station's last hello. */
  boot: number | null;
  /** Hardware model and radio-module firmware the station reported. */
  station_model: Generated<string>;
  module_firmware: Generated<string>;
  uptime_s: number | null;
  queue_jobs: number | null;
  queue_bytes: number | null;
  radio_busy_pct: number | null;
  tags_heard: number | null;
  /** Station clock minus server clock at its last heartbeat, ms. */
  clock_skew_ms: number | null;
  /** When `online` last changed. */
  status_at: number | null;
  /** When the secret was last issued or renewed. */
  secret_at: number | null;
  /** The heartbeat interval the station keeps (protocol default until config says otherwise). */
  heartbeat_s: Generated<number>;
  /** Desired configuration as JSON (StationConfig without the WiFi password); '' = never set. */
  config: Generated<string>;
  /** Revision of `config` (0: never set) and the revision the station last reported applied. */
  cfg_rev: Generated<number>;
  cfg_applied_rev: number | null;
  /** Tag firmware transfers it runs at once (its last hello's `caps.fwConcurrent`); null: not said yet (1). */
  fw_concurrent: Generated<number | null>;
  /** 'station' (speaks the protocol itself) or 'oepl' (an OpenEPaperLink AP the server bridges). */
  kind: Generated<string>;
  /** For 'oepl': the AP's address, `http://HOST[:PORT]`; '' otherwise. */
  ap_url: Generated<string>;
  /** The known alarms of its last heartbeat, comma-separated; '' = none. */
  alarms: Generated<string>;
  /** A bridge's access point as its last heartbeat described it (JSON AccessPointState); '' = none. */
  ap_state: Generated<string>;
}

/** A tag model a station of the tenant taught (`up/models`, docs/PROTOCOL.md §5.13). */
export interface LearnedModelTable {
  id: Generated<number>;
  tenant_id: number;
  /** `vendor-type`, e.g. `oepl-35`: what tag reports name in `hw` and `tags.model` holds. */
  key: string;
  name: string;
  w: number;
  h: number;
  /** JSON array of the panel's colours in index order. */
  colours: string;
  /** Our colour type with exactly these colours; null: none (not drawable). */
  colour_type: string | null;
  rotate: number;
  /** 0 or 1. */
  led: number;
  button: number;
  nfc: number;
  source: string;
  station_id: number | null;
  created_at: number;
  updated_at: number;
}

/** A product of a store; prices in integer cents. */
export interface ProductTable {
  id: Generated<number>;
  tenant_id: number;
  store_id: number;
  /** Unique per store. */
  barcode: string;
  qrcode: string;
  name: string;
  price_cents: number;
  original_price_cents: number | null;
  /** The promotional price while a promotion runs, else null (migration 031, docs/PROMOTIONS.md). */
  promo_price_cents: number | null;
  unit: string;
  spec: string;
  origin: string;
  grade: string;
  /** JSON object of strings. */
  custom: string;
  price_changes: number;
  created_at: number;
  updated_at: number;
}

/** A price tag of a store, optionally showing one product of the same store. */
export interface TagTable {
  id: Generated<number>;
  tenant_id: number;
  store_id: number;
  /** Upper-case hex, unique per tenant. */
  hardware_id: string;
  /** Catalogue code ('01'–'44'). */
  model: string;
  colour: string;
  product_id: number | null;
  station_id: number | null;
  status: string;
  signal: number | null;
  battery: number | null;
  temperature: number | null;
  hardware_model: string;
  last_seen: number | null;
  created_at: number;
  /** The wake interval the tag last reported, s. */
  wake_s: number | null;
  /** The image version the tag last reported (16 hex digits), null: none. */
  shown_ver: string | null;
  /** The page of its label the tag last reported showing (docs/PAGES.md); 1: the first (migration 032). */
  shown_page: Generated<number>;
  /** What the tag should show (set by the delivery tasks); null: nothing pending. */
  desired_hash: string | null;
  /** Tag firmware version last reported. */
  fw: Generated<string>;
  /** Revision of the image slot that set `desired_hash`, and when. */
  desired_rev: number | null;
  desired_at: number | null;
  /** What the last render depended on (template revision, product row, model); null: never rendered. */
  render_key: string | null;
  /** The full hash of the image the tag last confirmed (a result), and when. */
  shown_hash: string | null;
  shown_at: number | null;
  /** When the tag is expected to check in next (from its reports). */
  next_wake_at: number | null;
  /**
   * What the desired image was rendered from: the product's price (cents) and the product (0: none,
   * the unbound label; null: not known, rendered before migration 028).
   */
  desired_price_cents: number | null;
  desired_product_id: number | null;
  /** What the confirmed image (`shown_hash`) was rendered from, and when it was rendered; null: not known. */
  shown_price_cents: number | null;
  shown_product_id: number | null;
  shown_priced_at: number | null;
  /** Since when the tag's screen disagrees with its product's price (null: agrees, or no product); docs/PROOF.md. */
  price_wrong_since: number | null;
  /** When the `price.wrong` callback went out for the current disagreement (null: not yet). */
  price_alerted_at: number | null;
  /** When its product was deleted from under it (migration 030, docs/PROBLEMS.md); cleared once bound again. */
  product_gone_at: Generated<number | null>;
  /** The station of another store of the tenant that last heard it, and when (migration 030). */
  foreign_station_id: Generated<number | null>;
  foreign_seen_at: Generated<number | null>;
  /** Where it is on the shop floor (migration 033, docs/SHELF.md); null while not placed. */
  aisle: Generated<string | null>;
  bay: Generated<string | null>;
  shelf: Generated<string | null>;
  /** Order along the shelf, from 1. */
  position: Generated<number | null>;
  /** The NFC content last queued for it, JSON `{type, value}` (migration 033, docs/SHELF.md); null: none. */
  nfc_value: Generated<string | null>;
}

/** A tenant's import field mapping (JSON array of { name, tField }). */
export interface FieldMapTable {
  tenant_id: number;
  fields: string;
  updated_at: number;
}

/** A recorded refresh, roll call or command-window request, kept for the delivery layer. */
export interface DeviceRequestTable {
  id: Generated<number>;
  tenant_id: number;
  store_id: number;
  kind: DeviceRequestKind;
  /** Null for a request on every tag of the store (or on several tags). */
  tag_id: number | null;
  station_id: number | null;
  /** 'recorded' (before delivery existed), 'running', 'done'. */
  status: DeviceRequestStatus;
  user_id: number | null;
  created_at: number;
  /** Tasks of the request, and how many ended well or not. */
  total: Generated<number>;
  done: Generated<number>;
  failed: Generated<number>;
  /** JSON of the operation's parameters (force, LED pattern, tag ids); '' when none. */
  params: Generated<string>;
  finished_at: number | null;
}

export type DeviceRequestKind =
  | 'tag.refresh'
  | 'tag.refreshAll'
  | 'tag.rollcall'
  | 'tag.rollcallAll'
  | 'tag.led'
  /** Label pages: a page switch (docs/PAGES.md). */
  | 'tag.page'
  | 'station.cmdwindow'
  /** The integration API's product upsert and delete (their tags' new labels). */
  | 'product.upsert'
  | 'product.delete';
export type DeviceRequestStatus = 'recorded' | 'running' | 'done';

/** States of a task slot (DELIVERY.md §5.2). */
export type TaskState = 'render' | 'queued' | 'sent' | 'accepted' | 'done' | 'failed' | 'cancelled';
export type TaskKind = 'image' | 'led' | 'ping' | 'rollcall' | 'page' | 'nfc';

/** One slot per (tenant, target, kind), reused for ever; its history goes to the tag log. */
export interface DeviceTaskTable {
  id: Generated<number>;
  tenant_id: number;
  store_id: number;
  /** 't:<tagId>' or 's:<stationId>'. */
  target_key: string;
  tag_id: number | null;
  station_id: number | null;
  kind: TaskKind;
  request_id: number | null;
  push_id: Generated<number | null>;
  prio: number;
  state: TaskState;
  code: string | null;
  detail: string | null;
  rev: Generated<number>;
  sent_rev: number | null;
  hash: string | null;
  size: number | null;
  /** 0 or 1. */
  force: Generated<number>;
  /** JSON: the LED pattern of led/ping tasks; '' otherwise. */
  payload: Generated<string>;
  attempt: Generated<number>;
  not_before: Generated<number>;
  wake_at: number | null;
  ttl_s: number | null;
  ack_deadline: number | null;
  done_deadline: number | null;
  lease_owner: string | null;
  lease_until: number | null;
  created_at: number;
  queued_at: number | null;
  rendered_at: number | null;
  sent_at: number | null;
  accepted_at: number | null;
  finished_at: number | null;
  /** A `lowBattery` refusal: the battery (%) the tag reported then (migration 020); read only while failed so. */
  hold_battery: number | null;
}

export type StationRow = Selectable<StationTable>;
export type ProductRow = Selectable<ProductTable>;
export type TagRow = Selectable<TagTable>;

/** A rendered label (DELIVERY.md §5.3): the bytes a station receives, by content hash. */
export interface TagImageTable {
  tenant_id: number;
  /** Content hash (SHA-256 hex, PROTOCOL.md §5.4); a tag's `ver` is its first 16 digits. */
  hash: string;
  /** `encodeTagImage` output. */
  bytes: Uint8Array;
  size: number;
  width: number;
  height: number;
  /** Colour type the image was quantised to. */
  colour: string;
  created_at: number;
  last_used_at: number;
}

/** How a tag's task revision ended (DELIVERY.md §5.2): one `tag_log` row each. */
export type TagLogResult = 'ok' | 'skipped' | 'failed' | 'cancelled' | 'replaced';

/** One finished (or superseded) task revision of a tag; append-only (migration 011). */
export interface TagLogTable {
  id: Generated<number>;
  tenant_id: number;
  store_id: number;
  /** The tag's row id then; the tag may since have been deleted (no reference). */
  tag_id: number;
  hardware_id: string;
  /** The user/API operation (`device_requests.id`) behind the task; null for automatic work. */
  request_id: number | null;
  /** The task's kind ('refresh', 'led', 'ping', …). */
  kind: string;
  rev: number;
  result: TagLogResult;
  /** Why it failed (or was skipped): 'timeout', 'nack', 'displayError', 'renderError', …; '' for none. */
  code: Generated<string>;
  /** The image's content hash (SHA-256 hex), null for work without one. */
  hash: string | null;
  /** Serial of the station that carried the last attempt; '' when none did. */
  station_sn: Generated<string>;
  attempts: Generated<number>;
  queued_at: number | null;
  sent_at: number | null;
  finished_at: number;
  /** Radio airtime the station reported, ms. */
  air_ms: number | null;
  /** Signal of the tag at the station, dBm. */
  rssi: number | null;
  /**
   * JSON of a row that is no task revision (null for those): a scheduled change that took effect,
   * kind 'schedule', `{change, changes, at, localAt, timeZone}` (migration 035).
   */
  detail: string | null;
}

/** Where a data push came from. */
export type PushSource = 'console' | 'import' | 'api' | 'schedule' | 'callback';

/** One data push (console edit, import, API batch, schedule) and what it caused (migration 011). */
export interface PushLogTable {
  id: Generated<number>;
  tenant_id: number;
  store_id: number;
  source: PushSource;
  user_id: number | null;
  products: Generated<number>;
  tags_affected: Generated<number>;
  rendered: Generated<number>;
  failed: Generated<number>;
  /** JSON array of the first exception messages. */
  exceptions: Generated<string>;
  /** Every exception added, kept or not. */
  exception_count: Generated<number>;
  started_at: number;
  /** Null while the push is open. */
  finished_at: number | null;
}

/** A nonce of an accepted integration call, kept for the timestamp window (migration 013). */
export interface OpenNonceTable {
  tenant_id: number;
  nonce: string;
  /** Unix ms the server accepted the call. */
  time: number;
}

/** A tenant's callback URL (migration 019); '' or no row: no callbacks. */
export interface CallbackSettingsTable {
  tenant_id: number;
  url: string;
  /** Minutes a tag may show a wrong price before the `price.wrong` callback (migration 028). */
  price_wrong_min: Generated<number>;
  updated_at: number;
}

export type CallbackState = 'pending' | 'sent' | 'failed' | 'dropped';

/** One callback event to send, in the durable outbox (migration 019). */
export interface CallbackOutboxTable {
  id: Generated<number>;
  tenant_id: number;
  store_id: number | null;
  event_id: string;
  type: string;
  /** Events of one key (`tag:<id>`, `request:<id>`, `test`) are sent in id order. */
  order_key: string;
  /** The JSON body sent. */
  payload: string;
  state: Generated<CallbackState>;
  attempts: Generated<number>;
  next_at: number;
  lease_owner: string | null;
  lease_until: number | null;
  created_at: number;
  finished_at: number | null;
  /** HTTP status of the last attempt (null: no answer). */
  last_status: number | null;
  last_error: Generated<string>;
  /** The first characters of the last answer's body. */
  excerpt: Generated<string>;
}

/** A named, time-limited lease held by one server process (cluster/repository.ts). */
export interface ClusterLeaseTable {
  name: string;
  owner: string;
  /** Unix ms; the lease is free from then on. */
  until: number;
  /** What the holder says about itself (a process lease: host, pid, broker). */
  info: string;
}

/** A product change that takes effect at a time (docs/SCHEDULE.md). */
/** A promotion of a store (docs/PROMOTIONS.md). */
export interface PromotionTable {
  id: Generated<number>;
  tenant_id: number;
  store_id: number;
  name: string;
  /** The promotion text a label shows (data key `promo`). */
  text: string;
  price_cents: number;
  /** JSON array of the barcodes it covers; empty: the products whose `match_key` is `match_value`. */
  barcodes: string;
  match_key: string;
  match_value: string;
  /** Unix ms (the wall-clock times in the store's time zone, resolved). */
  start_at: number;
  end_at: number;
  /** pending → started → ended; cancelled at any time before it ended. */
  state: string;
  batch: string;
  created_by: number | null;
  created_at: number;
  updated_at: number;
}

/** A page schedule (migration 034, docs/PAGES.md "Page schedules"). */
export interface PageScheduleTable {
  id: Generated<number>;
  tenant_id: number;
  store_id: number;
  template_id: number;
  name: string;
  /** The page shown in each window (2–8). */
  page: number;
  /** ISO weekdays the windows start on, comma-separated ("1,2,3,4,5"). */
  weekdays: string;
  /** `HH:mm` on the store's clock; `to_time` not after `from_time`: the window ends the next day. */
  from_time: string;
  to_time: string;
  enabled: number;
  /** The window whose switch was sent ahead (Unix ms), null: none yet. */
  armed_start: number | null;
  armed_end: number | null;
  /** The window whose end was checked (its tags still on the page sent back to page 1). */
  ended_start: number | null;
  created_by: number | null;
  created_at: number;
  updated_at: number;
}

/** The switch of one tag for a schedule's window, and the picture (`shown_hash`) it was sent for. */
export interface PageScheduleTagTable {
  schedule_id: number;
  tag_id: number;
  start_at: number;
  hash: string;
}

export interface ScheduledChangeTable {
  id: Generated<number>;
  tenant_id: number;
  store_id: number;
  product_id: number;
  /** JSON of the product fields it sets (the contract's ScheduleChanges). */
  changes: string;
  /** When it takes effect, Unix ms (the wall-clock time in the store's time zone, resolved). */
  effective_at: number;
  /** pending → applied | cancelled. */
  status: string;
  note: string;
  /** Changes added together (one call, a chain-wide change) share it. */
  batch: string;
  created_by: number | null;
  created_at: number;
  updated_at: number;
  applied_at: number | null;
  /** 0 until the planner has planned the change as it is (every add, edit, cancel, apply: 0). */
  planned: Generated<number>;
}

/**
 * Each tag's next timed image (docs/SCHEDULE.md, docs/PROTOCOL.md §5.14): the label of its
 * product as it will be at `show_at`, delivered ahead to a station that takes `timed` jobs.
 */
export interface TimedLabelTable {
  id: Generated<number>;
  tenant_id: number;
  store_id: number;
  tag_id: number;
  /** Goes up whenever what the tag should hold changes; the job's rev. */
  rev: number;
  /** plan → queued → sent → held; idle (nothing pending), failed. */
  state: string;
  /** What the plan was made from (next time, changes, product, render key); another one → plan again. */
  plan_key: string;
  show_at: number | null;
  hash: string | null;
  size: number | null;
  station_id: number | null;
  sent_rev: number | null;
  attempt: number;
  /** sent: the ack/result deadline; queued: not before. */
  due_at: number;
  updated_at: number;
  /** The tag's render key once the planned changes have taken effect (migration 041); null: unknown. */
  render_key: string | null;
}

/** A problem the last sweep found (migration 030, docs/PROBLEMS.md): its start was told, its end will be. */
export interface ProblemTable {
  tenant_id: number;
  store_id: number;
  kind: string;
  /** `tag:<id>` or `station:<id>`. */
  subject: string;
  detail: Generated<string>;
  started_at: number;
}

/** A tenant's brand font: one family at one weight (migration 029, docs/LABELS.md). */
export interface TenantFontTable {
  id: Generated<number>;
  tenant_id: number;
  /** As the tenant named it; templates' elements name it. */
  family: string;
  /** The family in lower case: one file per family and weight (families match without case). */
  family_key: string;
  /** 400 or 700. */
  weight: number;
  /** 'ttf' (only TrueType is accepted so far). */
  format: string;
  /** The uploaded file's name. */
  name: string;
  size: number;
  /** SHA-256 hex of the bytes. */
  hash: string;
  bytes: Uint8Array;
  created_at: number;
}
