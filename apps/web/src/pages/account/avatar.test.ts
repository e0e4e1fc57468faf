import { AVATAR_MAX_BYTES } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { avatarProblem } from './avatar';

describe('avatar check', () => {
  it('accepts JPG and PNG up to 2 MB', () => {
    expect(avatarProblem({ type: 'image/jpeg', size: 1000 })).toBeNull();
    expect(avatarProblem({ type: 'image/png', size: AVATAR_MAX_BYTES })).toBeNull();
  });

  it('refuses other types', () => {
    expect(avatarProblem({ type: 'image/gif', size: 10 })).toBe('type');
    expect(avatarProblem({ type: 'image/webp', size: 10 })).toBe('type');
    expect(avatarProblem({ type: '', size: 10 })).toBe('type');
  });

  it('refuses files over 2 MB', () => {
    expect(AVATAR_MAX_BYTES).toBe(2 * 1024 * 1024);
    expect(avatarProblem({ type: 'image/png', size: AVATAR_MAX_BYTES + 1 })).toBe('size');
  });
});
