import { describe, expect, it } from 'vitest';
import { parseStationUsername, parseTopic, stationUsername, topicMatches, topics } from './topics';

const a = { tenantId: 7, sn: 'AP-01' };

describe('topics', () => {
  it('builds and parses every station topic', () => {
    expect(topics.status(a)).toBe('esl/v1/7/AP-01/status');
    expect(parseTopic(topics.status(a))).toEqual({ ...a, kind: 'status' });
    expect(parseTopic(topics.up(a, 'hello'))).toEqual({ ...a, kind: 'up', name: 'hello' });
    expect(parseTopic(topics.down(a, 'jobs'))).toEqual({ ...a, kind: 'down', name: 'jobs' });
    const hash = 'ab'.repeat(32);
    expect(topics.blobChunk(a, hash, 16384)).toBe(`esl/v1/7/AP-01/down/blob/${hash}/16384`);
    expect(parseTopic(topics.blobChunk(a, hash, 16384))).toEqual({
      ...a,
      kind: 'down',
      name: 'blob',
      hash,
      offset: 16384,
    });
  });

  it('refuses what is not exactly one of ours', () => {
    for (const t of [
      'esl/v1/7/AP-01',
      'esl/v1/7/AP-01/status/x',
      'esl/v1/7/ap-01/status',
      'esl/v1/07/AP-01/status',
      'esl/v1/0/AP-01/status',
      'esl/v2/7/AP-01/status',
      'esl/v1/7/AP-01/up/hello/x',
      'esl/v1/7/AP-01/up/sideways',
      'esl/v1/7/AP-01/down/blob/ab/0',
      `esl/v1/7/AP-01/down/blob/${'ab'.repeat(32)}/01`,
      'esl/v1/+/AP-01/status',
      'esl/v1/_srv/nudge',
    ]) {
      expect(parseTopic(t), t).toBeNull();
    }
  });

  it('will not build a topic from a bad identity', () => {
    expect(() => topics.status({ tenantId: 7, sn: 'ap-01' })).toThrow();
    expect(() => topics.status({ tenantId: 7, sn: '#' })).toThrow();
    expect(() => topics.status({ tenantId: 0, sn: 'A' })).toThrow();
    expect(() => topics.blobChunk(a, 'AB'.repeat(32), 0)).toThrow();
  });
});

describe('station usernames', () => {
  it('are {tid}.{sn} both ways', () => {
    expect(stationUsername(a)).toBe('7.AP-01');
    expect(parseStationUsername('7.AP-01')).toEqual(a);
  });

  it('refuse wildcards, separators, lower case and anything ambiguous', () => {
    for (const u of [
      '7.AP+01',
      '7.#',
      '7.AP/01',
      '7/.AP',
      '+.AP',
      '7.ap-01',
      '07.AP',
      '7.A.B',
      '7',
      '.AP',
      '7.',
      '',
      ' 7.AP',
      '7.AP ',
    ]) {
      expect(parseStationUsername(u), u).toBeNull();
    }
    expect(parseStationUsername(undefined)).toBeNull();
    expect(parseStationUsername(`7.${'A'.repeat(33)}`)).toBeNull();
  });
});

describe('topicMatches', () => {
  it('follows MQTT filter rules', () => {
    expect(topicMatches('esl/v1/+/+/up/#', 'esl/v1/7/AP-01/up/hello')).toBe(true);
    expect(topicMatches('esl/v1/+/+/up/#', 'esl/v1/7/AP-01/status')).toBe(false);
    expect(topicMatches('esl/v1/7/AP-01/down/#', 'esl/v1/7/AP-01/down')).toBe(true);
    expect(topicMatches('esl/v1/7/AP-01/down/#', 'esl/v1/8/AP-01/down/jobs')).toBe(false);
    expect(topicMatches('esl/v1/+/+/status', 'esl/v1/7/AP-01/status')).toBe(true);
    expect(topicMatches('esl/v1/+/+/status', 'esl/v1/7/AP-01/status/x')).toBe(false);
    expect(topicMatches('$share/esl/esl/v1/+/+/status', 'esl/v1/7/AP-01/status')).toBe(true);
    expect(topicMatches('#', '$SYS/broker')).toBe(false);
    expect(topicMatches('a/#/b', 'a/x/b')).toBe(false);
  });
});
