import type { TagStatus } from '@esl/contract';
import type { FilterOf } from '../../components/list/useListQuery';

/** A tag's hardware ID as the contract takes it: 8 to 16 hex characters. */
const HARDWARE_ID = /^[0-9A-Fa-f]{8,16}$/;

export interface ParsedIds {
  /** Valid IDs, upper case, each once, in the order typed or scanned. */
  ids: string[];
  /** Entries that are not hardware IDs, as typed. */
  invalid: string[];
}

/** Reads one ID or many, split by spaces, commas, semicolons or lines (a scanner adds one per line). */
export function parseHardwareIds(text: string | undefined): ParsedIds {
  const ids: string[] = [];
  const invalid: string[] = [];
  const seen = new Set<string>();
  for (const entry of (text ?? '').split(/[\s,;]+/)) {
    if (!entry) continue;
    if (!HARDWARE_ID.test(entry)) {
      invalid.push(entry);
      continue;
    }
    const id = entry.toUpperCase();
    if (seen.has(id)) continue;
    seen.add(id);
    ids.push(id);
  }
  return { ids, invalid };
}

export function isHardwareId(text: string | undefined): boolean {
  return HARDWARE_ID.test((text ?? '').trim());
}

export type BoundChoice = 'bound' | 'unbound';

/** What the filter bar holds. */
export interface TagFilterValues {
  status?: TagStatus;
  model?: string;
  bound?: BoundChoice;
  text?: string;
  /** A roll call's absentees: tags not heard since then (Unix ms); set from its result, not the form. */
  notSeenSince?: number;
}

/** The list call's filters: unset choices and blank text are left out. */
export function tagFilter(values: TagFilterValues): FilterOf<'tagList'> {
  const text = values.text?.trim();
  return {
    status: values.status || undefined,
    model: values.model || undefined,
    bound: values.bound === undefined ? undefined : values.bound === 'bound',
    text: text ? text : undefined,
    notSeenSince: values.notSeenSince,
  };
}
