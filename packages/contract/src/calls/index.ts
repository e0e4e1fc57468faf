import type { z } from 'zod';
import type { CallDef } from './define';
import { LOG_CALLS } from './logs';
import { PRODUCT_CALLS } from './products';
import { SESSION_CALLS } from './session';
import { STATION_CALLS } from './stations';
import { STORE_CALLS } from './stores';
import { SUMMARY_CALLS } from './summary';
import { TAG_CALLS } from './tags';
import { TEMPLATE_CALLS } from './templates';
import { TENANT_CALLS } from './tenant';
import { TENANTS_CALLS } from './tenants';
import { UPGRADE_CALLS } from './upgrades';
import { USER_CALLS } from './users';

export type { Access, CallDef, FileAnswer, TypedCallDef } from './define';
export { XLSX_TYPE } from './products';

/**
 * Every call of SPEC.md §7 (paths under /api), plus the few the console needs whose path SPEC.md
 * leaves open. Each area declares its calls in its own file of this folder with `call()`
 * (define.ts); a new area adds its map here.
 */
export const CALLS = {
  ...SESSION_CALLS,
  ...USER_CALLS,
  ...TENANT_CALLS,
  ...STORE_CALLS,
  ...LOG_CALLS,
  ...TENANTS_CALLS,
  ...SUMMARY_CALLS,
  ...TEMPLATE_CALLS,
  ...STATION_CALLS,
  ...TAG_CALLS,
  ...PRODUCT_CALLS,
  ...UPGRADE_CALLS,
} as const;

export type Calls = typeof CALLS;
export type CallName = keyof Calls;
export type BodyOf<N extends CallName> = z.input<Calls[N]['body']>;
export type ParsedBodyOf<N extends CallName> = z.output<Calls[N]['body']>;
export type DataOf<N extends CallName> = z.output<Calls[N]['data']>;
/** Names of the calls that answer a page of rows plus `count`. */
export type ListCallName = { [N in CallName]: Calls[N]['list'] extends true ? N : never }[CallName];
/** Names of the calls that answer a file when they succeed. */
export type FileCallName = { [N in CallName]: Calls[N]['file'] extends undefined ? never : N }[CallName];

export const API_BASE = '/api';
export const ALL_CALLS: readonly CallDef[] = Object.values(CALLS);
