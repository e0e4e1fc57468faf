import { describe, expect, it } from 'vitest';
import { refill } from './refill';

describe('refill', () => {
  it('takes every field from the first answer', () => {
    expect(refill(undefined, { appid: '', name: 'Shop' })).toEqual({ appid: '', name: 'Shop' });
  });

  it('takes nothing from an answer that says what was already stored, so typing is kept', () => {
    // The bug: saving the tenant card reloads the view, the refetched answer refilled the APPID
    // field with the stored (empty) value and wiped what the user had just typed into it.
    expect(refill({ appid: '', name: 'Shop' }, { appid: '', name: 'Shop' })).toEqual({});
  });

  it('takes only the fields whose stored value changed', () => {
    expect(refill({ appid: '', name: 'Shop' }, { appid: '', name: 'Shop E2E' })).toEqual({ name: 'Shop E2E' });
  });
});
