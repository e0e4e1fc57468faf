import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { decodeMessage, encodeJobMessages, encodeMessage } from './codec';
import { JOB_KINDS } from './codes';
import { EXAMPLES } from './examples';
import { LIMITS } from './limits';
import { Job } from './messages';
import { MESSAGE_NAMES, MESSAGES, type MessageName, messageForPath } from './registry';

const clone = <T>(v: T): T => structuredClone(v) as T;
const decodeValue = (name: MessageName, value: unknown) => decodeMessage(name, JSON.stringify(value));

describe('every message', () => {
  it.each(MESSAGE_NAMES)('%s round-trips its schema', (name) => {
    const wire = encodeMessage(name, EXAMPLES[name]);
    const back = decodeMessage(name, new TextEncoder().encode(wire));
    expect(back).toEqual({ ok: true, message: EXAMPLES[name] });
    // The example fills in every optional field, so nothing of the schema goes untested.
    expect(JSON.parse(wire)).toEqual(EXAMPLES[name]);
  });

  it.each(MESSAGE_NAMES)('%s drops fields it does not know, at the top and nested', (name) => {
    const value = clone(EXAMPLES[name]) as Record<string, unknown>;
    value.extra = 'x';
    const nested = Object.values(value).find((v) => typeof v === 'object' && v !== null && !Array.isArray(v));
    if (nested) (nested as Record<string, unknown>).nestedExtra = 1;
    const back = decodeValue(name, value);
    expect(back).toEqual({ ok: true, message: EXAMPLES[name] });
  });

  it.each(MESSAGE_NAMES)('%s refuses a missing required field and accepts a missing optional one', (name) => {
    const schema = MESSAGES[name].schema as z.ZodObject;
    for (const key of Object.keys(EXAMPLES[name])) {
      const value = clone(EXAMPLES[name]) as Record<string, unknown>;
      delete value[key];
      const optional = schema.shape[key].safeParse(undefined).success;
      expect(decodeValue(name, value).ok, `${name} without ${key}`).toBe(optional);
    }
  });

  it.each(MESSAGE_NAMES)('%s refuses a wrong type, another version, bad JSON and oversize payloads', (name) => {
    for (const key of Object.keys(EXAMPLES[name])) {
      const value = { ...clone(EXAMPLES[name]), [key]: { wrong: true } };
      expect(decodeValue(name, value), `${name}.${key}`).toMatchObject({
        ok: false,
        error: key === 'v' ? 'badVersion' : 'invalid',
      });
    }
    expect(decodeValue(name, { ...clone(EXAMPLES[name]), v: '1' })).toMatchObject({ ok: false, error: 'badVersion' });
    expect(decodeValue(name, { ...clone(EXAMPLES[name]), v: 2 })).toMatchObject({ ok: false, error: 'badVersion' });
    expect(decodeMessage(name, '{"v":1,')).toMatchObject({ ok: false, error: 'badJson' });
    expect(decodeMessage(name, new Uint8Array([0x7b, 0xff, 0x7d]))).toMatchObject({ ok: false, error: 'badJson' });
    expect(decodeMessage(name, '[]')).toMatchObject({ ok: false, error: 'invalid' });
    expect(decodeMessage(name, 'null')).toMatchObject({ ok: false, error: 'invalid' });
    const big = new Uint8Array(LIMITS.maxMessageBytes + 1).fill(0x20);
    expect(decodeMessage(name, big)).toMatchObject({ ok: false, error: 'tooLarge' });
  });

  it('has a topic path of its own that leads back to it', () => {
    const paths = MESSAGE_NAMES.map((n) => MESSAGES[n].path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const name of MESSAGE_NAMES) expect(messageForPath(MESSAGES[name].path)).toBe(name);
    // Retained: only status. QoS 0: only heartbeat, progress and time.
    expect(MESSAGE_NAMES.filter((n) => MESSAGES[n].retain)).toEqual(['status']);
    expect(MESSAGE_NAMES.filter((n) => MESSAGES[n].qos === 0).sort()).toEqual(['heartbeat', 'progress', 'time']);
  });
});

describe('encodeMessage', () => {
  it('refuses to send a malformed message and leaves unknown fields out', () => {
    expect(() => encodeMessage('time', { v: 1, t: -5 })).toThrow();
    const withExtra = { ...EXAMPLES.time, secret: 'no' } as typeof EXAMPLES.time;
    expect(JSON.parse(encodeMessage('time', withExtra))).toEqual(EXAMPLES.time);
  });

  it('refuses a message larger than the limit', () => {
    const bytes = LIMITS.maxInlineBytes;
    const data = btoa(String.fromCharCode(...new Uint8Array(bytes).fill(65)));
    const first = EXAMPLES.jobs.jobs[0] as Extract<Job, { kind: 'image' }>;
    const job = (id: string) => ({ ...first, id, image: { ...first.image, size: bytes, data } });
    expect(() => encodeMessage('jobs', { v: 1, jobs: [job('a'), job('b')] })).not.toThrow();
    expect(() => encodeMessage('jobs', { v: 1, jobs: [job('a'), job('b'), job('c'), job('d')] })).toThrow(
      /larger than/,
    );
  });
});

describe('jobs', () => {
  const image = (EXAMPLES.jobs.jobs as Array<Record<string, unknown>>)[0];
  const jobs = (list: unknown[]) => decodeValue('jobs', { v: 1, jobs: list });

  it('has a variant for every kind', () => {
    expect(Job.options.map((o) => o.shape.kind.value).sort()).toEqual([...JOB_KINDS].sort());
  });

  it('refuses a tag job without its tag or its payload, and an unknown kind', () => {
    const { tag: _tag, ...noTag } = image;
    const { image: _image, ...noImage } = image;
    expect(jobs([noTag])).toMatchObject({ ok: false, error: 'invalid' });
    expect(jobs([noImage])).toMatchObject({ ok: false, error: 'invalid' });
    expect(jobs([{ ...image, kind: 'teleport' }])).toMatchObject({ ok: false, error: 'invalid' });
    expect(jobs([{ ...image, prio: 4 }])).toMatchObject({ ok: false, error: 'invalid' });
  });

  it('checks the image: ver is the start of hash, inline data is size bytes', () => {
    const img = image.image as Record<string, unknown>;
    expect(jobs([{ ...image, image: { ...img, ver: 'ffffffffffffffff' } }])).toMatchObject({ ok: false });
    expect(jobs([{ ...image, image: { ...img, size: 13 } }])).toMatchObject({ ok: false });
    expect(jobs([{ ...image, image: { ...img, data: 'not base64!' } }])).toMatchObject({ ok: false });
    const { data: _data, ...blob } = img;
    expect(jobs([{ ...image, image: { ...blob, size: 200_000 } }])).toMatchObject({ ok: true });
  });

  it('a station job carries no tag, and its tag is dropped if sent', () => {
    const rollcall = { id: 'r1', rev: 1, att: 1, kind: 'rollcall', prio: 0, ttlS: 60 };
    expect(jobs([{ ...rollcall, tag: '0000021A3F5C' }])).toEqual({ ok: true, message: { v: 1, jobs: [rollcall] } });
  });

  it('holds 1 to 64 jobs', () => {
    expect(jobs([])).toMatchObject({ ok: false });
    const many = Array.from({ length: LIMITS.maxJobsPerMessage + 1 }, (_, i) => ({ ...image, id: i.toString(36) }));
    expect(jobs(many.slice(0, LIMITS.maxJobsPerMessage))).toMatchObject({ ok: true });
    expect(jobs(many)).toMatchObject({ ok: false });
  });
});

describe('jobs split into messages', () => {
  const first = EXAMPLES.jobs.jobs[0] as Extract<Job, { kind: 'image' }>;
  const inline = (id: string, bytes: number) => ({
    ...first,
    id,
    image: { ...first.image, size: bytes, data: btoa(String.fromCharCode(...new Uint8Array(bytes).fill(id.length))) },
  });
  const unpack = (payloads: string[]) =>
    payloads.map((p) => {
      const back = decodeMessage('jobs', p);
      if (!back.ok) throw new Error(back.detail);
      return back.message.jobs;
    });

  it('keeps to 64 jobs a message, in order', () => {
    const many = Array.from({ length: 150 }, (_, i) => ({ ...first, id: `j${i}` }));
    const parts = unpack(encodeJobMessages(many));
    expect(parts.map((p) => p.length)).toEqual([64, 64, 22]);
    expect(parts.flat().map((j) => j.id)).toEqual(many.map((j) => j.id));
  });

  it('keeps to the byte limit when the jobs carry large inline images', () => {
    // 40 labels of 16 KB inline (a station's default inlineMax): ~870 KB in all, far too much
    // for one message though well under 64 jobs.
    const big = Array.from({ length: 40 }, (_, i) => inline(`b${i}`, 16 * 1024));
    const payloads = encodeJobMessages(big);
    expect(payloads.length).toBeGreaterThan(1);
    for (const p of payloads)
      expect(new TextEncoder().encode(p).byteLength).toBeLessThanOrEqual(LIMITS.maxMessageBytes);
    const parts = unpack(payloads);
    expect(parts.flat().map((j) => j.id)).toEqual(big.map((j) => j.id));
    // As few messages as the limit allows: each but the last could not take the next job.
    for (let i = 0; i < payloads.length - 1; i++) {
      const next = JSON.stringify(parts[i + 1][0]);
      expect(new TextEncoder().encode(payloads[i]).byteLength + 1 + next.length).toBeGreaterThan(
        LIMITS.maxMessageBytes,
      );
    }
  });

  it('takes jobs of the largest inline image, mixed with small ones, in order', () => {
    const mixed = [
      inline('a', LIMITS.maxInlineBytes),
      { ...first, id: 'small' },
      inline('bb', LIMITS.maxInlineBytes),
      inline('ccc', LIMITS.maxInlineBytes),
    ];
    const parts = unpack(encodeJobMessages(mixed));
    expect(parts.map((p) => p.map((j) => j.id))).toEqual([['a', 'small', 'bb'], ['ccc']]);
  });

  it('checks every job against its schema, as encodeMessage does', () => {
    expect(() => encodeJobMessages([{ ...first, prio: 9 as 0 }])).toThrow();
    expect(encodeJobMessages([])).toEqual([]);
  });
});

describe('field rules', () => {
  it('ids, hashes and tags have one spelling', () => {
    const entry = EXAMPLES.tags.tags[0];
    const tags = (e: unknown) => decodeValue('tags', { ...EXAMPLES.tags, tags: [e] });
    expect(tags({ ...entry, id: '0000021a3f5c' })).toMatchObject({ ok: false });
    expect(tags({ ...entry, ver: 'ABCDEF0123456789' })).toMatchObject({ ok: false });
    expect(tags({ ...entry, ver: null })).toMatchObject({ ok: true });
    expect(tags({ ...entry, reason: 'sneeze' })).toMatchObject({ ok: false });
    expect(decodeValue('resack', { v: 1, ids: [['A1', 1]] })).toMatchObject({ ok: false });
    expect(decodeValue('resack', { v: 1, ids: [['a1', 1, 2]] })).toMatchObject({ ok: false });
    expect(decodeValue('status', { ...EXAMPLES.status, connId: 'a/b#c' })).toMatchObject({ ok: false });
  });

  it('free text holds no NUL (PostgreSQL cannot store one: invalid on every database)', () => {
    expect(decodeValue('hello', { ...EXAMPLES.hello, model: 'ESL\u0000AP' })).toMatchObject({
      ok: false,
      error: 'invalid',
    });
    expect(decodeValue('hello', { ...EXAMPLES.hello, model: 'ESL-AP' })).toMatchObject({ ok: true });
  });

  it('a tag report holds at most 500 entries', () => {
    const entry = EXAMPLES.tags.tags[0];
    const list = Array.from({ length: LIMITS.maxTagsPerReport + 1 }, () => entry);
    expect(decodeValue('tags', { ...EXAMPLES.tags, tags: list.slice(1) })).toMatchObject({ ok: true });
    expect(decodeValue('tags', { ...EXAMPLES.tags, tags: list })).toMatchObject({ ok: false });
  });

  it('config: static addressing needs its address, DHCP needs nothing', () => {
    const cfg = (ip: unknown) => decodeValue('config', { ...EXAMPLES.config, ip });
    expect(cfg({ mode: 'dhcp' })).toMatchObject({ ok: true });
    expect(cfg({ mode: 'static', mask: '255.255.255.0', gw: '192.168.1.1' })).toMatchObject({ ok: false });
    expect(cfg({ mode: 'static', addr: '999.1.1.1', mask: '255.255.255.0', gw: '192.168.1.1' })).toMatchObject({
      ok: false,
    });
  });
});
