import { createHash } from 'node:crypto';
import type { AddStationData, FirmwareChoice, UpgradeStarted, UpgradeTask } from '@esl/contract';
import { encodeFirmwareFile } from '@esl/contract/protocol';
import { buildFirmwareFile, type FirmwareFaults, type Simulator, startSimulator } from '@esl/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import type { Delivery } from '../../delivery/wiring';
import { buildShop, buildTag, multipartFile } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { buildOperator } from '../../test/factories';
import { useApp } from '../../test/harness';

// Firmware upgrades (issue 16): files checked by content, and the rollout to simulated stations
// and tags over the embedded broker, on a simulated clock. An upgrade is done only when the
// device reports the new version; the simulator's faults (a corrupted chunk, a connection lost
// halfway, a device that rolls back) each have their test.

const STATION_FW = 200 * 1024;

describe.each(await testDatabases())('firmware upgrades ($name)', (db) => {
  const t = useApp(db, { mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 } });
  let sim: Simulator | undefined;
  afterEach(async () => {
    await sim?.stop();
    sim = undefined;
  });

  const call = async <T>(path: string, body: object, token: string) => {
    const res = await t().call<T>(path, body, { token });
    expect(res.code, `${path}: ${res.msg}`).toBe(0);
    return res.data;
  };

  async function upload(token: string, name: string, bytes: Uint8Array | Buffer, extra?: Buffer) {
    const { payload, headers } = multipartFile(name, Buffer.from(bytes));
    let body = payload;
    if (extra) {
      // A second file in the same request.
      const boundary = headers['content-type'].split('boundary=')[1];
      const end = Buffer.from(`--${boundary}--\r\n`);
      body = Buffer.concat([
        payload.subarray(0, payload.length - end.length),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="second.eslfw"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        extra,
        Buffer.from('\r\n'),
        end,
      ]);
    }
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/saas/sa/uploadver',
      headers: { ...headers, token, 'accept-language': 'en' },
      payload: body,
    });
    return res.json() as { code: number; msg: string; data: FirmwareChoice };
  }

  async function operatorUpload(bytes: Uint8Array, name = 'fw.eslfw') {
    const op = await buildOperator(t().app);
    const res = await upload(op.token, name, bytes);
    expect(res.code, res.msg).toBe(0);
    return res.data;
  }

  interface Shop {
    token: string;
    tenantId: number;
    storeId: number;
    stationId: number;
    sn: string;
    delivery: Delivery;
    sim: Simulator;
    tags: Array<{ id: number; hw: string }>;
  }

  async function settle(d: Delivery) {
    for (let i = 0; i < 4; i++) {
      await d.gateway.idle();
      await d.tasks.idle();
      await d.firmware.pump();
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async function until(s: Shop, what: string, pred: () => boolean | Promise<boolean>, maxMs = 600_000, step = 2000) {
    for (let done = 0; done <= maxMs; done += step) {
      await settle(s.delivery);
      if (await pred()) return;
      t().clock.advance(step);
      await s.sim.clock.advance(step);
      await s.delivery.gateway.tick();
      await s.delivery.tasks.tick();
      await s.delivery.firmware.tick();
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  /** A store with one firmware-capable simulated station and `n` tags of model 05 heard by it. */
  async function shop(
    sn: string,
    faults: FirmwareFaults | ((tags: string[]) => FirmwareFaults) = {},
    n = 0,
    waitForRoutes = true,
  ): Promise<Shop> {
    const app = t();
    const world = await buildShop(app.app);
    const token = world.tokens.admin;
    const at = { tenantId: world.tenant.id, storeId: world.store.id };
    const station = await call<AddStationData>('/mgr/ap/add', { sn }, token);
    const tags: Shop['tags'] = [];
    for (let i = 0; i < n; i++) {
      const tag = await buildTag(app.app, at, { model: '05', productId: null });
      tags.push({ id: tag.id, hw: tag.hardware_id });
    }
    const delivery = app.app.delivery;
    if (!delivery) throw new Error('no broker');
    const s0 = await startSimulator({
      url: delivery.url,
      stations: [
        {
          tenantId: at.tenantId,
          sn: station.sn,
          secret: station.secret,
          model: 'SIM-AP',
          fw: '1.0.0',
          moduleFw: '0.9.0',
          firmware: typeof faults === 'function' ? faults(tags.map((x) => x.hw)) : faults,
          tags: tags.map((x, i) => ({ id: x.hw, hw: '05', wakeS: 40, fw: '1.0.0', x: 2 + i, y: 1 })),
        },
      ],
      speed: 0,
      seed: sn,
      start: app.clock.now(),
    });
    sim = s0;
    const s: Shop = { token, ...at, stationId: station.id, sn: station.sn, delivery, sim: s0, tags };
    await s0.waitFor(() => s0.stations.every((x) => x.isWelcomed), { what: 'welcome' });
    if (n > 0 && waitForRoutes) {
      await until(s, 'tags routed', async () => {
        const rows = await app.app.services.db
          .selectFrom('tags')
          .select('station_id')
          .where('store_id', '=', at.storeId)
          .execute();
        return rows.every((r) => r.station_id !== null);
      });
    }
    return s;
  }

  const tasks = (s: Shop) => call<UpgradeTask[]>('/res/update/list', { limit: 100 }, s.token);
  const taskOf = async (s: Shop, kind: string, device?: string) => {
    const all = await tasks(s);
    const found = all.find((x) => x.kind === kind && (device === undefined || x.device === device));
    if (!found) throw new Error(`no ${kind} task`);
    return found;
  };
  const syslog = async (tenantId: number) =>
    (
      await t()
        .app.services.db.selectFrom('sys_logs')
        .select(['event', 'message'])
        .where('tenant_id', '=', tenantId)
        .orderBy('id')
        .execute()
    ).filter((r) => r.event.startsWith('firmware.'));

  // -------------------------------------------------------------------------------------------

  it('refuses by content what is not an upgrade file, one file at a time, and stores a file once', async () => {
    const op = await buildOperator(t().app);
    const good = buildFirmwareFile({ kind: 'station', version: '3.0.0', models: ['SIM-AP'], size: 4096 });
    const flipped = Buffer.from(good);
    flipped[flipped.length - 1] ^= 1; // the payload no longer matches the header's SHA-256
    const payload = new Uint8Array(100).fill(7);
    const noHw = Buffer.from(good);
    const badHeader = encodeFirmwareFile(
      { kind: 'station', version: '3.0.1', models: ['SIM-AP'], size: 100, sha256: 'a'.repeat(64) },
      payload,
    );
    for (const [name, bytes] of [
      ['firmware.eslfw', Buffer.from('this is a text file, not firmware')],
      ['firmware.eslfw', flipped],
      ['firmware.eslfw', badHeader],
      ['firmware.eslfw', noHw.subarray(0, noHw.length - 10)],
      ['firmware.eslfw', Buffer.alloc(0)],
    ] as const) {
      const res = await upload(op.token, name, bytes);
      expect(res, name).toMatchObject({ code: 1009, msg: 'Invalid file: not an upgrade file' });
    }
    const two = await upload(op.token, 'a.eslfw', good, Buffer.from(good));
    expect(two).toMatchObject({ code: 1009, msg: 'Invalid file: only one file can be selected' });
    // A good file under any name is taken; the same bytes again answer the stored row.
    const first = await upload(op.token, 'ap.bin', good);
    expect(first.code, first.msg).toBe(0);
    expect(first.data).toMatchObject({ kind: 'ap', version: '3.0.0', models: ['SIM-AP'], hw: [] });
    expect(first.data.hash).toBe(createHash('sha256').update(good).digest('hex'));
    const again = await upload(op.token, 'renamed.eslfw', good);
    expect(again.data.id).toBe(first.data.id);
    const listed = await call<Array<{ id: number }>>('/saas/sa/getuploadverlist', {}, op.token);
    expect(listed.filter((r) => r.id === first.data.id)).toHaveLength(1);
    // A tenant's administrator picks from the list but cannot upload.
    const world = await buildShop(t().app);
    expect((await upload(world.tokens.admin, 'ap.bin', good)).code).toBe(1003);
    const choices = await call<FirmwareChoice[]>('/res/update/firmware', { kind: 'ap' }, world.tokens.admin);
    expect(choices.map((c) => c.id)).toContain(first.data.id);
  });

  let resumeAttempt = 0;
  it('resumes a station pull after a disconnect at 50 % from the first missing offset, and is done by the reported version', async () => {
    const fw = await operatorUpload(
      buildFirmwareFile({ kind: 'station', version: '2.0.0', models: ['SIM-AP'], size: STATION_FW }),
    );
    // A retry of this test (vitest retry) gets a station of its own: the first attempt's stays.
    const s = await shop(`FW-RESUME-${++resumeAttempt}`, { disconnectAt: 0.5 });
    const st = s.sim.station(s.sn);
    const started = await call<UpgradeStarted>(
      '/res/update/onUpdateap',
      { firmwareId: fw.id, ids: [s.stationId] },
      s.token,
    );
    expect(started).toEqual({ tasks: 1, incompatible: 0, current: 0 });
    await until(s, 'the station runs 2.0.0', async () => (await taskOf(s, 'apfw')).state === 'done');
    expect(st.fw.ap).toBe('2.0.0');
    expect(st.stats.abruptLosses).toBeGreaterThanOrEqual(1);
    const requested = st.firmwarePlan?.requested ?? [];
    const connects = [...new Set(requested.map((r) => r.connect))];
    expect(connects.length).toBe(2);
    const before = requested.filter((r) => r.connect === connects[0]).map((r) => r.offset);
    const after = requested.filter((r) => r.connect === connects[1]).map((r) => r.offset);
    // After the reconnect it asks only for what it did not have: at most the 4 lost in flight again,
    // starting at or beyond half the file.
    const chunks = Math.ceil(fw.size / 16_384);
    expect(Math.min(...after)).toBeGreaterThanOrEqual(Math.floor(fw.size / 2 / 16_384) * 16_384 - 4 * 16_384);
    expect(before.length + after.length).toBeLessThanOrEqual(chunks + 4);
    expect(new Set([...before, ...after]).size).toBe(chunks);
    const task = await taskOf(s, 'apfw');
    expect(task).toMatchObject({ state: 'done', version: '2.0.0', fromVersion: '1.0.0', attempt: 1 });
    const station = await t()
      .app.services.db.selectFrom('stations')
      .select('firmware')
      .where('id', '=', s.stationId)
      .executeTakeFirstOrThrow();
    expect(station.firmware).toBe('2.0.0');
    const steps = (await syslog(s.tenantId)).map((r) => r.event);
    // 'firmware.installing' comes between them when the station's `ok` is handled before it comes
    // back on 2.0.0; on a loaded machine the restart's hello can come first (the `ok` still in its
    // outbox), and the reported version alone makes it done (docs/PROTOCOL.md §10).
    expect(steps).toEqual(expect.arrayContaining(['firmware.queued', 'firmware.sent']));
    expect(steps.at(-1)).toBe('firmware.done');
  });

  it('retries after a corrupted chunk (badBlob) and then installs', async () => {
    const fw = await operatorUpload(
      buildFirmwareFile({ kind: 'station', version: '2.1.0', models: ['SIM-AP'], size: 64 * 1024 }),
    );
    const s = await shop('FW-CORRUPT', { corruptChunkAt: 16_384 });
    await call('/res/update/onUpdateap', { firmwareId: fw.id, ids: [s.stationId] }, s.token);
    await until(s, 'the retry installs', async () => (await taskOf(s, 'apfw')).state === 'done');
    const st = s.sim.station(s.sn);
    expect(st.stats.results.badBlob).toBe(1);
    expect(await taskOf(s, 'apfw')).toMatchObject({ state: 'done', attempt: 2 });
    expect(st.fw.ap).toBe('2.1.0');
    const retry = (await syslog(s.tenantId)).find((r) => r.event === 'firmware.retry');
    expect(retry?.message).toMatch(/did not match its SHA-256/);
  });

  it('reports a station that comes back on its old version as rolled back', async () => {
    const fw = await operatorUpload(
      buildFirmwareFile({ kind: 'station', version: '2.2.0', models: ['SIM-AP'], size: 32 * 1024 }),
    );
    const s = await shop('FW-ROLLBACK', { rollBack: true });
    await call('/res/update/onUpdateap', { firmwareId: fw.id, ids: [s.stationId] }, s.token);
    await until(s, 'the upgrade ends', async () => (await taskOf(s, 'apfw')).state === 'failed');
    expect(await taskOf(s, 'apfw')).toMatchObject({ state: 'failed', code: 'rolledBack' });
    const st = s.sim.station(s.sn);
    expect(st.stats.reboots).toBe(1);
    expect(st.fw.ap).toBe('1.0.0');
    const last = (await syslog(s.tenantId)).at(-1);
    expect(last).toMatchObject({ event: 'firmware.failed' });
    expect(last?.message).toMatch(/rolled back: the device came back on 1\.0\.0/);
  });

  it('upgrades a radio module, refuses firmware of another model, and leaves a current device alone', async () => {
    const module = await operatorUpload(
      buildFirmwareFile({ kind: 'module', version: '0.9.5', models: ['SIM-AP'], size: 8 * 1024 }),
    );
    const other = await operatorUpload(
      buildFirmwareFile({ kind: 'station', version: '9.0.0', models: ['OTHER-AP'], size: 1024 }),
    );
    const s = await shop('FW-MODULE');
    const wrong = await call<UpgradeStarted>(
      '/res/update/onUpdateap',
      { firmwareId: other.id, ids: [s.stationId] },
      s.token,
    );
    expect(wrong).toEqual({ tasks: 0, incompatible: 1, current: 0 });
    const mixedUp = await t().call(
      '/res/update/onupdatemodules',
      { firmwareId: other.id, ids: [s.stationId] },
      {
        token: s.token,
      },
    );
    expect(mixedUp.code).toBe(1001);
    await call('/res/update/onupdatemodules', { firmwareId: module.id, ids: [s.stationId] }, s.token);
    await until(s, 'the module runs 0.9.5', async () => (await taskOf(s, 'modulefw')).state === 'done');
    expect(s.sim.station(s.sn).fw.module).toBe('0.9.5');
    const again = await call<UpgradeStarted>(
      '/res/update/onupdatemodules',
      { firmwareId: module.id, ids: [s.stationId] },
      s.token,
    );
    expect(again).toEqual({ tasks: 0, incompatible: 0, current: 1 });
  });

  it('upgrades tags one at a time per station, done by their reports; a tag that rolls back is logged', async () => {
    const fw = await operatorUpload(buildFirmwareFile({ kind: 'tag', version: '1.1.0', hw: ['05'], size: 4096 }));
    // The simulated station advertises caps.fwConcurrent 1: one tag transfer at a time.
    const s = await shop('FW-TAGS', (tags) => ({ rollBackTags: [tags[2]] }), 3);
    const rollsBack = s.tags[2].hw;
    const started = await call<UpgradeStarted>('/res/update/onUpdateesl', { firmwareId: fw.id }, s.token);
    expect(started).toEqual({ tasks: 3, incompatible: 0, current: 0 });
    let most = 0;
    await until(s, 'every tag upgrade ends', async () => {
      const all = (await tasks(s)).filter((x) => x.kind === 'tagfw');
      most = Math.max(most, all.filter((x) => x.state === 'sent' || x.state === 'accepted').length);
      return all.every((x) => x.state === 'done' || x.state === 'failed');
    });
    expect(most).toBe(1);
    const all = (await tasks(s)).filter((x) => x.kind === 'tagfw');
    expect(
      all
        .filter((x) => x.state === 'done')
        .map((x) => x.device)
        .sort(),
    ).toEqual([s.tags[0].hw, s.tags[1].hw].sort());
    expect(all.find((x) => x.device === rollsBack)).toMatchObject({ state: 'failed', code: 'rolledBack' });
    const db = t().app.services.db;
    const rows = await db.selectFrom('tags').select(['hardware_id', 'fw']).where('store_id', '=', s.storeId).execute();
    expect(Object.fromEntries(rows.map((r) => [r.hardware_id, r.fw]))).toEqual({
      [s.tags[0].hw]: '1.1.0',
      [s.tags[1].hw]: '1.1.0',
      [rollsBack]: '1.0.0',
    });
    const log = await db
      .selectFrom('tag_log')
      .select(['hardware_id', 'kind', 'result', 'code'])
      .where('store_id', '=', s.storeId)
      .execute();
    expect(
      log
        .filter((r) => r.kind === 'tagfw')
        .map((r) => `${r.hardware_id} ${r.result} ${r.code}`)
        .sort(),
    ).toEqual([`${s.tags[0].hw} ok `, `${s.tags[1].hw} ok `, `${rollsBack} failed rolledBack`].sort());
    const en = await call<Array<{ message: string; hardwareId: string }>>(
      '/log/taglog/esltasklist',
      { hardwareId: rollsBack },
      s.token,
    );
    expect(en[0]?.message).toBe('Tag firmware update failed: rolled back to the old version');
  });

  it('stop cancels the queued tag upgrades; the one already at the station goes on', async () => {
    const fw = await operatorUpload(buildFirmwareFile({ kind: 'tag', version: '1.2.0', hw: ['05'], size: 4096 }));
    const s = await shop('FW-STOP', {}, 3);
    await call('/res/update/onUpdateesl', { firmwareId: fw.id }, s.token);
    await until(s, 'one tag upgrade at the station', async () => (await tasks(s)).some((x) => x.state === 'accepted'));
    const stopped = await call<{ cancelled: number; stopping: number }>('/res/update/onstopupdateesl', {}, s.token);
    expect(stopped).toEqual({ cancelled: 2, stopping: 1 });
    await until(s, 'the started one ends', async () =>
      (await tasks(s)).every((x) => ['done', 'failed', 'cancelled'].includes(x.state)),
    );
    const all = await tasks(s);
    // The two queued ones never started; the third was already at the station (its transfer
    // finishes, or the station drops it if the tag had not checked in yet).
    expect(all.filter((x) => x.state === 'cancelled').length).toBeGreaterThanOrEqual(2);
    const cancelled = all.filter((x) => x.state === 'cancelled').map((x) => x.device);
    // Nothing cancelled reached a tag: those tags still run their old firmware.
    const st = s.sim.station(s.sn);
    for (const hw of cancelled) expect(st.tags.get(hw)?.fw).toBe('1.0.0');
    const cancelledLog = async () =>
      (
        await t()
          .app.services.db.selectFrom('tag_log')
          .select(['hardware_id', 'result', 'code'])
          .where('store_id', '=', s.storeId)
          .where('kind', '=', 'tagfw')
          .execute()
      ).filter((r) => r.result === 'cancelled');
    // The station's own cancel writes its log row just after the task's state (station.ts).
    await until(
      s,
      'a log row for each cancelled upgrade',
      async () => (await cancelledLog()).length >= cancelled.length,
    );
    expect((await cancelledLog()).map((r) => r.hardware_id).sort()).toEqual(cancelled.sort());
  });

  // Label work that is due at the station holds tag upgrades back (engine.test.ts); a label update
  // waiting out an hour's backoff (its tag not heard) must not hold them for that hour.
  it('does not hold tag upgrades back for a label update that backs off', async () => {
    const fw = await operatorUpload(buildFirmwareFile({ kind: 'tag', version: '1.3.0', hw: ['05'], size: 4096 }));
    const s = await shop('FW-LABELS', {}, 1);
    const db = t().app.services.db;
    const now = t().clock.now();
    await db
      .insertInto('device_tasks')
      .values({
        tenant_id: s.tenantId,
        store_id: s.storeId,
        target_key: `t:${s.tags[0].id}`,
        tag_id: s.tags[0].id,
        station_id: s.stationId,
        kind: 'led',
        prio: 0,
        state: 'queued',
        request_id: null,
        code: null,
        detail: null,
        sent_rev: null,
        hash: null,
        size: null,
        wake_at: null,
        ttl_s: null,
        ack_deadline: null,
        done_deadline: null,
        lease_owner: null,
        lease_until: null,
        queued_at: now,
        rendered_at: null,
        sent_at: null,
        accepted_at: null,
        finished_at: null,
        payload: JSON.stringify({ colour: 'green', onMs: 100, offMs: 100, count: 1, repeat: 1 }),
        created_at: now,
        not_before: now + 3_600_000,
      })
      .execute();
    await call('/res/update/onUpdateesl', { firmwareId: fw.id }, s.token);
    await until(s, 'the tag runs 1.3.0', async () => (await taskOf(s, 'tagfw')).state === 'done');
    const label = await db.selectFrom('device_tasks').select('state').where('store_id', '=', s.storeId).execute();
    expect(label).toEqual([{ state: 'queued' }]);
  });

  it('sends a queued tag upgrade once its tag is first heard (no route when it was asked for)', async () => {
    const fw = await operatorUpload(buildFirmwareFile({ kind: 'tag', version: '1.4.0', hw: ['05'], size: 2048 }));
    const s = await shop('FW-ROUTE', {}, 1, false);
    const started = await call<UpgradeStarted>('/res/update/onUpdateesl', { firmwareId: fw.id }, s.token);
    expect(started.tasks).toBe(1);
    const row = await t()
      .app.services.db.selectFrom('firmware_tasks')
      .select('station_id')
      .where('tenant_id', '=', s.tenantId)
      .executeTakeFirstOrThrow();
    expect(row.station_id).toBeNull();
    await until(s, 'the tag runs 1.4.0', async () => (await taskOf(s, 'tagfw')).state === 'done');
    expect(s.sim.station(s.sn).tags.get(s.tags[0].hw)?.fw).toBe('1.4.0');
  });
});
