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
  templates: TemplateTable;
  template_thumbs: TemplateThumbTable;
  data_keys: DataKeyTable;
  template_rules: TemplateRuleTable;
  stations: StationTable;
  products: ProductTable;
  tags: TagTable;
  field_maps: FieldMapTable;
  device_requests: DeviceRequestTable;
  open_nonces: OpenNonceTable;
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
  /** What the tag should show (set by the delivery tasks); null: nothing pending. */
  desired_hash: string | null;
  /** Tag firmware version last reported. */
  fw: Generated<string>;
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
  kind: 'tag.refresh' | 'tag.rollcall' | 'station.cmdwindow';
  /** Null for a request on every tag of the store. */
  tag_id: number | null;
  station_id: number | null;
  status: 'recorded';
  user_id: number | null;
  created_at: number;
}

export type StationRow = Selectable<StationTable>;
export type ProductRow = Selectable<ProductTable>;
export type TagRow = Selectable<TagTable>;

/** A nonce of an accepted integration call, kept for the timestamp window (migration 013). */
export interface OpenNonceTable {
  tenant_id: number;
  nonce: string;
  /** Unix ms the server accepted the call. */
  time: number;
}
