import { describe, expect, it } from 'vitest';
import { fitProblem, type LabelTag, pickTemplate, type Rule } from './assign';

// Model 05 is 2.13L, 250 × 122, made in black/white/red and black/white/yellow.
const small = { width: 250, height: 122 };
const tag: LabelTag = { id: 7, tenantId: 1, storeId: 10, model: '05', colour: 'bwr', productId: 3 };

let nextId = 1;
function rule(fields: Partial<Rule> & Pick<Rule, 'kind'>): Rule {
  const id = fields.id ?? nextId++;
  return {
    id,
    storeId: null,
    tagId: null,
    model: '05',
    colour: 'bwr',
    matchKey: '',
    matchValue: '',
    priority: 0,
    templateId: 100 + id,
    templateName: `T${id}`,
    template: { ...small, colourType: 'bwr' },
    ...fields,
  };
}

describe('fitProblem', () => {
  it('needs the model’s panel size', () => {
    expect(fitProblem({ ...small, colourType: 'bwr' }, '05', 'bwr')).toBeNull();
    expect(fitProblem({ width: 122, height: 250, colourType: 'bwr' }, '05', 'bwr')).toBe('templateSize');
    expect(fitProblem({ width: 296, height: 152, colourType: 'bwr' }, '05', 'bwr')).toBe('templateSize');
    expect(fitProblem({ ...small, colourType: 'bwr' }, 'ZZ', 'bwr')).toBe('templateSize');
  });

  it('needs every ink of the template on the panel', () => {
    expect(fitProblem({ ...small, colourType: 'bw' }, '05', 'bwr')).toBeNull();
    expect(fitProblem({ ...small, colourType: 'bwr' }, '05', 'bwy')).toBe('templateColours');
    expect(fitProblem({ ...small, colourType: 'bwy' }, '08', 'bwry')).toBeNull();
    expect(fitProblem({ ...small, colourType: 'bwry' }, '05', 'bwr')).toBe('templateColours');
    expect(fitProblem({ ...small, colourType: 'bwr' }, '06', 'bw')).toBe('templateColours');
  });
});

describe('pickTemplate', () => {
  const tenantDefault = rule({ kind: 'default' });
  const storeDefault = rule({ kind: 'default', storeId: 10 });
  const tenantCategory = rule({ kind: 'category', matchKey: 'category', matchValue: 'Fruit' });
  const storeCategory = rule({ kind: 'category', storeId: 10, matchKey: 'grade', matchValue: 'A' });
  const override = rule({ kind: 'tag', storeId: 10, tagId: 7 });
  const tenantUnbound = rule({ kind: 'unbound' });
  const storeUnbound = rule({ kind: 'unbound', storeId: 10 });
  const all = [tenantDefault, storeDefault, tenantCategory, storeCategory, override, tenantUnbound, storeUnbound];
  const fields = { category: ' fruit ', grade: 'a' };

  it('takes the most specific rule: tag, store category, tenant category, store default, tenant default', () => {
    const order: [Rule, string][] = [
      [override, 'tag'],
      [storeCategory, 'storeCategory'],
      [tenantCategory, 'tenantCategory'],
      [storeDefault, 'storeDefault'],
      [tenantDefault, 'tenantDefault'],
    ];
    let left = all;
    for (const [expected, source] of order) {
      expect(pickTemplate(tag, fields, left)).toEqual({
        templateId: expected.templateId,
        templateName: expected.templateName,
        source,
        ruleId: expected.id,
        skipped: [],
      });
      left = left.filter((r) => r !== expected);
    }
    expect(pickTemplate(tag, fields, left)).toMatchObject({ templateId: null, source: 'none', ruleId: null });
  });

  it('gives a tag without a product the unbound label, the store’s before the tenant’s', () => {
    expect(pickTemplate({ ...tag, id: 8 }, null, all)).toMatchObject({
      source: 'storeUnbound',
      ruleId: storeUnbound.id,
    });
    const noStore = all.filter((r) => r !== storeUnbound);
    expect(pickTemplate({ ...tag, id: 8 }, null, noStore)).toMatchObject({ source: 'tenantUnbound' });
    // The tag's own template holds whether or not it shows a product (a fixed sign).
    expect(pickTemplate(tag, null, all)).toMatchObject({ source: 'tag' });
    expect(pickTemplate({ ...tag, id: 8 }, null, [tenantDefault, storeDefault])).toMatchObject({ source: 'none' });
  });

  it('matches category values trimmed and in any case, by priority then age', () => {
    const low = rule({ kind: 'category', storeId: 10, matchKey: 'unit', matchValue: 'KG', priority: 5 });
    const high = rule({ kind: 'category', storeId: 10, matchKey: 'grade', matchValue: 'a', priority: 1 });
    const rules = [tenantDefault, low, high];
    expect(pickTemplate(tag, { unit: 'kg', grade: 'A' }, rules)).toMatchObject({ ruleId: high.id });
    expect(pickTemplate(tag, { unit: 'kg', grade: 'B' }, rules)).toMatchObject({ ruleId: low.id });
    expect(pickTemplate(tag, { unit: 'g', grade: 'B' }, rules)).toMatchObject({ ruleId: tenantDefault.id });
    expect(pickTemplate(tag, {}, rules)).toMatchObject({ ruleId: tenantDefault.id });
  });

  it('ignores rules of other models, colours, stores and tags', () => {
    const others = [
      rule({ kind: 'default', storeId: 11 }),
      rule({ kind: 'default', storeId: 10, model: '0A' }),
      rule({ kind: 'default', storeId: 10, colour: 'bwy' }),
      rule({ kind: 'tag', storeId: 10, tagId: 8 }),
    ];
    expect(pickTemplate(tag, fields, [...others, tenantDefault])).toMatchObject({ ruleId: tenantDefault.id });
  });

  it('passes over a rule whose template no longer fits, and says so', () => {
    const resized = rule({ kind: 'default', storeId: 10, template: { width: 296, height: 152, colourType: 'bwr' } });
    expect(pickTemplate(tag, fields, [tenantDefault, resized])).toMatchObject({
      source: 'tenantDefault',
      ruleId: tenantDefault.id,
      skipped: [resized.id],
    });
  });
});
