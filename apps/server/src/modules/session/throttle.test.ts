import { describe, expect, it } from 'vitest';
import { ADDRESS_RULE, nextAttemptAt, PAIR_RULE, USERNAME_RULE, waitAfter } from './throttle';

const failures = (n: number, ip: string, start = 0) => Array.from({ length: n }, (_, i) => ({ ip, time: start + i }));

describe('sign-in throttling', () => {
  it('waits nothing within the free failures, then doubles up to the rule’s longest', () => {
    expect(waitAfter(PAIR_RULE, 3)).toBe(0);
    expect(waitAfter(PAIR_RULE, 4)).toBe(2_000);
    expect(waitAfter(PAIR_RULE, 5)).toBe(4_000);
    expect(waitAfter(PAIR_RULE, 12)).toBe(512_000);
    expect(waitAfter(PAIR_RULE, 13)).toBe(15 * 60_000);
    expect(waitAfter(PAIR_RULE, 10_000)).toBe(15 * 60_000);
    expect(waitAfter(USERNAME_RULE, 10)).toBe(0);
    expect(waitAfter(USERNAME_RULE, 100)).toBe(30_000);
    expect(waitAfter(ADDRESS_RULE, 20)).toBe(0);
  });

  it('slows the guessing address hard, every other address of the username at most 30 s', () => {
    const attacker = failures(13, '10.0.0.66', 1000);
    const last = 1012;
    expect(nextAttemptAt('10.0.0.66', attacker, attacker)).toBe(last + 15 * 60_000);
    expect(nextAttemptAt('10.0.0.7', attacker, [])).toBe(last + 4_000);
    const many = [...failures(100, '10.0.0.66', 1000), ...failures(100, '10.0.0.67', 2000)];
    expect(nextAttemptAt('10.0.0.7', many, [])).toBe(2099 + 30_000);
  });

  it('slows an address spraying many usernames, whatever username it tries next', () => {
    const spray = failures(25, '10.0.0.66', 5000);
    expect(nextAttemptAt('10.0.0.66', [], spray)).toBe(5024 + 16_000);
    expect(nextAttemptAt('10.0.0.66', [], spray.slice(0, 20))).toBe(0);
  });
});
