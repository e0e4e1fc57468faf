import { AddStationBody, AddStoreBody, StationConfigFields, Store, StoreParams } from '@esl/contract';
import { Form } from 'antd';
import type { RuleObject } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FormFields } from './FormFields';
import { contractFields, type FieldSpec, fieldRules, gridRuns, literal, maxLengthOf, rangeOf, say } from './spec';

// A translator that shows which key it was asked for.
const t = ((key: string) => `<${key}>`) as unknown as TFunction;

/** Runs a rule's validator: the message it refuses with, or null when it passes. */
async function refusal(rule: unknown, value: unknown): Promise<string | null> {
  const { validator } = rule as RuleObject;
  if (!validator) throw new Error('not a validator rule');
  try {
    await validator({} as never, value, () => undefined);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('fieldRules', () => {
  it('puts required first, then the pattern, then no line break, then the field’s own rules', () => {
    const own = { type: 'url' as const, message: 'own' };
    const rules = fieldRules(
      {
        kind: 'text',
        name: 'code',
        label: 'field.code',
        max: 32,
        required: 'rule.code',
        pattern: [/^[a-z]*$/, 'rule.codeChars'],
        lineBreak: true,
        rules: [own],
      },
      t,
    );
    expect(rules[0]).toEqual({ required: true, whitespace: true, message: '<rule.code>' });
    expect(rules[1]).toEqual({ pattern: /^[a-z]*$/, message: '<rule.codeChars>' });
    expect(rules[3]).toBe(own);
    expect(rules).toHaveLength(4);
  });

  it('counts spaces alone as empty for text unless told not to, and never for numbers', () => {
    const text = (whitespace?: false): FieldSpec => ({
      kind: 'text',
      name: 'a',
      label: 'a',
      max: 4,
      required: true,
      whitespace,
    });
    expect(fieldRules(text(), t)).toEqual([{ required: true, whitespace: true, message: '<rule.required>' }]);
    expect(fieldRules(text(false), t)).toEqual([{ required: true, message: '<rule.required>' }]);
    const number: FieldSpec = { kind: 'number', name: 'n', label: 'n', min: 1, max: 9, required: 'rule.n' };
    expect(fieldRules(number, t)).toEqual([{ required: true, message: '<rule.n>' }]);
  });

  it('gives no rules to a field that asks for none', () => {
    expect(fieldRules({ kind: 'text', name: 'a', label: 'a', max: 4 }, t)).toEqual([]);
  });

  it('refuses line breaks with the namespace’s words', async () => {
    const [rule] = fieldRules({ kind: 'notes', name: 'n', label: 'n', max: 500, rows: [2, 4], lineBreak: true }, t);
    expect(await refusal(rule, 'one\ntwo')).toBe('<rule.lineBreak>');
    expect(await refusal(rule, 'one two')).toBeNull();
  });

  it('checks a trimmed pattern on the trimmed value and lets an empty one pass', async () => {
    const [rule] = fieldRules(
      { kind: 'text', name: 'p', label: 'p', max: 13, trimmedPattern: [/^\d+(\.\d{1,2})?$/, 'rule.price'] },
      t,
    );
    expect(await refusal(rule, ' 12.50 ')).toBeNull();
    expect(await refusal(rule, '   ')).toBeNull();
    expect(await refusal(rule, '12.345')).toBe('<rule.price>');
  });

  it('builds the field’s own rules with the translator when given as a function', () => {
    const rules = fieldRules({ kind: 'switch', name: 's', label: 's', rules: (tr) => [{ message: tr('x') }] }, t);
    expect(rules).toEqual([{ message: '<x>' }]);
  });
});

describe('gridRuns', () => {
  it('gathers neighbours with a span into one row and leaves the others full width', () => {
    const runs = gridRuns([{ span: 14 }, { span: 10 }, {}, { span: 12 }, { span: 12 }, {}]);
    expect(runs.map((r) => (r.grid ? r.fields.length : 'full'))).toEqual([2, 'full', 2, 'full']);
  });
});

describe('limits from the contract', () => {
  it('reads a number’s range through .default() and .nullable()', () => {
    expect(rangeOf(StoreParams.shape.heartbeatSeconds)).toEqual({ min: 10, max: 3600 });
    expect(rangeOf(StationConfigFields.shape.serverPort)).toEqual({ min: 1, max: 65_535 });
  });

  it('reads a text’s longest value, also before a .transform()', () => {
    expect(maxLengthOf(AddStoreBody.shape.name)).toBe(64);
    expect(maxLengthOf(AddStationBody.shape.sn)).toBe(32);
    expect(maxLengthOf(StoreParams.shape.currency)).toBe(4);
  });

  it('refuses a schema that sets no limit, rather than guess one', () => {
    expect(() => maxLengthOf(Store.shape.name)).toThrow(/no maximum length/);
    expect(() => rangeOf(Store.shape.id)).toThrow(/no minimum and maximum/);
  });

  it('declares fields whose limits are the schema’s of the same name', () => {
    const f = contractFields(AddStoreBody.shape);
    expect(f.notes('remark', { label: 'field.remark', rows: [2, 4] })).toEqual({
      kind: 'notes',
      name: 'remark',
      max: 500,
      label: 'field.remark',
      rows: [2, 4],
    });
    expect(contractFields(StoreParams.shape).number('tagLostHours', { label: 'l' })).toMatchObject({
      min: 1,
      max: 720,
    });
  });
});

describe('say', () => {
  it('translates keys and shows literals as written', () => {
    expect(say(t, 'field.name')).toBe('<field.name>');
    expect(say(t, literal('22:00'))).toBe('22:00');
  });
});

describe('FormFields', () => {
  const html = (fields: FieldSpec[]) =>
    renderToStaticMarkup(createElement(Form, { name: 'f' }, createElement(FormFields, { fields, t })));

  it('renders each kind with its label, limits and words', () => {
    const out = html([
      { kind: 'text', name: 'name', label: 'field.name', max: 64, placeholder: literal('e.g. Main St') },
      { kind: 'number', name: 'secs', label: 'field.secs', min: 5, max: 600, suffix: 'seconds' },
      { kind: 'notes', name: 'remark', label: 'field.remark', max: 500, rows: [2, 4] },
    ]);
    expect(out).toContain('<label for="f_name"');
    expect(out).toContain('&lt;field.name&gt;');
    expect(out).toMatch(/id="f_name"[^>]*maxLength="64"|maxLength="64"[^>]*id="f_name"/i);
    expect(out).toContain('placeholder="e.g. Main St"');
    expect(out).toMatch(/aria-valuemin="5"/);
    expect(out).toMatch(/aria-valuemax="600"/);
    expect(out).toContain('&lt;seconds&gt;');
    expect(out).toMatch(/<textarea[^>]*id="f_remark"/);
  });

  it('sets fields with a span side by side in one row, others outside it', () => {
    const out = html([
      { kind: 'text', name: 'a', label: 'a', max: 4, span: 14 },
      { kind: 'text', name: 'b', label: 'b', max: 4, span: 10 },
      { kind: 'text', name: 'c', label: 'c', max: 4 },
    ]);
    expect(out.match(/class="ant-row ant-row-stretch"|ant-row /g)?.length ?? 0).toBeGreaterThan(0);
    expect(out).toContain('ant-col-14');
    expect(out).toContain('ant-col-10');
    // The full-width field stands after the row, in no column.
    const c = out.indexOf('id="f_c"');
    expect(c).toBeGreaterThan(out.lastIndexOf('ant-col-10'));
    expect(out.slice(out.lastIndexOf('ant-col', c), c)).not.toMatch(/ant-col-\d+/);
  });

  it('marks a required field as required', () => {
    const out = html([{ kind: 'text', name: 'a', label: 'a', max: 4, required: true }]);
    expect(out).toContain('ant-form-item-required');
  });
});
