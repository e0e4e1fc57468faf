import { COLOUR_SETS, findTagModel, type TagColourType } from '@esl/contract';

/** What the fit check needs of a template (a row of /mgr/templ/list). */
export interface TemplateShape {
  width: number;
  length: number;
  colourType: TagColourType;
}

export type Misfit = 'size' | 'colours';

/**
 * Why a template cannot be shown by a tag of a model and colour type, or null when it can: the
 * server's own rule (the same panel size; every ink of the template on the panel), asked first
 * so the console says why before it asks the server.
 */
export function misfit(template: TemplateShape, tag: { model: string; colour: TagColourType }): Misfit | null {
  const model = findTagModel(tag.model);
  if (!model || model.w !== template.width || model.h !== template.length) return 'size';
  const inks: readonly string[] = COLOUR_SETS[tag.colour];
  return COLOUR_SETS[template.colourType].every((ink) => inks.includes(ink)) ? null : 'colours';
}

/** The first reason a template does not fit every one of the tags (size before colours). */
export function misfitOfAll(
  template: TemplateShape,
  tags: readonly { model: string; colour: TagColourType }[],
): Misfit | null {
  const found = tags.map((tag) => misfit(template, tag));
  return found.includes('size') ? 'size' : found.includes('colours') ? 'colours' : null;
}
