import type { TagDelivery } from './api';

/** Where a freshly bound tag's label stands, as the Bind screen says it. */
export type LabelState = 'updating' | 'updated' | 'current' | 'failed';

/**
 * Reads the tag's label (image) task after the binding was answered. The binding raised the
 * task's revision before it answered, so whatever the task says now is about the label of the
 * new binding: still on its way ('updating'); 'done' with code `skipped` — the new label came
 * out as the picture the tag already shows, so nothing was sent ('current'); 'done' otherwise —
 * the tag confirmed it ('updated'); 'failed' — it did not take it. A task another change
 * replaced ('cancelled') is followed by a newer revision: still 'updating'.
 */
export function labelState(delivery: TagDelivery): LabelState {
  const image = delivery.tasks.find((task) => task.kind === 'image');
  if (!image) return 'updating';
  if (image.state === 'done') return image.code === 'skipped' ? 'current' : 'updated';
  if (image.state === 'failed') return 'failed';
  return 'updating';
}
