import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { testDatabases } from '../test/databases';
import { buildWorld } from '../test/factories';
import { useApp } from '../test/harness';
import { CLOSE_SESSION_EXPIRED, HEARTBEAT } from './socket';

function nextMessage(ws: WebSocket): Promise<string> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(data.toString())));
}
function closed(ws: WebSocket): Promise<number> {
  return new Promise((resolve) => ws.once('close', (code) => resolve(code)));
}

describe.each(await testDatabases())('notice socket on $name', (db) => {
  const t = useApp(db);

  it('answers heart beat, carries broadcasts to the tenant, and closes when the session goes', async () => {
    const { tokens, tenant } = await buildWorld(t().app);
    const ws = await t().app.injectWS(`/sys/eslnotice?token=${tokens.manager}`);
    const reply = nextMessage(ws);
    ws.send(HEARTBEAT);
    expect(await reply).toBe(HEARTBEAT);

    const notice = nextMessage(ws);
    expect(t().app.services.notices.broadcast(tenant.id, { type: 'tag.updated', id: 1 })).toBe(1);
    expect(JSON.parse(await notice)).toEqual({ type: 'tag.updated', id: 1 });
    expect(t().app.services.notices.broadcast(tenant.id + 1000, { type: 'x' })).toBe(0);

    await t().call('/user/logout', {}, { token: tokens.manager });
    const gone = closed(ws);
    ws.send(HEARTBEAT);
    expect(await gone).toBe(CLOSE_SESSION_EXPIRED);
  });

  it("takes the session from the console's cookie, so no token is in the URL (issue 27)", async () => {
    const { tokens } = await buildWorld(t().app);
    const ws = await t().app.injectWS('/sys/eslnotice', {
      headers: { cookie: `theme=x; ESL-Token=${encodeURIComponent(tokens.manager)}; other=1` },
    });
    const reply = nextMessage(ws);
    ws.send(HEARTBEAT);
    expect(await reply).toBe(HEARTBEAT);
    ws.terminate();
    const none = await t().app.injectWS('/sys/eslnotice', { headers: { cookie: 'other=1' } });
    expect(await closed(none)).toBe(CLOSE_SESSION_EXPIRED);
  });

  it('closes a socket with a bad token', async () => {
    const ws = await t().app.injectWS('/sys/eslnotice?token=nope');
    expect(await closed(ws)).toBe(CLOSE_SESSION_EXPIRED);
  });
});
