import { topics } from '@esl/contract/protocol';
import { describe, expect, it } from 'vitest';
import type { TaskState } from '../../infra/db/schema';
import { IMAGE_KEEP_MS, storeImages } from '../../infra/render';
import { buildShop, buildStation, buildTag } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { testImage } from '../../test/delivery';
import { useApp } from '../../test/harness';
import { jobId } from './policy';

// The task state machine driven directly (DELIVERY.md §5.2): deadlines, stale and foreign
// results, the blob guard. Slots are written as a crash or a lost message would leave them.

describe.each(await testDatabases())('task engine transitions ($name)', (db) => {
  const t = useApp(db, { mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 } });

  async function setup() {
    const shop = await buildShop(t().app);
    const at = { tenantId: shop.tenant.id, storeId: shop.store.id };
    const station = await buildStation(t().app, at, {
      sn: `ENG${Math.random().toString(36).slice(2, 6).toUpperCase()}`,
    });
    const other = await buildStation(t().app, at);
    const tag = await buildTag(t().app, at, { model: '05' });
    const image = testImage('05', 3);
    await t()
      .app.services.db.transaction()
      .execute((trx) =>
        storeImages(
          trx,
          at.tenantId,
          [{ ...image, size: image.bytes.length, width: 250, height: 122, colour: 'bwr' }],
          t().clock.now(),
        ),
      );
    const engine = t().app.delivery?.tasks;
    if (!engine) throw new Error('no engine');
    const ref = { id: station.id, tenant_id: at.tenantId, store_id: at.storeId, sn: station.sn };
    return { at, station, other, tag, image, engine, ref };
  }

  async function slot(
    s: Awaited<ReturnType<typeof setup>>,
    fields: {
      state: TaskState;
      rev?: number;
      attempt?: number;
      ack_deadline?: number;
      done_deadline?: number;
      tagId?: number;
    },
  ) {
    const now = t().clock.now();
    const tagId = fields.tagId ?? s.tag.id;
    return t()
      .app.services.db.insertInto('device_tasks')
      .values({
        tenant_id: s.at.tenantId,
        store_id: s.at.storeId,
        target_key: `t:${tagId}`,
        tag_id: tagId,
        station_id: s.station.id,
        kind: 'image',
        request_id: null,
        prio: 1,
        state: fields.state,
        rev: fields.rev ?? 1,
        sent_rev: fields.rev ?? 1,
        hash: s.image.hash,
        size: s.image.bytes.length,
        attempt: fields.attempt ?? 1,
        ttl_s: 300,
        ack_deadline: fields.ack_deadline ?? null,
        done_deadline: fields.done_deadline ?? null,
        created_at: now,
        sent_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }
  const read = (id: number) =>
    t().app.services.db.selectFrom('device_tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('sends again a job whose ack did not come in time', async () => {
    const s = await setup();
    const row = await slot(s, { state: 'sent', ack_deadline: t().clock.now() + 15_000 });
    await s.engine.tick();
    expect((await read(row.id)).state).toBe('sent');
    t().clock.advance(16_000);
    await s.engine.tick();
    await s.engine.idle();
    // The station is offline, so it waits queued for it.
    expect(await read(row.id)).toMatchObject({ state: 'queued', rev: 1 });
  });

  it('retries with a backoff a job whose result did not come, and fails it after the last attempt', async () => {
    const s = await setup();
    const row = await slot(s, { state: 'accepted', attempt: 2, done_deadline: t().clock.now() + 1000 });
    t().clock.advance(2000);
    await s.engine.tick();
    const retried = await read(row.id);
    expect(retried).toMatchObject({ state: 'queued', code: 'timeout' });
    // Attempt 2 waits 60 s ± 20 %.
    expect(Number(retried.not_before) - t().clock.now()).toBeGreaterThanOrEqual(48_000);
    expect(Number(retried.not_before) - t().clock.now()).toBeLessThanOrEqual(72_000);

    await t().app.services.db.deleteFrom('device_tasks').where('id', '=', row.id).execute();
    const last = await slot(s, { state: 'accepted', attempt: 8, done_deadline: t().clock.now() - 1 });
    await s.engine.tick();
    expect(await read(last.id)).toMatchObject({ state: 'failed', code: 'timeout' });
    const log = await t().app.services.db.selectFrom('tag_log').selectAll().where('tag_id', '=', s.tag.id).execute();
    expect(log).toMatchObject([{ result: 'failed', code: 'timeout', rev: 1, attempts: 8 }]);
  });

  it('ignores a result for an older rev (but the tag shows it), and one from another station', async () => {
    const s = await setup();
    const row = await slot(s, { state: 'accepted', rev: 3 });
    const ver = s.image.hash.slice(0, 16);
    const at = t().clock.now();
    await s.engine.onResult(s.ref, {
      v: 1,
      results: [{ id: jobId(row.id), rev: 2, code: 'ok', tag: s.tag.hardware_id, ver, at }],
    });
    expect(await read(row.id)).toMatchObject({ state: 'accepted', rev: 3 });
    const tag = await t()
      .app.services.db.selectFrom('tags')
      .selectAll()
      .where('id', '=', s.tag.id)
      .executeTakeFirstOrThrow();
    expect(tag.shown_ver).toBe(ver);
    const foreign = { ...s.ref, id: s.other.id, sn: s.other.sn };
    await s.engine.onResult(foreign, { v: 1, results: [{ id: jobId(row.id), rev: 3, code: 'ok', ver, at }] });
    expect((await read(row.id)).state).toBe('accepted');
    // A duplicate of the right result ends it once.
    for (let i = 0; i < 2; i++) {
      await s.engine.onResult(s.ref, { v: 1, results: [{ id: jobId(row.id), rev: 3, code: 'ok', ver, at }] });
    }
    expect(await read(row.id)).toMatchObject({ state: 'done', code: 'ok' });
    const log = await t().app.services.db.selectFrom('tag_log').selectAll().where('tag_id', '=', s.tag.id).execute();
    expect(log.map((r) => [r.rev, r.result])).toEqual([
      [2, 'ok'],
      [3, 'ok'],
    ]);
  });

  it('resyncs with a hello: held jobs stay, missing ones are sent again, unknown ones cancelled', async () => {
    const s = await setup();
    const more = await Promise.all([0, 1, 2].map(() => buildTag(t().app, s.at, { model: '05' })));
    const [b, c, d] = more.map((x) => x.id) as [number, number, number];
    const held = await slot(s, { state: 'accepted', rev: 1 });
    const unacked = await slot(s, { state: 'sent', rev: 2, tagId: b });
    const lost = await slot(s, { state: 'accepted', rev: 3, tagId: c });
    const requeued = await slot(s, { state: 'queued', rev: 4, tagId: d });
    const delivery = t().app.delivery;
    if (!delivery) throw new Error('delivery');
    const cancels: unknown[] = [];
    const off = await delivery.port.subscribe(`esl/v1/${s.at.tenantId}/${s.station.sn}/down/cancel`, (m) =>
      cancels.push(JSON.parse(m.payload.toString())),
    );
    await s.engine.onHello(s.ref, {
      v: 1,
      connId: 'conn-1',
      boot: 2,
      model: 'sim',
      fw: { ap: '1.0.0' },
      radio: { profile: 'oepl-2g4', channel: 11, kbps: 250 },
      caps: { queue: 64, queueBytes: 1 << 20, inlineMax: 16_384, chunk: 16_384, fwConcurrent: 1, kinds: ['image'] },
      queue: [
        [jobId(held.id), 1],
        [jobId(unacked.id), 2],
        [jobId(requeued.id), 4],
        ['zz', 1],
      ],
      outbox: 0,
      net: { ip: '10.0.0.2', mac: '02:00:00:00:00:01' },
      cfgRev: 0,
      time: t().clock.now(),
    });
    await s.engine.idle();
    for (let i = 0; i < 100 && cancels.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 50));
    await off();
    expect((await read(held.id)).state).toBe('accepted');
    expect((await read(unacked.id)).state).toBe('accepted');
    expect((await read(lost.id)).state).toBe('queued');
    expect((await read(requeued.id)).state).toBe('queued');
    expect(cancels).toEqual([{ v: 1, ids: [['zz', 1]], reason: 'unknown' }]);
  });

  it('serves a blob only to the station whose unfinished job names its hash', async () => {
    const s = await setup();
    const served = s.engine.counters.blobsServed;
    const refused = s.engine.counters.blobsRefused;
    const ask = { v: 1 as const, hash: s.image.hash, offset: 0, length: 512 };
    await s.engine.onBlob(s.ref, ask);
    expect(s.engine.counters.blobsRefused).toBe(refused + 1);
    await slot(s, { state: 'accepted' });
    await s.engine.onBlob({ ...s.ref, id: s.other.id, sn: s.other.sn }, ask);
    expect(s.engine.counters.blobsRefused).toBe(refused + 2);
    await s.engine.onBlob(s.ref, ask);
    expect(s.engine.counters.blobsServed).toBe(served + 1);
  });

  it('collects stored images no tag wants or shows, once an hour from the delivery tick', async () => {
    const s = await setup();
    const images = () =>
      t()
        .app.services.db.selectFrom('tag_images')
        .select('hash')
        .where('tenant_id', '=', s.at.tenantId)
        .execute()
        .then((rows) => rows.map((r) => r.hash));
    // The image of setup() is wanted by nobody: a week and an hour later the tick deletes it.
    expect(await images()).toEqual([s.image.hash]);
    t().clock.advance(IMAGE_KEEP_MS + 3_600_000);
    await s.engine.tick();
    expect(await images()).toEqual([]);
    const collected = s.engine.counters.imagesCollected;
    expect(collected).toBeGreaterThanOrEqual(1);
    // One unused for two weeks and one a tag wants: within the hour nothing runs; then only the first goes.
    const old = testImage('05', 5);
    const wanted = testImage('05', 6);
    await t()
      .app.services.db.transaction()
      .execute((trx) =>
        storeImages(
          trx,
          s.at.tenantId,
          [old, wanted].map((x) => ({ ...x, size: x.bytes.length, width: 250, height: 122, colour: 'bwr' })),
          t().clock.now() - 2 * IMAGE_KEEP_MS,
        ),
      );
    await t()
      .app.services.db.updateTable('tags')
      .set({ desired_hash: wanted.hash })
      .where('id', '=', s.tag.id)
      .execute();
    t().clock.advance(60_000);
    await s.engine.tick();
    expect((await images()).sort()).toEqual([old.hash, wanted.hash].sort());
    t().clock.advance(3_600_000);
    await s.engine.tick();
    expect(await images()).toEqual([wanted.hash]);
    expect(s.engine.counters.imagesCollected).toBeGreaterThanOrEqual(collected + 1);
  });

  it('takes a job back from the station a tag left, tells that station to drop it, and leaves others alone', async () => {
    const s = await setup();
    const port = t().app.delivery?.port;
    if (!port) throw new Error('no port');
    const cancels: unknown[] = [];
    const off = await port.subscribe(topics.down({ tenantId: s.at.tenantId, sn: s.station.sn }, 'cancel'), (m) =>
      cancels.push(JSON.parse(m.payload.toString())),
    );
    const staying = await buildTag(t().app, s.at, { model: '05' });
    const moved = await slot(s, { state: 'accepted', rev: 3, done_deadline: t().clock.now() + 600_000 });
    const kept = await slot(s, { state: 'accepted', tagId: staying.id, done_deadline: t().clock.now() + 600_000 });
    await t()
      .app.services.db.updateTable('tags')
      .set({ station_id: s.station.id })
      .where('id', '=', staying.id)
      .execute();
    await t().app.services.db.updateTable('tags').set({ station_id: s.other.id }).where('id', '=', s.tag.id).execute();
    const before = s.engine.counters.rerouted;
    await s.engine.onTagsReported([s.tag.id, staying.id]);
    await s.engine.idle();
    // Queued again at the same revision for the new route (the other station is offline: it waits).
    expect(await read(moved.id)).toMatchObject({ state: 'queued', rev: 3 });
    expect((await read(kept.id)).state).toBe('accepted');
    expect(s.engine.counters.rerouted).toBe(before + 1);
    for (let i = 0; i < 20 && cancels.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(cancels).toEqual([{ v: 1, ids: [[jobId(moved.id), 3]], reason: 'moved' }]);
    // Reported again: nothing more to take back.
    await s.engine.onTagsReported([s.tag.id]);
    expect(s.engine.counters.rerouted).toBe(before + 1);
    await off();
  });

  it('sizes a station’s window from the service rate its heartbeats measure', async () => {
    const s = await setup();
    const beat = (busyPct: number, svcPerS: number) => ({
      v: 1 as const,
      at: t().clock.now(),
      uptimeS: 100,
      cpu: 5,
      mem: 5,
      disk: 5,
      queue: { jobs: 0, bytes: 0 },
      radio: { busyPct, svcPerS, tx: 0, rx: 0, crcErr: 0 },
      tagsHeard: 1,
      cfgRev: 0,
    });
    // The profile's estimate (9.7/s) until a heartbeat says otherwise: the queue (256) bounds it.
    expect(s.engine.windowOf(s.station.id)).toEqual({ svcPerS: 9.7, window: 256 });
    // A radio busy all the time serving 1 tag/s: two wakes' worth, 80 jobs.
    s.engine.onHeartbeat(s.ref, beat(100, 1));
    expect(s.engine.windowOf(s.station.id)).toEqual({ svcPerS: 1, window: 80 });
    // An idle radio says nothing about what it could serve: no change.
    s.engine.onHeartbeat(s.ref, beat(2, 0.1));
    expect(s.engine.windowOf(s.station.id).svcPerS).toBe(1);
    // Half busy at 1.5/s → 3/s of capacity, smoothed with what came before.
    s.engine.onHeartbeat(s.ref, beat(50, 1.5));
    expect(s.engine.windowOf(s.station.id).svcPerS).toBeCloseTo(0.7 * 1 + 0.3 * 3, 6);
    // Another station keeps the estimate.
    expect(s.engine.windowOf(s.other.id).svcPerS).toBe(9.7);
  });
  it('re-opens a failed label when its tag is heard, but not for a failure the same picture would meet again', async () => {
    const s = await setup();
    const db = t().app.services.db;
    const now = t().clock.now();
    const failed = async (code: string, battery: number, holdBattery: number | null = null) => {
      const tag = await buildTag(t().app, s.at, { model: '05', battery });
      // The tag should show the image, shows nothing, and was heard after the task failed.
      await db
        .updateTable('tags')
        .set({ desired_hash: s.image.hash, last_seen: now })
        .where('id', '=', tag.id)
        .execute();
      const row = await slot(s, { state: 'failed', tagId: tag.id });
      await db
        .updateTable('device_tasks')
        .set({ code, finished_at: now - 1000, hold_battery: holdBattery })
        .where('id', '=', row.id)
        .execute();
      return { tag: tag.id, slot: row.id };
    };
    const timeout = await failed('timeout', 80);
    const unsupported = await failed('unsupported', 80);
    const invalid = await failed('invalid', 80);
    const display = await failed('displayError', 80);
    // Refused at 30 %; the report before the refusal said 35 %, the one after it 22 %.
    const battery = await failed('lowBattery', 22, 35);
    const all = [timeout, unsupported, invalid, display, battery];
    const ids = all.map((x) => x.tag);
    const states = async () => {
      const rows = await db
        .selectFrom('device_tasks')
        .select(['id', 'state'])
        .where(
          'id',
          'in',
          all.map((x) => x.slot),
        )
        .execute();
      const by = new Map(rows.map((r) => [r.id, r.state]));
      return all.map((x) => by.get(x.slot));
    };
    const heard = (tagIds: number[], fields: { battery?: number } = {}) =>
      db
        .updateTable('tags')
        .set({ last_seen: t().clock.now(), ...fields })
        .where('id', 'in', tagIds)
        .execute();

    // Heard: only the timeout is tried again; the battery hold is the lowest reported since.
    expect(await s.engine.reconcile(ids)).toBe(1);
    expect(await states()).toEqual(['queued', 'failed', 'failed', 'failed', 'failed']);
    const hold = () =>
      db.selectFrom('device_tasks').select('hold_battery').where('id', '=', battery.slot).executeTakeFirstOrThrow();
    expect((await hold()).hold_battery).toBe(22);
    // An hour of reports with the battery a little up: still nothing.
    t().clock.advance(3_600_000);
    await heard(ids, { battery: 28 });
    expect(await s.engine.reconcile(ids)).toBe(0);
    // A new cell (ten points above the lowest): the label goes out again.
    await heard([battery.tag], { battery: 95 });
    expect(await s.engine.reconcile(ids)).toBe(1);
    expect(await states()).toEqual(['queued', 'failed', 'failed', 'failed', 'queued']);
    // A day after it failed, the panel error is tried once more; unsupported and invalid never are.
    t().clock.advance(24 * 3_600_000);
    await heard(ids);
    expect(await s.engine.reconcile()).toBeGreaterThanOrEqual(1);
    expect(await states()).toEqual(['queued', 'failed', 'failed', 'queued', 'queued']);
  });
});
