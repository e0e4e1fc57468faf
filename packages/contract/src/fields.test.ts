import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { CALLS, OPEN_CALLS } from './calls/index';
import { LANGUAGES } from './errors';
import { FIELD_LABELS, fieldLabel } from './fields';

/** Every object key in a schema, through wrappers, lists, unions and records. */
function keysOf(schema: z.ZodType, into: Set<string>, depth = 0): Set<string> {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  if (depth > 12) return into;
  const walk = (s: unknown) => keysOf(s as z.ZodType, into, depth + 1);
  switch (def.type) {
    case 'object':
      for (const [k, v] of Object.entries(def.shape as Record<string, unknown>)) {
        into.add(k);
        walk(v);
      }
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      walk(def.innerType);
      break;
    case 'pipe':
      walk(def.in);
      walk(def.out);
      break;
    case 'array':
      walk(def.element);
      break;
    case 'union':
      for (const o of def.options as unknown[]) walk(o);
      break;
    case 'intersection':
      walk(def.left);
      walk(def.right);
      break;
    case 'record':
      walk(def.valueType);
      break;
  }
  return into;
}

describe('field names in refusals', () => {
  it('name every key of every call’s body in both languages', () => {
    const keys = new Set<string>();
    for (const def of [...Object.values(CALLS), ...Object.values(OPEN_CALLS)]) keysOf(def.body, keys);
    expect(keys.size).toBeGreaterThan(100);
    expect([...keys].filter((k) => !Object.hasOwn(FIELD_LABELS, k)).sort()).toEqual([]);
    for (const [k, label] of Object.entries(FIELD_LABELS)) {
      for (const lang of LANGUAGES) expect(label[lang].trim(), `${k} ${lang}`).not.toBe('');
    }
  });

  it('reads a dotted path as the last named part and the item’s place in a list', () => {
    expect(fieldLabel('sn', 'en')).toBe('Serial number');
    expect(fieldLabel('sn', 'zh-CN')).toBe('序列号');
    expect(fieldLabel('params.quietStart', 'en')).toBe('Quiet hours start');
    expect(fieldLabel('products.3.price', 'en')).toBe('Price (item 4)');
    expect(fieldLabel('products.3.price', 'zh-CN')).toBe('价格（第 4 项）');
    // Unknown keys are kept rather than lost; inherited names are not labels.
    expect(fieldLabel('custom.shelfLife', 'en')).toBe('shelfLife');
    expect(fieldLabel('constructor', 'en')).toBe('constructor');
  });
});
