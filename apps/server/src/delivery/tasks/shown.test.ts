import { describe, expect, it } from 'vitest';
import { buildShop, buildTag } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';
import { setShown } from './repository';

// A result 'ok' means the tag was just heard showing `ver`: its status follows at once, not at
// the next tag report (the tags page showed "Online" beside an up-to-date screen until then).

describe.each(await testDatabases())('a confirmed screen sets the tag status ($name)', (db) => {
  const t = useApp(db);

  it('normal when the tag shows what it should, online while another label is due', async () => {
    const { app } = t();
    const { tenant, store } = await buildShop(app);
    const tag = await buildTag(app, { tenantId: tenant.id, storeId: store.id }, { status: 'online' });
    const desired = 'ab'.repeat(32);
    const { db } = app.services;
    await db.updateTable('tags').set({ desired_hash: desired }).where('id', '=', tag.id).execute();
    const status = async () =>
      (await db.selectFrom('tags').select('status').where('id', '=', tag.id).executeTakeFirstOrThrow()).status;

    const now = t().clock.now();
    await setShown(db, { tagId: tag.id, ver: 'cd'.repeat(8), hash: null, now, seenAt: now });
    expect(await status()).toBe('online');
    await setShown(db, { tagId: tag.id, ver: desired.slice(0, 16), hash: desired, now, seenAt: now });
    expect(await status()).toBe('normal');
  });
});
