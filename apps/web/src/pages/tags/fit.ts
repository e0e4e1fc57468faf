import { COLOUR_SETS, findTagModel, type TagColourType } from '@esl/contract';

/** What the fit check needs of a template (a row of /mgr/templ/list). */
export interface TemplateShape {
  width: number;
  length: number;
  colourType: TagColourType;
}

export type Misfit = 'size' | 'colours';

/** What the fit check needs of a tag: its model (and the learned model it is, if any) and colour type. */
export interface FitTag {
  model: string;
  colour: TagColourType;
  learnedModel?: { w: number; h: number; colourType: TagColourType | null } | null;
}

/**
 * Why a template cannot be shown by a tag of a model and colour type, or null when it can: the
 * server's own rule (the same panel size; every ink of the template on the panel), asked first
 * so the console says why before it asks the server.
 */
export function misfit(template: TemplateShape, tag: FitTag): Misfit | null {
  // A learned model (docs/PROTOCOL.md §5.13) gives its own size; one with no colour type fits nothing.
  const model = findTagModel(tag.model) ?? tag.learnedModel ?? undefined;
  if (!model || model.w !== template.width || model.h !== template.length) return 'size';
  if (tag.learnedModel && tag.learnedModel.colourType === null) return 'colours';
  const inks: readonly string[] = COLOUR_SETS[tag.colour];
  return COLOUR_SETS[template.colourType].every((ink) => inks.includes(ink)) ? null : 'colours';
}

/** The first reason a template does not fit every one of the tags (size before colours). */
export function misfitOfAll(template: TemplateShape, tags: readonly FitTag[]): Misfit | null {
  const found = tags.map((tag) => misfit(template, tag));
  return found.includes('size') ? 'size' : found.includes('colours') ? 'colours' : null;
}
