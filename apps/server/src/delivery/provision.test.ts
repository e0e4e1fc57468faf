import type { Station, Tag } from '@esl/contract';
import { provision, Random, type Simulator, startSimulator } from '@esl/simulator';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildShop } from '../test/business';
import { testDatabases } from '../test/databases';
import { PASSWORD } from '../test/factories';
import { useApp } from '../test/harness';

// `npm run sim -- --api …`: the simulator provisions its stations and tags through the public
// API as a user would, then connects with the secrets the server answered.

describe.each(await testDatabases())('simulator provisioning through the API ($name)', (db) => {
  const t = useApp(db, { mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 } });
  let sim: Simulator | undefined;
  afterEach(async () => {
    await sim?.stop();
    sim = undefined;
  });

  /** fetch, answered by the app in this process (no port needed). */
  const inject: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const res = await t().app.inject({
      method: 'POST',
      url: url.pathname,
      headers: init?.headers as Record<string, string>,
      payload: init?.body as string,
    });
    return new Response(res.body, { status: res.statusCode });
  };

  const options = (username: string, extra: Partial<Parameters<typeof provision>[0]> = {}) => ({
    api: 'http://server.test',
    username,
    password: PASSWORD,
    store: 'Sim Store',
    stations: 2,
    tagsPerStation: 3,
    models: [['05', 1]] as Array<[string, number]>,
    wakeS: 40,
    snPrefix: 'SIM',
    attach: false,
    rng: new Random('provision-test'),
    ...extra,
  });

  it('adds a store, stations and tags, and the stations come online with the answered secrets', async () => {
    const { users, tenant } = await buildShop(t().app);
    const got = await provision(options(users.admin.username), inject);
    expect(got.tenantId).toBe(tenant.id);
    expect(got.stations.map((s) => s.sn)).toEqual(['SIM-01', 'SIM-02']);
    expect(got.stations.every((s) => s.tags?.length === 3 && s.secret.length > 10)).toBe(true);

    const delivery = t().app.delivery;
    if (!delivery) throw new Error('no broker');
    sim = await startSimulator({
      url: delivery.url,
      stations: got.stations,
      speed: 0,
      seed: 's',
      start: t().clock.now(),
    });
    await sim.waitFor(() => sim?.stations.every((s) => s.isWelcomed) ?? false, { what: 'welcome' });

    // What the console shows for the new store: the two stations online, six tags heard.
    const token = (
      await t().call<{ token: string }>('/user/login', {
        username: users.admin.username,
        password: (await import('node:crypto')).createHash('sha256').update(PASSWORD).digest('hex'),
      })
    ).data.token;
    await t().call('/user/setcurrshop', { curshop: got.storeId }, { token });
    const stations = (await t().call<Station[]>('/mgr/ap/runtimelist', {}, { token })).data;
    expect(stations.map((s) => [s.sn, s.online]).sort()).toEqual([
      ['SIM-01', true],
      ['SIM-02', true],
    ]);
    await sim.clock.advance(60_000);
    await vi.waitFor(async () => {
      await delivery.gateway.idle();
      const tags = (await t().call<Tag[]>('/mgr/tag/list', {}, { token })).data;
      expect(tags).toHaveLength(6);
      expect(tags.every((tag) => tag.stationSn?.startsWith('SIM-'))).toBe(true);
    });
    await sim.stop();
    sim = undefined;

    // A second run adds the next serial numbers to the same store instead of colliding.
    const again = await provision(options(users.admin.username, { stations: 1, rng: new Random('other') }), inject);
    expect(again.storeId).toBe(got.storeId);
    expect(again.stations.map((s) => s.sn)).toEqual(['SIM-03']);

    // Attaching takes the store's stations with new secrets (the old ones stop working) and its tags.
    const attached = await provision(options(users.admin.username, { attach: true }), inject);
    expect(attached.stations.map((s) => s.sn).sort()).toEqual(['SIM-01', 'SIM-02', 'SIM-03']);
    expect(attached.stations.reduce((n, s) => n + (s.tags?.length ?? 0), 0)).toBe(9);
    const first = attached.stations.find((s) => s.sn === 'SIM-01');
    expect(first?.secret).not.toBe(got.stations[0].secret);
    // Tags stay with the station that heard them; the never-heard ones of SIM-03 are dealt out.
    const held = new Set(first?.tags?.map((x) => x.id));
    expect(got.stations[0].tags?.every((x) => held.has(x.id))).toBe(true);
  });

  it('says why when the user may not add stations, and adds nothing', async () => {
    const { users, tenant } = await buildShop(t().app);
    await expect(provision(options(users.clerk.username), inject)).rejects.toThrow(/code \d+/);
    const count = await t()
      .app.services.db.selectFrom('stations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant_id', '=', tenant.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('refuses a wrong password with the server’s message', async () => {
    const { users } = await buildShop(t().app);
    await expect(provision({ ...options(users.admin.username), password: 'wrong' }, inject)).rejects.toThrow(
      /\/user\/login: .+ \(code \d+\)/,
    );
  });
});
