import { ALL_CALLS, type CallDef } from '@esl/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEMO_PASSWORD, seedDemo } from '../demo/seed';
import { testDatabases } from '../test/databases';
import { login } from '../test/factories';
import { useApp } from '../test/harness';

/**
 * Every call of the contract, on both databases, gets malformed bodies: wrong types, NUL and
 * other control characters, huge and negative numbers, deep nesting, 1 MB strings, arrays for
 * objects, `__proto__` keys, invalid JSON, wrong content types, an empty body. None may answer
 * 5xx or show a stack or SQL; the server stays up; the demo data is unchanged.
 */

/** A request as it goes on the wire. */
interface Shot {
  label: string;
  contentType: string;
  payload: string;
  /** The body the server's parser makes of it; undefined when the parser refuses it. */
  sees: unknown;
}

const json = (label: string, value: unknown): Shot => ({
  label,
  contentType: 'application/json',
  payload: JSON.stringify(value),
  sees: value,
});
const raw = (label: string, payload: string, contentType = 'application/json'): Shot => {
  let sees: unknown; // undefined: the server refuses the content type or the text
  // The server reads a multipart body only in upload calls; elsewhere it is no body at all.
  if (contentType.startsWith('multipart/')) sees = {};
  if (contentType.split(';')[0] === 'application/json') {
    try {
      sees = payload.trim() === '' ? {} : JSON.parse(payload);
    } catch {
      sees = undefined;
    }
  }
  return { label, contentType, payload, sees };
};

const MEGABYTE = 'x'.repeat(1024 * 1024);
const deepArray = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const deepObject = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

/** Bodies wrong for every call: not a JSON object at all, or not JSON. */
const WHOLE_BODY: Shot[] = [
  raw('invalid JSON {', '{'),
  raw('invalid JSON [1,', '[1,'),
  raw('invalid JSON nul', 'nul'),
  raw('invalid JSON {"a":}', '{"a":}'),
  raw('trailing brace', '{"a":1}}'),
  raw('single quotes', "{'a':1}"),
  raw('bare NUL', '\u0000'),
  raw('NaN literal', '{"page":NaN}'),
  raw('BOM then object', '\ufeff{}'),
  raw('comment', '/* x */ {}'),
  json('array', []),
  json('array of object', [{}]),
  json('string', 'text'),
  json('NUL string', '\u0000'),
  json('zero', 0),
  json('negative', -1),
  json('huge number', 1e308),
  json('max safe integer', Number.MAX_SAFE_INTEGER),
  json('null', null),
  json('true', true),
  json('false', false),
  json('1 MB string', MEGABYTE),
  raw('exponent overflow', '1e999'),
  raw('deep array 5000', deepArray(5000)),
  raw('deep array 200000', deepArray(200_000)),
  raw('deep object 5000', deepObject(5000)),
  raw('deep object 200000', deepObject(200_000)),
  raw('text/plain', '{}', 'text/plain'),
  raw('xml', '<a/>', 'application/xml'),
  raw('octet-stream', '\u0000\u0001', 'application/octet-stream'),
  raw('multipart without boundary', '--x\r\n', 'multipart/form-data'),
  raw('multipart garbage', '--x\r\nnot a part\r\n--x--', 'multipart/form-data; boundary=x'),
  raw('json with charset latin1', '{}', 'application/json; charset=latin1'),
  raw('unknown content type', '{}', 'application/x-unknown'),
  raw('empty content type', '{}', ''),
  raw('array of arrays', '[[[[]]]]'),
  raw('string of JSON', '"{\\"a\\":1}"'),
  raw('negative zero', '-0'),
  raw('number with spaces', '   42   '),
  raw('utf-16 surrogate alone', '"\\ud800"'),
  raw('trailing comma', '{"a":1,}'),
  raw('unquoted key', '{a:1}'),
  raw('bad escape', '{"a":"\\x41"}'),
  raw('short unicode escape', '{"a":"\\u12"}'),
  raw('unterminated string', '"abc'),
  raw('unterminated 1 MB string', `{"a":"${MEGABYTE}`),
  raw('two objects', '{}{}'),
  raw('two literals', 'true false'),
  json('array of null', [null]),
  json('mixed array', [[], {}, 1, 'x']),
  json('control string', '\u0001\u001f'),
  json('fraction', 1.5),
]; // (one JSON object with a huge exponent parses to Infinity: a field value, not a body error)

/** Values put in each field the call declares. */
const FIELD_VALUES: [string, unknown][] = [
  ['NUL inside', 'a\u0000b'],
  ['NUL alone', '\u0000'],
  ['C0 controls', '\u0001\u0002\u001f\u007f'],
  ['1 MB string', MEGABYTE],
  ['negative', -1],
  ['negative huge', -1e308],
  ['huge', 1e308],
  ['2^31', 2 ** 31],
  ['2^53-1', Number.MAX_SAFE_INTEGER],
  ['2^63 as text', '9223372036854775808'],
  ['fraction', 1.5],
  ['array', [1, 2]],
  ['object', { a: 1 }],
  ['null', null],
  ['boolean', true],
  ['deep', JSON.parse(deepArray(500))],
];

/** The fields a call's body declares, from the same JSON Schema OpenAPI shows. */
function fieldsOf(def: CallDef): string[] {
  const schema = z.toJSONSchema(def.body, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, unknown>;
  };
  return Object.keys(schema.properties ?? {});
}

/** Well-formed for list calls (and for calls that take no fields); no call may answer 5xx to them. */
const EDGE_BODIES: Shot[] = [
  json('last safe page of 2000', { page: Number.MAX_SAFE_INTEGER, limit: 2000 }),
  json('last allowed page of 2000', { page: 1_000_000, limit: 2000 }),
];

function shotsFor(def: CallDef): Shot[] {
  const shots = [...WHOLE_BODY, ...EDGE_BODIES];
  for (const field of fieldsOf(def)) {
    for (const [label, value] of FIELD_VALUES) shots.push(json(`${field}: ${label}`, { [field]: value }));
    shots.push(raw(`${field}: __proto__`, `{"__proto__":{"admin":true},"${field}":{"__proto__":{"x":1}}}`));
    shots.push(raw(`${field}: constructor`, `{"constructor":{"prototype":{"x":1}},"${field}":"x"}`));
  }
  return shots;
}

const hasNul = (value: unknown, depth = 0): boolean => {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 50 || value === null || typeof value !== 'object') return false;
  return Object.values(value).some((v) => hasNul(v, depth + 1));
};

/** Whether the server must refuse the shot: its body does not parse, or carries a NUL. */
function mustRefuse(def: CallDef, shot: Shot): boolean {
  if (shot.sees === undefined) return true;
  const parsed = def.body.safeParse(shot.sees);
  return !parsed.success || hasNul(parsed.data);
}

/** Words that only a crash shows: a stack frame, a file path, SQL, a driver's message. */
const LEAK =
  /\bat .+:\d+:\d+|node_modules|\.ts:\d+|\bselect\b.*\bfrom\b|\binsert into\b|\bsqlite|postgres|syntax error|violates|out of range|TypeError|RangeError/i;

const EXCLUDED_TABLES = /^(sessions|login_attempts|op_logs|sys_logs|kysely_.*)$/;

describe.each(await testDatabases())('malformed bodies to every call on $name', (db) => {
  const t = useApp(db);

  async function snapshot(): Promise<string> {
    const database = t().app.services.db;
    const names =
      t().app.services.dialect === 'sqlite'
        ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(database)
        : await sql<{
            name: string;
          }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(
            database,
          );
    const tables = names.rows.map((r) => r.name).filter((n) => !EXCLUDED_TABLES.test(n) && !n.startsWith('sqlite_'));
    expect(tables).toContain('products');
    const parts: string[] = [];
    for (const table of tables.sort()) {
      const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(database);
      const lines = rows.rows.map((r) => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).sort();
      parts.push(`${table}\n${lines.join('\n')}`);
    }
    return parts.join('\n\n');
  }

  it('answers every one with an envelope: no 5xx, no stack or SQL, data unchanged', async () => {
    await seedDemo(t().app.services.db, t().clock.time, undefined, t().app.services.config.passwordCost);
    const admin = await login(t().app, 'admin', DEMO_PASSWORD);
    const operator = await login(t().app, 'superadmin', DEMO_PASSWORD);
    const before = await snapshot();

    const failures: string[] = [];
    const refusedPerCall: Record<string, number> = {};
    for (const def of ALL_CALLS) {
      let refused = 0;
      const token = def.access.startsWith('platform.') ? operator : def.access === 'public' ? undefined : admin;
      for (const shot of shotsFor(def)) {
        const refuse = mustRefuse(def, shot);
        // A body the call accepts is not malformed; a change it asks for is not sent.
        if (!refuse && def.changes) continue;
        const headers: Record<string, string> = { 'accept-language': 'en' };
        if (shot.contentType) headers['content-type'] = shot.contentType;
        if (token) headers.token = token;
        const res = await t().app.inject({ method: 'POST', url: `/api${def.path}`, headers, payload: shot.payload });
        const where = `${def.path} [${shot.label}]`;
        if (res.statusCode >= 500) failures.push(`${where}: HTTP ${res.statusCode} ${res.body.slice(0, 200)}`);
        else if (LEAK.test(res.body.slice(0, 4000))) failures.push(`${where}: leaks ${res.body.slice(0, 200)}`);
        else if (refuse) {
          const code = (res.json() as { code: number }).code;
          if (code === 0) failures.push(`${where}: accepted`);
          else refused += 1;
        }
      }
      refusedPerCall[def.path] = refused;
    }
    expect(failures).toEqual([]);
    const fewer = Object.entries(refusedPerCall).filter(([, n]) => n < 40);
    expect(fewer, 'calls that got fewer than 40 malformed bodies').toEqual([]);

    // Still up, still answering, and nothing the demo holds has changed.
    const info = await t().call('/user/info', {}, { token: admin });
    expect(info.code).toBe(0);
    expect(await snapshot()).toBe(before);
  }, 600_000);

  it('refuses a NUL in any string the same way on both databases, naming the field, and logs the refusal', async () => {
    await seedDemo(t().app.services.db, t().clock.time, undefined, t().app.services.config.passwordCost);
    const admin = await login(t().app, 'admin', DEMO_PASSWORD);
    const before = await t().app.services.db.selectFrom('users').select('id').execute();
    const added = await t().call(
      '/user/addusr',
      {
        username: 'nul_user',
        name: 'evil\u0000',
        roles: ['admin'],
        password: 'a'.repeat(64),
        rpassword: 'a'.repeat(64),
      },
      { token: admin },
    );
    expect(added.status).toBe(200);
    expect(added.code).toBe(1001);
    expect(added.msg).toMatch(/^Name: /);
    expect(added.msg).toContain('U+0000');
    expect(await t().app.services.db.selectFrom('users').select('id').execute()).toHaveLength(before.length);
    const logged = await t()
      .app.services.db.selectFrom('op_logs')
      .select(['code', 'target'])
      .where('call', '=', '/user/addusr')
      .execute();
    expect(logged).toContainEqual({ code: 1001, target: 'nul_user' });
    const nested = await t().call('/mgr/templ/Alterkeymap', { '\u0000': '\u0000' }, { token: admin });
    expect(nested.status).toBe(200);
  });

  it('answers an over-size body with its own code naming the limit, in the caller’s language', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(5 * 1024 * 1024) });
    for (const [lang, text] of [
      ['en', 'Request too large: the limit is 4 MB'],
      ['zh-CN', '请求过大，上限为 4 MB'],
    ] as const) {
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/mgr/product/list',
        headers: { 'content-type': 'application/json', 'accept-language': lang },
        payload: big,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ code: 1014, msg: text, data: null });
    }
  });
});
