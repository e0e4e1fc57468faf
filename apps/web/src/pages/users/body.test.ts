import { AddUserBody, AlterUserBody } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { addUserBody, alterUserBody, needsStores } from './body';

const digest = (p: string) =>
  p
    ? p
        .repeat(64)
        .slice(0, 64)
        .replace(/[^0-9a-f]/g, 'a')
    : '';

describe('user dialog bodies', () => {
  it('digests both passwords of a new user and trims its text', () => {
    const body = addUserBody(
      { username: ' ann ', name: ' Ann ', password: 'b', rpassword: 'b', roles: ['clerk'], shops: [2] },
      digest,
    );
    expect(body).toEqual({
      username: 'ann',
      name: 'Ann',
      password: 'b'.repeat(64),
      rpassword: 'b'.repeat(64),
      roles: ['clerk'],
      shops: [2],
      introduction: '',
    });
    expect(AddUserBody.safeParse(body).success).toBe(true);
  });

  it('leaves the password out of an edit when none is typed', () => {
    const body = alterUserBody(7, { username: 'ann', name: 'Ann', password: '', roles: ['admin'] }, digest);
    expect(body).not.toHaveProperty('password');
    expect(body).not.toHaveProperty('rpassword');
    expect(AlterUserBody.safeParse(body).success).toBe(true);
  });

  it('sends a typed password on edit, digested', () => {
    const body = alterUserBody(
      7,
      { username: 'ann', name: 'Ann', password: 'c', rpassword: 'c', roles: ['admin'] },
      digest,
    );
    expect(body.password).toBe('c'.repeat(64));
    expect(body.rpassword).toBe('c'.repeat(64));
  });

  it('asks for stores unless the user is an administrator', () => {
    expect(needsStores(['clerk'])).toBe(true);
    expect(needsStores(['clerk', 'admin'])).toBe(false);
    expect(needsStores(undefined)).toBe(true);
  });
});
