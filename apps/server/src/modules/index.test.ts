import { ALL_CALLS, CALLS, type CallDef, type CallName, ErrorCode, fieldLabel, hasPermission } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases';
import { buildOperator, buildWorld } from '../test/factories';
import { useApp } from '../test/harness';
import { handlers } from './index';

function expectEnvelope(res: { status: number; code: unknown; msg: unknown; data?: unknown }, def?: CallDef) {
  expect(res.status).toBe(200);
  expect(typeof res.code).toBe('number');
  expect(typeof res.msg).toBe('string');
  expect(res).toHaveProperty('data');
  if (def?.list && res.code === 0) expect(res).toHaveProperty('count');
}

describe.each(await testDatabases())('the API surface on $name', (db) => {
  const t = useApp(db);

  /**
   * POST a call with an empty body. A call declaring a file answer answers the file when it
   * succeeds (checked here: its media type, as an attachment) and the envelope otherwise.
   */
  async function answer(def: CallDef, token?: string) {
    if (!def.file) return { ...(await t().call(def.path, {}, { token })), file: false };
    const headers: Record<string, string> = { 'accept-language': 'en', ...(token ? { token } : {}) };
    const res = await t().app.inject({ method: 'POST', url: `/api${def.path}`, headers, payload: {} });
    if (!String(res.headers['content-type']).startsWith('application/json')) {
      expect(res.headers['content-type'], def.path).toBe(def.file.type);
      expect(res.headers['content-disposition'], def.path).toMatch(/^attachment; filename="[^"]+"$/);
      return { status: res.statusCode, code: 0, msg: '', data: null, file: true };
    }
    return { ...res.json(), status: res.statusCode, file: false };
  }

  it('answers every call of the contract with the envelope: 800 without a session, 1007 until it is built', async () => {
    const { tokens } = await buildWorld(t().app);
    // Logout would end the session the loop uses; it has its own tests.
    for (const def of ALL_CALLS.filter((d) => d.path !== '/user/logout')) {
      const anonymous = await answer(def);
      expectEnvelope(anonymous, def);
      if (def.access !== 'public') expect(anonymous.code, def.path).toBe(ErrorCode.SESSION_EXPIRED);

      const res = await answer(def, tokens.admin);
      expectEnvelope(res, def);
      // The admin has a current store and every permission: a file call that needs nothing in its
      // body answers its file (one that names a record, /mgr/tag/screen, is refused as invalid).
      expect(res.file, def.path).toBe(def.file !== undefined && def.body.safeParse({}).success);
      if (!def.ready) expect(res.code, def.path).toBe(ErrorCode.NOT_AVAILABLE);
      else expect(res.code, def.path).not.toBe(ErrorCode.NOT_AVAILABLE);
    }
  });

  it('has a handler for every call the contract marks ready', () => {
    const missing = ALL_CALLS.filter(
      (d) => d.ready && !(Object.keys(CALLS) as CallName[]).some((n) => CALLS[n] === d && handlers[n]),
    );
    expect(missing.map((d) => d.path)).toEqual([]);
  });

  it('gives each role exactly the calls its permissions allow', async () => {
    const { tokens } = await buildWorld(t().app);
    const op = await buildOperator(t().app);
    const all = { ...tokens, superadmin: op.token };
    for (const [role, token] of Object.entries(all) as [keyof typeof all, string][]) {
      for (const def of ALL_CALLS) {
        if (def.access === 'public' || def.access === 'session' || def.path === '/user/recreatecksk') continue;
        const res = await answer(def, token);
        const allowed = hasPermission([role], def.access);
        if (allowed) expect(res.code, `${role} ${def.path}`).not.toBe(ErrorCode.FORBIDDEN);
        else expect(res.code, `${role} ${def.path}`).toBe(ErrorCode.FORBIDDEN);
      }
    }
  });

  it('drops unknown fields', async () => {
    const a = await buildWorld(t().app);
    const b = await buildWorld(t().app);
    const res = await t().call<Record<string, unknown>>(
      '/mgr/station/add',
      { name: 'Extra', code: 'EXTRA1', tenant_id: b.tenant.id, tenantId: b.tenant.id, id: 424242, secret: 'x' },
      { token: a.tokens.admin },
    );
    expect(res.code).toBe(0);
    expect(res.data).not.toHaveProperty('secret');
    expect(res.data).not.toHaveProperty('tenant_id');
    expect(res.data.id).not.toBe(424242);
    const row = await t()
      .app.services.db.selectFrom('stores')
      .select('tenant_id')
      .where('id', '=', res.data.id as number)
      .executeTakeFirstOrThrow();
    expect(row.tenant_id).toBe(a.tenant.id);
  });

  it('names the invalid field, in the caller’s language', async () => {
    const { tokens, stores } = await buildWorld(t().app);
    const token = tokens.admin;
    const cases: [path: string, body: object, field: string, en: string][] = [
      ['/user/login', { password: 'a'.repeat(64) }, 'username', 'cannot be empty'],
      ['/user/login', { username: 'x\ny', password: 'a'.repeat(64) }, 'username', 'no line breaks allowed'],
      ['/user/login', { username: 'x', password: 42 }, 'password', 'has the wrong format'],
      ['/user/setcurrshop', { curshop: 'abc' }, 'curshop', 'has the wrong format'],
      ['/user/setcurrshop', {}, 'curshop', 'cannot be empty'],
      ['/mgr/station/add', { name: 'x'.repeat(65), code: 'A1' }, 'name', 'is too long'],
      ['/mgr/station/add', { name: 'x', code: 'has space' }, 'code', 'has the wrong format'],
      ['/mgr/station/list', { page: 0 }, 'page', 'is too small'],
      ['/mgr/station/list', { limit: 2001 }, 'limit', 'is too large'],
      ['/mgr/station/delete', { ids: [] }, 'ids', 'is too small'],
      ['/mgr/station/delete', { ids: [1, -2] }, 'ids.1', 'is too small'],
      [
        '/mgr/station/setparame',
        { id: stores[0].id, params: { ledColour: 'pink' } },
        'params.ledColour',
        'has the wrong format',
      ],
      ['/user/UserList', { role: 'boss' }, 'role', 'has the wrong format'],
      ['/log/taglog/syslist', { level: 'loud' }, 'level', 'has the wrong format'],
    ];
    for (const [path, body, field, en] of cases) {
      const res = await t().call(path, body, { token });
      expect(res.code, path).toBe(ErrorCode.VALIDATION);
      expect(res.msg, `${path} ${JSON.stringify(body)}`).toBe(`${fieldLabel(field, 'en')}: ${en}`);
    }
    const zh = await t().call('/mgr/station/add', { name: '', code: 'A1' }, { token, lang: 'zh-CN' });
    expect(zh.msg).toBe('名称：不能为空');
  });

  it('answers unknown paths, bad JSON and non-object bodies with the envelope', async () => {
    const { tokens } = await buildWorld(t().app);
    const unknown = await t().call('/no/such/call', {}, { token: tokens.admin });
    expect(unknown).toMatchObject({ status: 200, code: ErrorCode.NOT_FOUND });
    const get = await t().app.inject({ method: 'GET', url: '/api/user/info' });
    expect(get.json().code).toBe(ErrorCode.NOT_FOUND);

    const bad = await t().app.inject({
      method: 'POST',
      url: '/api/mgr/station/list',
      headers: { token: tokens.admin, 'content-type': 'application/json', 'accept-language': 'en' },
      payload: '{"page":',
    });
    expect(bad.statusCode).toBe(200);
    expect(bad.json()).toMatchObject({
      code: ErrorCode.VALIDATION,
      msg: 'Request: the request body must be a JSON object',
    });

    const array = await t().call('/mgr/station/list', [1, 2], { token: tokens.admin });
    expect(array).toMatchObject({ code: ErrorCode.VALIDATION });
    const text = await t().app.inject({
      method: 'POST',
      url: '/api/mgr/station/list',
      headers: { token: tokens.admin, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(200);
    expect(text.json().code).toBe(ErrorCode.VALIDATION);

    const empty = await t().app.inject({
      method: 'POST',
      url: '/api/user/info',
      headers: { token: tokens.admin, 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.json().code).toBe(0);
  });

  it('hides a crash behind HTTP 500 and a generic message, and logs it', async () => {
    const { tokens, stores, users } = await buildWorld(t().app);
    await t().app.services.db.schema.dropTable('store_params').execute();
    const res = await t().call('/mgr/station/getparame', { id: stores[0].id }, { token: tokens.admin });
    expect(res.status).toBe(500);
    expect(res).toMatchObject({ code: ErrorCode.INTERNAL, msg: 'Internal server error', data: null });
    expect(JSON.stringify(res)).not.toMatch(/store_params|select|relation|stack/i);
    const logged = await t()
      .app.services.db.selectFrom('sys_logs')
      .selectAll()
      .where('event', '=', 'server.error')
      .execute();
    expect(logged.length).toBe(1);
    expect(logged[0].message).toContain('/api/mgr/station/getparame');
    const changes = await t().call('/mgr/station/setparame', { id: stores[0].id, params: {} }, { token: tokens.admin });
    expect(changes.status).toBe(500);
    const ops = await t()
      .app.services.db.selectFrom('op_logs')
      .select(['code', 'call'])
      .where('call', '=', '/mgr/station/setparame')
      .where('user_id', '=', users.admin.id)
      .execute();
    expect(ops).toEqual([{ code: ErrorCode.INTERNAL, call: '/mgr/station/setparame' }]);
  });
});

describe.each(await testDatabases())('login rate limit per address on $name', (db) => {
  const t = useApp(db, { loginRateLimitPerMinute: 3 });

  it('answers 1012 with HTTP 429 and Retry-After once an address has tried too often, on top of the per-user throttle', async () => {
    const answers: Array<[number, number, string | undefined]> = [];
    for (let i = 0; i < 4; i++) {
      const res = await t().app.inject({
        method: 'POST',
        url: `/api${CALLS.login.path}`,
        headers: { 'accept-language': 'en' },
        payload: { username: `someone${i}`, password: 'a'.repeat(64) },
      });
      const retryAfter = res.headers['retry-after'];
      answers.push([res.statusCode, res.json().code, retryAfter === undefined ? undefined : String(retryAfter)]);
    }
    expect(answers.slice(0, 3)).toEqual([
      [200, 1006, undefined],
      [200, 1006, undefined],
      [200, 1006, undefined],
    ]);
    const [status, code, retryAfter] = answers[3] ?? [];
    expect([status, code]).toEqual([429, ErrorCode.TOO_MANY_REQUESTS]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    const other = await t().call('/user/info', {});
    expect(other.code).toBe(ErrorCode.SESSION_EXPIRED);
  });
});
