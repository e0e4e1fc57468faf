import { TAG_MODELS, type TagModel } from '@esl/contract';

/** A catalogue model as a select option: '1C · 4.20T (400×300)'. */
export function modelLabel(model: TagModel): string {
  return `${model.code} · ${model.name} (${model.w}×${model.h})`;
}

export const MODEL_OPTIONS = TAG_MODELS.map((m) => ({ value: m.code, label: modelLabel(m) }));
