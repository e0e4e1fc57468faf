import { ErrorCode } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { trustProxyFromEnv } from '../infra/config';
import { clientDigest } from '../infra/lib/passwords';
import { testDatabases } from '../test/databases';
import { buildTenant, buildUser, PASSWORD } from '../test/factories';
import { type TestApp, useApp } from '../test/harness';

// Issue 26 item 1: behind a proxy every client must not share the proxy's address. The test client
// (app.inject) is 127.0.0.1; TRUST_PROXY names it, or names some other address.
const [sqlite] = await testDatabases();
const LIMIT = 3;

const login = (t: TestApp, forwardedFor: string, username = 'nobody', password = 'wrong') =>
  t.app.inject({
    method: 'POST',
    url: '/api/user/login',
    headers: { 'accept-language': 'en', 'x-forwarded-for': forwardedFor },
    payload: { username, password: clientDigest(password) },
  });

const signInLog = async (t: TestApp, tenantId: number) =>
  (
    await t.app.services.db
      .selectFrom('sys_logs')
      .select('message')
      .where('tenant_id', '=', tenantId)
      .where('event', '=', 'login')
      .execute()
  ).map((r) => r.message);

describe('TRUST_PROXY names the test client (a trusted proxy)', () => {
  const t = useApp(sqlite, { trustProxy: ['127.0.0.1'], loginRateLimitPerMinute: LIMIT });

  it('counts the login limit against the forwarded address, each client on its own', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await login(t(), '203.0.113.1')).json().code).toBe(ErrorCode.LOGIN_FAILED);
    expect((await login(t(), '203.0.113.1')).json().code).toBe(ErrorCode.TOO_MANY_REQUESTS);
    // Another client behind the same proxy is not held up.
    expect((await login(t(), '203.0.113.2')).json().code).toBe(ErrorCode.LOGIN_FAILED);
  });

  it('writes the forwarded address to the log, and takes X-Forwarded-Proto for TLS', async () => {
    const tenant = await buildTenant(t().app);
    const user = await buildUser(t().app, { tenantId: tenant.id });
    expect((await login(t(), '198.51.100.9', user.username, PASSWORD)).json().code).toBe(0);
    expect(await signInLog(t(), tenant.id)).toEqual([`${user.username} signed in from 198.51.100.9`]);
    const tls = await t().app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(tls.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
  });

  it('keeps /metrics from clients that come through the proxy on this machine', async () => {
    const direct = await t().app.inject({ method: 'GET', url: '/metrics' });
    expect(direct.statusCode).toBe(200);
    const proxied = await t().app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { 'x-forwarded-for': '203.0.113.50' },
    });
    expect(proxied.statusCode).toBe(404);
  });
});

describe('TRUST_PROXY names another address (the test client is not trusted)', () => {
  const t = useApp(sqlite, { trustProxy: ['10.9.9.9', '192.0.2.0/24'], loginRateLimitPerMinute: LIMIT });

  it('counts every login against the peer, whatever X-Forwarded-For says', async () => {
    for (let i = 0; i < LIMIT; i++)
      expect((await login(t(), `203.0.113.${10 + i}`)).json().code).toBe(ErrorCode.LOGIN_FAILED);
    expect((await login(t(), '203.0.113.99')).json().code).toBe(ErrorCode.TOO_MANY_REQUESTS);
  });

  it('logs the peer, and ignores X-Forwarded-Proto', async () => {
    const tenant = await buildTenant(t().app);
    const user = await buildUser(t().app, { tenantId: tenant.id });
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/user/login',
      remoteAddress: '10.1.1.1',
      headers: { 'x-forwarded-for': '198.51.100.9' },
      payload: { username: user.username, password: clientDigest(PASSWORD) },
    });
    expect(res.json().code).toBe(0);
    expect(await signInLog(t(), tenant.id)).toEqual([`${user.username} signed in from 10.1.1.1`]);
    const tls = await t().app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(tls.headers['strict-transport-security']).toBeUndefined();
  });

  it('follows X-Forwarded-For from a peer inside a trusted CIDR', async () => {
    const tenant = await buildTenant(t().app);
    const user = await buildUser(t().app, { tenantId: tenant.id });
    await t().app.inject({
      method: 'POST',
      url: '/api/user/login',
      remoteAddress: '192.0.2.40',
      headers: { 'x-forwarded-for': '198.51.100.10' },
      payload: { username: user.username, password: clientDigest(PASSWORD) },
    });
    expect(await signInLog(t(), tenant.id)).toEqual([`${user.username} signed in from 198.51.100.10`]);
  });
});

describe('TRUST_PROXY unset (the default)', () => {
  const t = useApp(sqlite);

  it('trusts no proxy: X-Forwarded-Proto gives no HSTS, /metrics stays with the peer', async () => {
    const tls = await t().app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(tls.headers['strict-transport-security']).toBeUndefined();
    const metrics = await t().app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { 'x-forwarded-for': '203.0.113.50' },
    });
    expect(metrics.statusCode).toBe(200);
  });
});

describe('trustProxyFromEnv', () => {
  it('reads addresses and CIDRs, none by default', () => {
    expect(trustProxyFromEnv({})).toEqual([]);
    expect(trustProxyFromEnv({ TRUST_PROXY: '' })).toEqual([]);
    expect(trustProxyFromEnv({ TRUST_PROXY: ' 10.0.0.1, 172.16.0.0/12 ,fd00::/8,::1' })).toEqual([
      '10.0.0.1',
      '172.16.0.0/12',
      'fd00::/8',
      '::1',
    ]);
  });

  it('stops on anything else, naming the variable and the entry', () => {
    for (const bad of ['proxy.local', '10.0.0.0/33', '10.0.0.1/8/2', 'fd00::/129', '10.0.0.0/x', 'true'])
      expect(() => trustProxyFromEnv({ TRUST_PROXY: `10.0.0.1,${bad}` })).toThrow(`TRUST_PROXY`);
    expect(() => trustProxyFromEnv({ TRUST_PROXY: 'proxy.local' })).toThrow('"proxy.local"');
  });
});
