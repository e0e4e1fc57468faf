import { type BodyOf, findTagModel, type TagColourType, type TagModel } from '@esl/contract';

/** How a new template's size is given: a model from the catalogue, or width × length in pixels. */
export type SizeMode = 'model' | 'custom';

export interface AddTemplateValues {
  name: string;
  sizeMode: SizeMode;
  model?: string;
  width?: number;
  length?: number;
  colourType?: TagColourType;
  rotation?: 0 | 90 | 180 | 270;
}

/** Colour types on offer: those the chosen model is made in, or all of them for a free size. */
export function colourTypesFor(model: TagModel | undefined, all: readonly TagColourType[]): readonly TagColourType[] {
  return model ? model.colours : all;
}

export function addTemplateBody(values: AddTemplateValues): BodyOf<'addTemplate'> {
  const base = { name: values.name.trim(), colourType: values.colourType, rotation: values.rotation ?? 0 };
  if (values.sizeMode === 'model') {
    const model = values.model ? findTagModel(values.model) : undefined;
    // A colour the model is not made in is left out, so the server picks the model's usual one.
    const colourType =
      model && base.colourType && model.colours.includes(base.colourType) ? base.colourType : undefined;
    return { ...base, model: values.model, colourType };
  }
  return { ...base, width: values.width, length: values.length };
}
