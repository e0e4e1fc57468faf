import { type LearnedTagModel, TAG_MODELS, type TagModel } from '@esl/contract';

/** A catalogue model as a select option: '1C · 4.20T (400×300)'. */
export function modelLabel(model: TagModel): string {
  return `${model.code} · ${model.name} (${model.w}×${model.h})`;
}

export const MODEL_OPTIONS = TAG_MODELS.map((m) => ({ value: m.code, label: modelLabel(m) }));

/**
 * The tag list's model filter: the catalogue, and when the tenant's stations taught models
 * (docs/OEPL.md), those too by their key — a tag of a learned model holds the key as its model.
 */
export function filterModelOptions(
  learned: readonly LearnedTagModel[],
  groups: { catalogue: string; learned: string },
) {
  if (learned.length === 0) return MODEL_OPTIONS;
  return [
    { label: groups.catalogue, options: MODEL_OPTIONS },
    { label: groups.learned, options: learned.map((m) => ({ value: m.key, label: `${m.name} (${m.w}×${m.h})` })) },
  ];
}
