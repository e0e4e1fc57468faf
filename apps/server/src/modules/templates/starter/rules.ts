import { findTagModel } from '@esl/contract';
import { fitProblem } from '../assign';
import { STARTER_TEMPLATES, type StarterTemplate } from './documents';

/** A tenant-wide rule of the starter set: which starter template (by name) a model and colour type shows. */
export interface StarterRule {
  kind: 'default' | 'unbound';
  model: string;
  colour: string;
  template: string;
}

const shapeOf = (t: StarterTemplate) => ({
  width: t.doc.size.w,
  height: t.doc.size.h,
  colourType: t.doc.colourType ?? 'bwr',
});

/**
 * The tenant-wide rules that go with the starter templates, for tags of `models` (catalogue codes):
 * for every colour type of each, a default label — the template drawn for that model and colour
 * type, else one drawn for that colour type that fits, else any label that fits (a three-colour
 * label on a four-colour panel) — and the "no product" label of its size for tags without a
 * product; and a default rule for each starter template's own model and colour type, so every
 * template is in use. A model of a size no starter template has gets no rule.
 */
export function starterRules(models: Iterable<string>): StarterRule[] {
  const out = new Map<string, StarterRule>();
  const add = (rule: StarterRule) => out.set(`${rule.kind}/${rule.model}/${rule.colour}`, rule);
  const labels = STARTER_TEMPLATES.filter((t) => !t.unbound);
  for (const t of labels) {
    const { model } = t.doc.size;
    if (model) add({ kind: 'default', model, colour: t.doc.colourType ?? 'bwr', template: t.name });
  }
  for (const code of new Set(models)) {
    const model = findTagModel(code);
    if (!model) continue;
    for (const colour of model.colours) {
      const fits = (t: StarterTemplate) => fitProblem(shapeOf(t), model.code, colour) === null;
      const fitting = labels.filter(fits);
      const label =
        fitting.find((t) => t.doc.size.model === model.code && t.doc.colourType === colour) ??
        fitting.find((t) => t.doc.colourType === colour) ??
        fitting[0];
      const blank = STARTER_TEMPLATES.find((t) => t.unbound && fits(t));
      if (label) add({ kind: 'default', model: model.code, colour, template: label.name });
      if (blank) add({ kind: 'unbound', model: model.code, colour, template: blank.name });
    }
  }
  return [...out.values()];
}
