import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { AddStationData } from '@esl/contract';
import { type OeplAp, startOeplAp, VirtualClock } from '@esl/simulator';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases';
import { useApp } from '../test/harness';
import { differingPixels, emuTagsOf, screenOf, seedOeplShop } from '../test/oepl';

// kill -9 of a standalone bridge in the middle of a refresh (issue 24): the real server (real
// time, its sweeper running), the bridge as its own process exactly as `npm run bridge` runs it
// (`node --import tsx src/cli.ts` in apps/bridge: npm itself would survive a SIGKILL of its child
// and the other way round), an emulated AP at ×10 in this process. The bridge is SIGKILLed once
// the AP has taken some of the new labels but not all tags show them, a price changes while it is
// gone, and it is started again: every tag ends on its current label, to the pixel.

const CLI = join(new URL('../../../bridge/src/cli.ts', import.meta.url).pathname);
const BRIDGE_DIR = join(CLI, '..', '..');

function startBridgeProcess(args: string[], out: string[]): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: BRIDGE_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => out.push(String(d)));
  child.stderr?.on('data', (d) => out.push(String(d)));
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

async function waitFor(what: string, pred: () => boolean | Promise<boolean>, maxMs = 120_000): Promise<void> {
  const until = Date.now() + maxMs;
  while (Date.now() < until) {
    if (await pred()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.each(await testDatabases())('kill -9 of a standalone OEPL bridge mid refresh ($name)', (db) => {
  const t = useApp(db, {
    mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 },
    now: Date.now,
    deliveryTickMs: 500,
  });
  const clock = new VirtualClock({ speed: 10 });
  let ap: OeplAp | undefined;
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await Promise.all(children.map(exited));
    await ap?.stop();
    clock.stop();
  });

  // A retry (vitest runs a failed server test once more) seeds its own tags and station in the
  // same database: MACs and station numbers from a range of its own.
  let attempt = 0;
  it('restarted, it brings every tag to its current label', { timeout: 600_000 }, async () => {
    attempt++;
    const app = t().app;
    const delivery = app.delivery;
    if (!delivery) throw new Error('no broker');
    const shop = await seedOeplShop(app, t().call, 3, { firstMac: 1 + (attempt - 1) * 1000 });
    await ap?.stop();
    ap = await startOeplAp({ clock, tags: emuTagsOf(shop.tags), maxsleep: 1 });
    const emu = ap;
    const station = await shop.must<AddStationData>('/mgr/ap/add', { sn: `OEPL-K9-${db.name}-${attempt}` });
    const args = [
      '--ap',
      emu.url,
      '--url',
      delivery.url,
      '--station',
      `${shop.tenantId}.${station.sn}:${station.secret}`,
      '--pace',
      '50',
    ];
    const out: string[] = [];
    const rows = () => app.services.db.selectFrom('tags').selectAll().where('store_id', '=', shop.storeId).execute();
    const current = async () => {
      const now = await rows();
      return shop.tags.filter((tag) => {
        const row = now.find((r) => r.id === tag.id);
        return row?.desired_hash && row.desired_hash === row.shown_hash && screenOf(emu, tag.mac) !== null;
      }).length;
    };

    let bridge = startBridgeProcess(args, out);
    children.push(bridge);
    await waitFor('tags reported by the bridge', async () => (await rows()).every((r) => r.station_id === station.id));
    // A refresh of the store: every price changes; kill -9 once the AP has some but not all.
    const uploadsBefore = emu.ap.uploads.length;
    for (const tag of shop.tags) await shop.must('/mgr/product/alert', { id: tag.productId, price: '7.77' });
    await waitFor('some uploads', () => emu.ap.uploads.length >= uploadsBefore + 2);
    expect(await current()).toBeLessThan(shop.tags.length);
    bridge.kill('SIGKILL');
    await exited(bridge);
    expect(bridge.signalCode).toBe('SIGKILL');
    // While it is gone one price changes again: the current label moves on.
    const last = shop.tags[shop.tags.length - 1];
    if (!last) throw new Error('tags');
    await shop.must('/mgr/product/alert', { id: last.productId, price: '8.88' });

    out.push('--- killed; restarted ---\n');
    bridge = startBridgeProcess(args, out);
    children.push(bridge);
    await waitFor(
      'every tag on its current label',
      async () =>
        (await current()) === shop.tags.length &&
        (
          await app.services.db
            .selectFrom('device_tasks')
            .select('tag_id')
            .where('state', 'in', ['render', 'queued', 'sent', 'accepted'])
            .execute()
        ).length === 0,
      300_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${out.join('').slice(-3000)}`);
    });
    for (const row of await rows()) {
      const tag = shop.tags.find((x) => x.id === row.id);
      const screen = tag ? screenOf(emu, tag.mac) : null;
      if (!tag || !screen || !row.desired_hash) throw new Error(`tag ${row.id}`);
      const differing = await differingPixels(app, shop.tenantId, row.desired_hash, tag.hwType, screen);
      // The bridge's own account of each tag, when a tag shows something else.
      expect(differing, `${tag.mac}\n${out.join('').slice(-3000)}`).toBe(0);
    }
    bridge.kill('SIGTERM');
    await exited(bridge);
  });
});
