import { COLOUR_SETS, type LabelSource, type LearnedTagModel, TagColourType, type TagLabel } from '@esl/contract';
import { panelOf } from '../models/service';

/** What the fit check needs of a template: its panel size and colour type. */
export interface TemplateShape {
  width: number;
  height: number;
  colourType: string;
}

/** What the choice needs of a tag. */
export interface LabelTag {
  id: number;
  tenantId: number;
  storeId: number;
  /** Catalogue code (or a learned model's key) and colour type. */
  model: string;
  colour: string;
  productId: number | null;
  /** A promotion covers its product now (docs/PROMOTIONS.md): rule field `promotion` is "1". */
  promotion?: boolean;
}

/** A rule with the shape and name of its template, as the repository reads it. */
export interface Rule {
  id: number;
  storeId: number | null;
  tagId: number | null;
  kind: string;
  model: string;
  colour: string;
  matchKey: string;
  matchValue: string;
  priority: number;
  templateId: number;
  templateName: string;
  template: TemplateShape;
}

export type FitProblem = 'templateSize' | 'templateColours';

/** No learned models: a tag of a learned model fits nothing. */
const NONE: ReadonlyMap<string, LearnedTagModel> = new Map();

/**
 * Whether a template can be shown by a tag of a model and colour type: the same panel size, and
 * every ink of the template's colour set on the panel (a black/white template fits a
 * black/white/red tag; a black/white/red one does not fit a black/white/yellow tag). Delivery
 * renders such a document with the tag's colour type, which holds every ink it uses. A learned
 * model (of `learned`, the tag's tenant's) gives its size; one with no colour type we can draw
 * fits no template.
 */
export function fitProblem(
  template: TemplateShape,
  model: string,
  colour: string,
  learned: ReadonlyMap<string, LearnedTagModel> = NONE,
): FitProblem | null {
  const tagModel = panelOf(model, learned);
  if (!tagModel || template.width !== tagModel.w || template.height !== tagModel.h) return 'templateSize';
  if (tagModel.colours.length === 0) return 'templateColours';
  const own = TagColourType.safeParse(template.colourType);
  const panel = TagColourType.safeParse(colour);
  if (!own.success || !panel.success) return 'templateColours';
  const inks: readonly string[] = COLOUR_SETS[panel.data];
  return COLOUR_SETS[own.data].every((ink) => inks.includes(ink)) ? null : 'templateColours';
}

/** Product values compare trimmed and in any letter case. */
export const matchValue = (value: string) => value.trim().toLowerCase();

const byPriority = (a: Rule, b: Rule) => a.priority - b.priority || a.id - b.id;

/**
 * The template a tag shows and the rule that chose it (docs/TEMPLATES.md, "Which template a tag
 * shows"). `rules` are those of the tag's tenant and store (and its own override); `fields` are
 * the bound product's values by field key (null for a tag without a product). A matching rule
 * whose template no longer fits the tag is passed over and listed in `skipped`.
 */
export function pickTemplate(
  tag: LabelTag,
  fields: Readonly<Record<string, string>> | null,
  rules: readonly Rule[],
  learned: ReadonlyMap<string, LearnedTagModel> = NONE,
): TagLabel {
  const skipped: number[] = [];
  const mine = rules.filter((r) => r.model === tag.model && r.colour === tag.colour);
  const ofScope = (kind: string, store: boolean) =>
    mine.filter((r) => r.kind === kind && r.tagId === null && (store ? r.storeId === tag.storeId : r.storeId === null));
  const steps: [LabelSource, Rule[]][] = [['tag', rules.filter((r) => r.kind === 'tag' && r.tagId === tag.id)]];
  if (fields === null) {
    steps.push(['storeUnbound', ofScope('unbound', true)], ['tenantUnbound', ofScope('unbound', false)]);
  } else {
    const matches = (r: Rule) => matchValue(fields[r.matchKey] ?? '') === matchValue(r.matchValue);
    steps.push(
      ['storeCategory', ofScope('category', true).filter(matches).sort(byPriority)],
      ['tenantCategory', ofScope('category', false).filter(matches).sort(byPriority)],
      ['storeDefault', ofScope('default', true)],
      ['tenantDefault', ofScope('default', false)],
    );
  }
  for (const [source, candidates] of steps) {
    for (const rule of candidates) {
      if (fitProblem(rule.template, tag.model, tag.colour, learned) !== null) {
        skipped.push(rule.id);
        continue;
      }
      return { templateId: rule.templateId, templateName: rule.templateName, source, ruleId: rule.id, skipped };
    }
  }
  return { templateId: null, templateName: '', source: 'none', ruleId: null, skipped };
}
