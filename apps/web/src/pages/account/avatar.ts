import { AVATAR_MAX_BYTES } from '@esl/contract';

/** Why a file cannot be an avatar (SPEC.md §5), or null when it can. Checked before uploading. */
export function avatarProblem(file: { type: string; size: number }): 'type' | 'size' | null {
  if (file.type !== 'image/jpeg' && file.type !== 'image/png') return 'type';
  if (file.size > AVATAR_MAX_BYTES) return 'size';
  return null;
}
