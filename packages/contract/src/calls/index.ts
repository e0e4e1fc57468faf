import type { z } from 'zod';
import type { Language, Messages } from '../errors';
import { ASSIGNMENT_CALL_NAMES, ASSIGNMENT_CALLS } from './assignments';
import { CALLBACK_CALL_NAMES, CALLBACK_CALLS } from './callbacks';
import type { CallDef } from './define';
import { FIRMWARE_CALL_NAMES, FIRMWARE_CALLS } from './firmware';
import { LOG_CALL_NAMES, LOG_CALLS } from './logs';
import { OPEN_CALL_NAMES, OPEN_CALLS, type OpenCallName, openPath } from './open';
import { PAGE_SCHEDULE_CALL_NAMES, PAGE_SCHEDULE_CALLS } from './pageSchedules';
import { PROBLEM_CALL_NAMES, PROBLEM_CALLS } from './problems';
import { PRODUCT_CALL_NAMES, PRODUCT_CALLS } from './products';
import { PROMOTION_CALL_NAMES, PROMOTION_CALLS } from './promotions';
import { PROOF_CALL_NAMES, PROOF_CALLS } from './proof';
import { SCHEDULE_CALL_NAMES, SCHEDULE_CALLS } from './schedule';
import { SESSION_CALL_NAMES, SESSION_CALLS } from './session';
import { STATION_CALL_NAMES, STATION_CALLS } from './stations';
import { STORE_CALL_NAMES, STORE_CALLS } from './stores';
import { SUMMARY_CALL_NAMES, SUMMARY_CALLS } from './summary';
import { TAG_CALL_NAMES, TAG_CALLS } from './tags';
import { TEMPLATE_CALL_NAMES, TEMPLATE_CALLS } from './templates';
import { TENANT_SETTINGS_CALL_NAMES, TENANT_SETTINGS_CALLS } from './tenantSettings';
import { TENANTS_CALL_NAMES, TENANTS_CALLS } from './tenants';
import { USER_CALL_NAMES, USER_CALLS } from './users';

export type { Access, CallDef, FileAnswer, RefusalWithData, TypedCallDef } from './define';
export { OPEN_CALL_NAMES, OPEN_CALLS, type OpenCallDef, type OpenCallName, type OpenCalls, openPath } from './open';
export { XLSX_TYPE } from './products';

/**
 * Every call of SPEC.md §7 (paths under /api), plus the few the console needs whose path SPEC.md
 * leaves open. Each area declares its calls in its own file of this folder with `call()`
 * (define.ts); a new area adds its map here.
 */
export const CALLS = {
  ...SESSION_CALLS,
  ...USER_CALLS,
  ...TENANT_SETTINGS_CALLS,
  ...STORE_CALLS,
  ...LOG_CALLS,
  ...TENANTS_CALLS,
  ...SUMMARY_CALLS,
  ...TEMPLATE_CALLS,
  ...ASSIGNMENT_CALLS,
  ...STATION_CALLS,
  ...TAG_CALLS,
  ...PAGE_SCHEDULE_CALLS,
  ...PRODUCT_CALLS,
  ...SCHEDULE_CALLS,
  ...PROMOTION_CALLS,
  ...PROOF_CALLS,
  ...PROBLEM_CALLS,
  ...FIRMWARE_CALLS,
  ...CALLBACK_CALLS,
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

/** Each call's name in both languages (declared next to the calls of each area). */
export const CALL_NAMES: Record<CallName, Messages> = {
  ...SESSION_CALL_NAMES,
  ...USER_CALL_NAMES,
  ...TENANT_SETTINGS_CALL_NAMES,
  ...STORE_CALL_NAMES,
  ...LOG_CALL_NAMES,
  ...TENANTS_CALL_NAMES,
  ...SUMMARY_CALL_NAMES,
  ...TEMPLATE_CALL_NAMES,
  ...ASSIGNMENT_CALL_NAMES,
  ...STATION_CALL_NAMES,
  ...TAG_CALL_NAMES,
  ...PAGE_SCHEDULE_CALL_NAMES,
  ...PRODUCT_CALL_NAMES,
  ...SCHEDULE_CALL_NAMES,
  ...PROMOTION_CALL_NAMES,
  ...PROOF_CALL_NAMES,
  ...PROBLEM_CALL_NAMES,
  ...FIRMWARE_CALL_NAMES,
  ...CALLBACK_CALL_NAMES,
};

// Integration calls are logged under their full path (/open/v1/...), which no console path starts with.
const NAME_OF_PATH = new Map<string, Messages>([
  ...(Object.keys(CALLS) as CallName[]).map((name): [string, Messages] => [CALLS[name].path, CALL_NAMES[name]]),
  ...(Object.keys(OPEN_CALLS) as OpenCallName[]).map((name): [string, Messages] => [
    openPath(name),
    OPEN_CALL_NAMES[name],
  ]),
]);

/** The operation's name for a call path (as the operation log stores it); the path itself when unknown. */
export function operationName(path: string, lang: Language): string {
  return NAME_OF_PATH.get(path)?.[lang] ?? path;
}
