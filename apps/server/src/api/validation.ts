import { VALIDATION_DETAILS } from '@esl/contract';
import type { z } from 'zod';
import { type DetailKey, invalidField } from './errors';

/**
 * Turns the first zod issue into a VALIDATION error naming the field. The contract's own issue
 * messages are keys of VALIDATION_DETAILS; zod's built-in issue kinds are mapped onto those keys.
 */
export function validationError(error: z.ZodError, body: unknown) {
  const issue = error.issues[0];
  if (!issue) return invalidField('body', 'invalid');
  const field = issue.path.length ? issue.path.map(String).join('.') : 'body';
  return invalidField(field, detailOf(issue, body));
}

/** The raw value at a path of the body (before coercion, which turns a missing number into NaN). */
function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let v = body;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function detailOf(issue: z.core.$ZodIssue, body: unknown): DetailKey {
  if (issue.message in VALIDATION_DETAILS) return issue.message;
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.path.length === 0) return 'body';
      const raw = valueAt(body, issue.path);
      return raw === undefined || raw === null || raw === '' ? 'required' : 'invalid';
    }
    case 'too_small':
      return issue.origin === 'string' && Number(issue.minimum) <= 1 ? 'required' : 'tooSmall';
    case 'too_big':
      return issue.origin === 'string' ? 'tooLong' : 'tooBig';
    default:
      return 'invalid';
  }
}

/**
 * The dotted path of the first string holding U+0000 in a parsed body, or '' when none does.
 * PostgreSQL cannot store the character in text at all and SQLite would keep it, so both refuse
 * it here, the same way, before any handler runs.
 */
export function nulField(value: unknown, path = ''): string {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'body' : '';
  if (value === null || typeof value !== 'object') return '';
  for (const [key, child] of Object.entries(value)) {
    const name = key.replaceAll('\u0000', '\u2400'); // a key may hold one too: named, not carried
    const found = nulField(child, path ? `${path}.${name}` : name);
    if (found) return found;
  }
  return '';
}
