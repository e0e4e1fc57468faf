import {
  DEFAULT_FIELD_TITLES,
  FieldMap,
  fromSpreadsheet,
  PRODUCT_FIELD_LABELS,
  PRODUCT_FIELDS,
  type ProductField,
} from '@esl/contract';
import { z } from 'zod';

const isStandard = (name: string): name is ProductField => (PRODUCT_FIELDS as readonly string[]).includes(name);

/**
 * The mapping in effect: every standard field in PRODUCT_FIELDS order (its saved title, else the
 * default one), then the saved custom fields in their saved order.
 */
export function effectiveFieldMap(saved: string | undefined): FieldMap[] {
  const entries = parseSaved(saved);
  const byName = new Map(entries.map((e) => [e.name, e.tField]));
  const standard = PRODUCT_FIELDS.map((name) => ({ name, tField: byName.get(name) ?? DEFAULT_FIELD_TITLES[name] }));
  return [...standard, ...entries.filter((e) => !isStandard(e.name))];
}

function parseSaved(saved: string | undefined): FieldMap[] {
  if (!saved) return [];
  const parsed = z.array(FieldMap).safeParse(JSON.parse(saved));
  return parsed.success ? parsed.data : [];
}

const norm = (s: string) => s.trim().toLowerCase();

/** Which product field each column of a title row fills, and which required fields have no column. */
export interface ColumnPlan {
  /** Column index → field name (standard field or custom key). */
  columns: Map<number, string>;
  missing: FieldMap[];
}

/**
 * Matches a title row to the mapping. A column matches a field by the mapping's title; a standard
 * field also matches a column titled with its own name or its label in either language, so files
 * written by hand in English work without setting a mapping. The first matching column wins.
 */
export function planColumns(titles: readonly string[], map: readonly FieldMap[], required: readonly string[]) {
  const wanted = new Map<string, string>();
  for (const { name, tField } of map) if (!wanted.has(norm(tField))) wanted.set(norm(tField), name);
  for (const name of PRODUCT_FIELDS) {
    for (const alias of [name, PRODUCT_FIELD_LABELS[name].en, PRODUCT_FIELD_LABELS[name]['zh-CN']]) {
      if (!wanted.has(norm(alias))) wanted.set(norm(alias), name);
    }
  }
  const columns = new Map<number, string>();
  const taken = new Set<string>();
  titles.forEach((title, index) => {
    // A title the export (or the console's template file) marked as text matches without its mark.
    const name = wanted.get(norm(fromSpreadsheet(title)));
    if (name !== undefined && !taken.has(name)) {
      columns.set(index, name);
      taken.add(name);
    }
  });
  const missing = map.filter((m) => required.includes(m.name) && !taken.has(m.name));
  return { columns, missing } satisfies ColumnPlan;
}
