import { TAG_MODELS } from '@esl/contract';

/** Catalogue models as select options: name and pixel size, searchable by either. */
export const MODEL_OPTIONS = TAG_MODELS.map((m) => ({
  value: m.code,
  label: `${m.name} · ${m.w}×${m.h}`,
}));
