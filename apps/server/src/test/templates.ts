// Test fixtures for the template module (imported by *.test.ts only).
import type { Template } from '@esl/contract';
import { type ColourType, TEMPLATE_VERSION, type TemplateDocumentInput } from '@esl/labels';
import { priceLabel } from '@esl/labels/testing';
import type { TestApp } from './harness';

/** A shelf label of a 2.66" black/white/red tag: name, price in red, original price, barcode. */
export function priceDoc(overrides: Partial<TemplateDocumentInput> = {}): TemplateDocumentInput {
  return {
    ...priceLabel({ model: '0A', w: 296, h: 152, colourType: 'bwr', original: true, barcode: true }),
    ...overrides,
  };
}

/** One text element bound to `name`, large, on a free-size label of the colour type. */
export function nameDoc(colourType: ColourType = 'bw'): TemplateDocumentInput {
  return {
    version: TEMPLATE_VERSION,
    size: { model: null, w: 200, h: 60 },
    colourType,
    elements: [
      {
        type: 'text',
        id: 'name',
        x: 0,
        y: 0,
        w: 200,
        h: 60,
        align: 'center',
        font: { size: 40 },
        fit: 'ellipsis',
        binding: { key: 'name' },
      },
    ],
  };
}

/** Adds a template through the API and answers its row. */
export async function addTemplate(
  t: TestApp,
  token: string,
  fields: { name?: string; model?: string; width?: number; length?: number; colourType?: string } = {},
): Promise<Template> {
  const res = await t.call<Template>(
    '/mgr/templ/addtemple',
    {
      ...fields,
      name: fields.name ?? `T ${Math.random().toString(36).slice(2, 8)}`,
      model: fields.model ?? (fields.width === undefined ? '0A' : undefined),
    },
    { token },
  );
  if (res.code !== 0) throw new Error(`addtemple answered ${res.code} ${res.msg}`);
  return res.data;
}
