import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import type { ReactElement, ReactNode } from 'react';
import { isValidElement } from 'react';

/**
 * Words a form shows: an i18n key of the form's namespace (`'field.name'`, or `'ns:key'` with a
 * translator of several namespaces), a value shown as it is (`literal('22:00')`: a sample or a
 * unit, the same in every language), or an element.
 */
export type Words = Text | ReactElement;
/** Words that must come out as a string (a placeholder): a key or a literal. */
export type Text = string | { literal: string };

/** A sample value or a unit, shown as written in every language. */
export function literal(text: string): { literal: string } {
  return { literal: text };
}

/** The words as shown: a key translated, a literal as written, an element as it is. */
export function say(t: TFunction, words: Words): ReactNode {
  return isValidElement(words) ? words : text(t, words as Text);
}

/** The words as a string (for an input's placeholder). */
export function text(t: TFunction, words: Text): string {
  return typeof words === 'string' ? t(words) : words.literal;
}

interface Item<N extends string> {
  /** The form field (its input's id is `<form name>_<name>`). */
  name: N;
  label: Words;
  /** Width in the form's 24-column grid; a field without one stands full width, outside the grid. */
  span?: number;
  /** It must be filled in: the key of what to tell when it is not (`true`: `rule.required`). */
  required?: string | true;
  tooltip?: Words;
  extra?: Words;
  /** Further rules, after the required one and the field's own (pattern, no line break). */
  rules?: Rule[] | ((t: TFunction) => Rule[]);
}

/** One line of text. */
export interface TextField<N extends string> extends Item<N> {
  kind: 'text';
  max: number;
  /** The whole value must match; the key says what to tell when it does not. */
  pattern?: readonly [RegExp, string];
  /** The value, spaces around it left out, must match (as the contract trims before it checks). */
  trimmedPattern?: readonly [RegExp, string];
  /** Refuses line breaks (`rule.lineBreak`). */
  lineBreak?: boolean;
  /**
   * Spaces alone count as empty for `required` (the default). `false` lets them pass it, where
   * the pattern tells them apart or the contract trims them to an allowed empty value.
   */
  whitespace?: false;
  placeholder?: Text;
  autoComplete?: 'off';
  autoFocus?: boolean;
  disabled?: boolean;
  inputMode?: 'decimal';
  allowClear?: boolean;
}

/** Free text over a few lines, with its count of characters. */
export interface NotesField<N extends string> extends Item<N> {
  kind: 'notes';
  max: number;
  /** Lines it shows at the least and at the most before it scrolls. */
  rows: readonly [number, number];
  lineBreak?: boolean;
}

/** A whole number between limits (see `rangeOf` to take them from the contract). */
export interface NumberField<N extends string> extends Item<N> {
  kind: 'number';
  min: number;
  max: number;
  suffix?: Words;
  /** Pixels; the default fills the column. */
  width?: number;
}

export interface SwitchField<N extends string> extends Item<N> {
  kind: 'switch';
}

/** Any other input (a select, a radio group, a password with its own label): given whole. */
export interface CustomField<N extends string> extends Item<N> {
  kind: 'custom';
  control: ReactNode;
  dependencies?: string[];
  /** Shows the required mark though the rules decide (a field required only sometimes). */
  markRequired?: boolean;
}

export type FieldSpec<N extends string = string> =
  | TextField<N>
  | NotesField<N>
  | NumberField<N>
  | SwitchField<N>
  | CustomField<N>;

/** The field names of a form's values. */
export type FieldsOf<V> = FieldSpec<Extract<keyof V, string>>[];

/** A user name (a login): letters, digits and `_ . @ -` (the contract's pattern; empty is told by `required`). */
export const USERNAME = /^[A-Za-z0-9_.@-]*$/;

/** A form rule refusing line breaks (no field of the contract takes one). */
export function noLineBreak(message: string): Rule {
  return {
    validator: (_, value: unknown) =>
      typeof value === 'string' && /[\r\n]/.test(value) ? Promise.reject(new Error(message)) : Promise.resolve(),
  };
}

function trimmedMatch(pattern: RegExp, message: string, t: TFunction): Rule {
  return {
    validator: (_, v: string | undefined) =>
      !v?.trim() || pattern.test(v.trim()) ? Promise.resolve() : Promise.reject(new Error(t(message))),
  };
}

/** The field's rules, in the order their messages show: required, pattern, line break, the rest. */
export function fieldRules(spec: FieldSpec, t: TFunction): Rule[] {
  const rules: Rule[] = [];
  if (spec.required) {
    const message = t(spec.required === true ? 'rule.required' : spec.required);
    const spaces = spec.kind === 'notes' || (spec.kind === 'text' && spec.whitespace !== false);
    rules.push(spaces ? { required: true, whitespace: true, message } : { required: true, message });
  }
  if (spec.kind === 'text' && spec.pattern) rules.push({ pattern: spec.pattern[0], message: t(spec.pattern[1]) });
  if (spec.kind === 'text' && spec.trimmedPattern) rules.push(trimmedMatch(...spec.trimmedPattern, t));
  if ((spec.kind === 'text' || spec.kind === 'notes') && spec.lineBreak) rules.push(noLineBreak(t('rule.lineBreak')));
  if (spec.rules) rules.push(...(typeof spec.rules === 'function' ? spec.rules(t) : spec.rules));
  return rules;
}

/** The fields in the order given, those with a span gathered into runs that share one grid row. */
export type Run<F> = { grid: false; field: F } | { grid: true; fields: F[] };

export function gridRuns<F extends { span?: number }>(fields: readonly F[]): Run<F>[] {
  const runs: Run<F>[] = [];
  for (const field of fields) {
    const last = runs.at(-1);
    if (field.span === undefined) runs.push({ grid: false, field });
    else if (last?.grid) last.fields.push(field);
    else runs.push({ grid: true, fields: [field] });
  }
  return runs;
}

/** What `rangeOf` and `maxLengthOf` read of a contract schema (zod's public fields). */
interface Schema {
  unwrap?: () => unknown;
  /** A pipe's (`.transform()`) input schema. */
  in?: unknown;
  minValue?: number | null;
  maxValue?: number | null;
  maxLength?: number | null;
}

/** Through `.default()`, `.nullable()`, `.optional()` and `.transform()` to the schema the value meets first. */
function inner(schema: unknown): Schema {
  let s = schema as Schema;
  for (;;) {
    if (s.minValue !== undefined || s.maxLength !== undefined) return s;
    if (typeof s.unwrap === 'function') s = s.unwrap() as Schema;
    else if (typeof s.in === 'object' && s.in !== null) s = s.in as Schema;
    else return s;
  }
}

/** A whole-number field's limits as the contract's schema sets them, so the two cannot drift. */
export function rangeOf(schema: unknown): { min: number; max: number } {
  const { minValue: min, maxValue: max } = inner(schema);
  // `.int()` alone bounds a number to the safe integers: that is no limit a form should show.
  const set = (v: number | null | undefined): v is number =>
    typeof v === 'number' && Math.abs(v) < Number.MAX_SAFE_INTEGER;
  if (!set(min) || !set(max)) throw new Error('rangeOf: the schema sets no minimum and maximum');
  return { min, max };
}

/** A text field's longest value as the contract's schema sets it. */
export function maxLengthOf(schema: unknown): number {
  const s = inner(schema);
  if (typeof s.maxLength !== 'number') throw new Error('maxLengthOf: the schema sets no maximum length');
  return s.maxLength;
}

type Declared<F> = Omit<F, 'kind' | 'name' | 'min' | 'max'>;

/**
 * Field declarations over a contract schema's fields (`AddStoreBody.shape`): each takes its
 * limits (longest text, smallest and largest number) from the schema of the same name.
 */
export function contractFields<S extends Record<string, unknown>>(shape: S) {
  return {
    text: <N extends Extract<keyof S, string>>(name: N, spec: Declared<TextField<N>>): TextField<N> => ({
      kind: 'text',
      name,
      max: maxLengthOf(shape[name]),
      ...spec,
    }),
    notes: <N extends Extract<keyof S, string>>(name: N, spec: Declared<NotesField<N>>): NotesField<N> => ({
      kind: 'notes',
      name,
      max: maxLengthOf(shape[name]),
      ...spec,
    }),
    number: <N extends Extract<keyof S, string>>(name: N, spec: Declared<NumberField<N>>): NumberField<N> => ({
      kind: 'number',
      name,
      ...rangeOf(shape[name]),
      ...spec,
    }),
  };
}
