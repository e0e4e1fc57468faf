import { TemplateDocument } from '@esl/labels';
import { afterEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases';
import { useApp } from '../test/harness';
import { PRICE_DOC, simulatedShops } from '../test/simulated-shop';

// NFC content (issue 29 item 7, docs/SHELF.md) on the real server and simulated stations, on a
// speeded-up clock: a template names the product field written to the tag's NFC chip; the tag's
// chip follows the field, and a change the field does not see writes nothing.

/** The shop's price label, its product URL (the `qrcode` field) written to NFC. */
const WITH_NFC = TemplateDocument.parse({ ...PRICE_DOC, nfc: { key: 'qrcode' } });

describe.each(await testDatabases())('NFC content on simulated tags ($name)', (db) => {
  const t = useApp(db, { mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 } });
  const steps = simulatedShops(t);
  afterEach(() => steps.stop());

  it('writes the bound field to the tag, follows its changes, and not a price change', async () => {
    const s = await steps.shop({ sn: db.name === 'sqlite' ? 'NFC-S' : 'NFC-P', tags: 1 });
    const [a] = s.tags;
    if (!a) throw new Error('tag');
    const tag = s.sim.tag(a.hw);
    const nfcSlot = () =>
      t()
        .app.services.db.selectFrom('device_tasks')
        .select(['rev', 'state', 'prio'])
        .where('tag_id', '=', a.id)
        .where('kind', '=', 'nfc')
        .executeTakeFirst();

    // The shop's template writes no NFC: the label is delivered, the chip stays empty.
    await steps.call('/mgr/product/alert', { id: a.productId, qrcode: 'https://shop.example/p/1' }, s.token);
    const first = await steps.expectedHash(s, { name: 'Apple 0', price: '1.00' });
    await steps.until(s, 'the label', () => tag.screen()?.hash === first);
    expect(tag.nfc).toBeNull();
    expect(await nfcSlot()).toBeUndefined();

    // The template names the field: the tag's chip gets the product's URL.
    await steps.call('/mgr/templ/alerttempData', { id: s.templateId, doc: WITH_NFC }, s.token);
    await steps.until(s, 'the URL on the chip', () => tag.nfc?.value === 'https://shop.example/p/1');
    expect(tag.nfc).toEqual({ type: 'uri', value: 'https://shop.example/p/1' });
    expect(tag.nfcWrites).toBe(1);
    await steps.until(s, 'the NFC slot done', async () => (await nfcSlot())?.state === 'done');
    expect(await nfcSlot()).toMatchObject({ rev: 1, state: 'done', prio: 2 });

    // The product's URL changes: the chip follows.
    await steps.call('/mgr/product/alert', { id: a.productId, qrcode: 'https://shop.example/p/1?v=2' }, s.token);
    await steps.until(s, 'the new URL', () => tag.nfc?.value === 'https://shop.example/p/1?v=2');
    expect(tag.nfcWrites).toBe(2);
    await steps.until(s, 'the second NFC slot done', async () => (await nfcSlot())?.state === 'done');
    expect(await nfcSlot()).toMatchObject({ rev: 2, state: 'done' });

    // A price change redraws the label but leaves the chip alone: no NFC job at all.
    await steps.call('/mgr/product/alert', { id: a.productId, price: '4.20' }, s.token);
    const priced = await steps.expectedHash(s, { name: 'Apple 0', price: '4.20' });
    await steps.until(s, 'the new price', () => tag.screen()?.hash === priced);
    await steps.advance(s, 60_000);
    expect(tag.nfcWrites).toBe(2);
    expect(await nfcSlot()).toMatchObject({ rev: 2, state: 'done' });
    // Two NFC jobs went out in all, both to this tag.
    expect(s.otherJobs.filter((j) => j.kind === 'nfc')).toEqual([
      { kind: 'nfc', tag: a.hw },
      { kind: 'nfc', tag: a.hw },
    ]);
  });
});
