import type { Language, Messages } from '../errors';
import { ROLE_LABELS, Role } from '../roles';

/**
 * What an operation-log row acted on, described in the reader's language with the object's name.
 * Rows keep it as JSON in their `target` text; `describeTarget` words it for each reader.
 * Placeholders: {name} one object's name, {names} a few names, {count} how many, {extra} a
 * second name (the product of a binding, the account of a tenant).
 */
export const TARGET_KINDS = {
  store: { 'zh-CN': '门店 {name}', en: 'store {name}' },
  stores: { 'zh-CN': '{count} 个门店：{names}', en: '{count} stores: {names}' },
  user: { 'zh-CN': '用户 {name}', en: 'user {name}' },
  users: { 'zh-CN': '{count} 个用户：{names}', en: '{count} users: {names}' },
  station: { 'zh-CN': '基站 {name}', en: 'base station {name}' },
  stations: { 'zh-CN': '{count} 个基站：{names}', en: '{count} base stations: {names}' },
  stationCmd: { 'zh-CN': '基站 {name} 命令：{extra}', en: 'base station {name} command: {extra}' },
  template: { 'zh-CN': '模板 {name}', en: 'template {name}' },
  templates: { 'zh-CN': '{count} 个模板：{names}', en: '{count} templates: {names}' },
  product: { 'zh-CN': '商品 {name}（{extra}）', en: 'product {name} ({extra})' },
  products: { 'zh-CN': '{count} 个商品：{names}', en: '{count} products: {names}' },
  tenant: { 'zh-CN': '商户 {name}', en: 'tenant {name}' },
  tenants: { 'zh-CN': '{count} 个商户：{names}', en: '{count} tenants: {names}' },
  tenantAdmin: { 'zh-CN': '商户 {name} 的管理员 {extra}', en: 'administrator {extra} of tenant {name}' },
  ownTenant: { 'zh-CN': '本商户信息', en: "the tenant's information" },
  tags: { 'zh-CN': '{count} 个价签：{names}', en: '{count} tags: {names}' },
  allTags: { 'zh-CN': '当前门店的全部价签', en: 'every tag of the current store' },
  binding: { 'zh-CN': '价签 {name} → 商品 {extra}', en: 'tag {name} → product {extra}' },
  tagPlace: { 'zh-CN': '价签 {name} → 位置 {extra}', en: 'tag {name} → place {extra}' },
  session: { 'zh-CN': '{name} 的会话', en: 'session of {name}' },
  role: { 'zh-CN': '角色 {name}', en: 'role {name}' },
  allRoles: { 'zh-CN': '全部角色', en: 'all roles' },
  avatar: { 'zh-CN': '{name} 的头像', en: 'avatar of {name}' },
  fonts: { 'zh-CN': '字体', en: 'fonts' },
  font: { 'zh-CN': '字体 {name}', en: 'font {name}' },
  storeRule: { 'zh-CN': '门店模板规则 {name} → 模板 {extra}', en: 'store template rule {name} → template {extra}' },
  tenantRule: { 'zh-CN': '商户模板规则 {name} → 模板 {extra}', en: 'tenant template rule {name} → template {extra}' },
  templateRules: { 'zh-CN': '{count} 条模板规则', en: '{count} template rules' },
  tagTemplate: { 'zh-CN': '{count} 个价签：{names} → 模板 {extra}', en: '{count} tags: {names} → template {extra}' },
  tagTemplateCleared: {
    'zh-CN': '{count} 个价签：{names} 恢复按规则选模板',
    en: '{count} tags: {names} back to the rules',
  },
  pageSchedule: { 'zh-CN': '页面计划 {name}（模板 {extra}）', en: 'page schedule {name} (template {extra})' },
  pageSchedules: { 'zh-CN': '{count} 个页面计划：{names}', en: '{count} page schedules: {names}' },
  dataKey: { 'zh-CN': '数据键 {name}', en: 'data key {name}' },
  dataKeys: { 'zh-CN': '{count} 个数据键', en: '{count} data keys' },
  fieldMapping: { 'zh-CN': '导入字段映射', en: 'the import field mapping' },
  file: { 'zh-CN': '文件 {name}', en: 'file {name}' },
  fileRows: { 'zh-CN': '文件 {name}：{count} 行', en: 'file {name}: {count} rows' },
} as const satisfies Record<string, Messages>;

export type TargetKind = keyof typeof TARGET_KINDS;

/** A many-object kind that turned out to hold one object reads as that one object. */
const ONE_OF: Partial<Record<TargetKind, Messages>> = {
  stores: { 'zh-CN': '门店 {name}', en: 'store {name}' },
  users: { 'zh-CN': '用户 {name}', en: 'user {name}' },
  stations: { 'zh-CN': '基站 {name}', en: 'base station {name}' },
  templates: { 'zh-CN': '模板 {name}', en: 'template {name}' },
  products: { 'zh-CN': '商品 {name}', en: 'product {name}' },
  tenants: { 'zh-CN': '商户 {name}', en: 'tenant {name}' },
  tags: { 'zh-CN': '价签 {name}', en: 'tag {name}' },
  pageSchedules: { 'zh-CN': '页面计划 {name}', en: 'page schedule {name}' },
};

export interface OpTarget {
  kind: TargetKind;
  name?: string;
  /** A few names of a many-object target (the first ones; `count` says how many in all). */
  names?: readonly string[];
  count?: number;
  extra?: string;
}

/** Names kept per row: enough to recognise, short enough for the column. */
export const TARGET_NAMES_KEPT = 5;
const NAME_CHARS = 40;
/** The stored text's bound (op_logs.target). */
export const TARGET_CHARS = 400;

const short = (s: string) => (s.length > NAME_CHARS ? `${s.slice(0, NAME_CHARS - 1)}…` : s);

/** The text an operation-log row stores: compact JSON, names shortened, at most TARGET_CHARS. */
export function encodeTarget(target: OpTarget): string {
  const names = target.names?.slice(0, TARGET_NAMES_KEPT).map(short);
  const stored = {
    k: target.kind,
    ...(target.name !== undefined && { n: short(target.name) }),
    ...(names && { ns: names }),
    ...(target.count !== undefined && { c: target.count }),
    ...(target.extra !== undefined && { x: short(target.extra) }),
  };
  return JSON.stringify(stored).slice(0, TARGET_CHARS);
}

function decode(stored: string): OpTarget | null {
  if (!stored.startsWith('{')) return null;
  try {
    const v = JSON.parse(stored) as Record<string, unknown>;
    if (typeof v.k !== 'string' || !(v.k in TARGET_KINDS)) return null;
    return {
      kind: v.k as TargetKind,
      name: typeof v.n === 'string' ? v.n : undefined,
      names: Array.isArray(v.ns) ? v.ns.map(String) : undefined,
      count: typeof v.c === 'number' ? v.c : undefined,
      extra: typeof v.x === 'string' ? v.x : undefined,
    };
  } catch {
    return null;
  }
}

/** A stored target in the reader's words; text that is no encoded target (older rows) as it is. */
export function describeTarget(stored: string, lang: Language): string {
  const target = decode(stored);
  if (!target) return stored;
  let name = target.name ?? '';
  if (target.kind === 'role') {
    const role = Role.safeParse(name);
    if (role.success) name = ROLE_LABELS[role.data][lang];
  }
  const count = target.count ?? target.names?.length ?? 0;
  const shown = target.names ?? [];
  const one = count === 1 && shown.length === 1 ? ONE_OF[target.kind] : undefined;
  if (one) return one[lang].replace('{name}', shown[0] ?? '');
  const names =
    shown.join(lang === 'zh-CN' ? '、' : ', ') + (count > shown.length ? (lang === 'zh-CN' ? ' 等' : ' …') : '');
  return TARGET_KINDS[target.kind][lang]
    .replace('{name}', name)
    .replace('{names}', names)
    .replace('{count}', String(count))
    .replace('{extra}', target.extra ?? '');
}
