import { ErrorCode } from '@esl/contract';
import { TemplateDocument } from '@esl/labels';
import { afterEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases';
import { useApp } from '../test/harness';
import { PRICE_DOC, simulatedShops } from '../test/simulated-shop';

// Label pages (issue 29 item 3, docs/PAGES.md) on the real server and simulated stations, on a
// speeded-up clock: a two-page template is rendered and delivered in one image, the console's
// page switch and the tag's button show page 2 with no transfer, and the tag goes back to page 1
// after the stay time.

/** The shop's price label with a second page: the product's origin, in large black type. */
const TWO_PAGES = TemplateDocument.parse({
  ...PRICE_DOC,
  pages: [
    {
      elements: [
        { type: 'rect', id: 'frame', x: 0, y: 0, w: 250, h: 122, strokeWidth: 3, colour: 'black' },
        { type: 'text', id: 'origin', x: 10, y: 40, w: 230, h: 40, text: 'Origin', font: { size: 28 } },
      ],
    },
  ],
});

describe.each(await testDatabases())('label pages on simulated tags ($name)', (db) => {
  const t = useApp(db, { mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 } });
  const steps = simulatedShops(t);
  afterEach(() => steps.stop());

  it('delivers both pages in one image; a command and the button switch with no transfer, back after the stay', async () => {
    const s = await steps.shop({ sn: db.name === 'sqlite' ? 'PAGES-S' : 'PAGES-P', tags: 2 });
    const [a, b] = s.tags;
    if (!a || !b) throw new Error('tags');
    const tagA = s.sim.tag(a.hw);

    // A second page: the tags get the two pages together, one image each.
    await steps.call('/mgr/templ/alerttempData', { id: s.templateId, doc: TWO_PAGES }, s.token);
    const want = await steps.expectedHash(s, { name: 'Apple 0', price: '1.00' });
    await steps.until(s, 'two pages on tag A', () => tagA.screen()?.hash === want);
    expect(tagA.pages()).toBe(2);
    expect(tagA.page).toBe(1);
    expect(tagA.screen()?.image.height).toBe(244);
    const transfers = tagA.transfers;
    const imageJobs = s.jobs.get(a.hw)?.length ?? 0;

    // Store isolation and permissions: another store's admin and a role without tag.operate are refused.
    const body = { ids: [a.id], page: 2, staySeconds: 60 };
    expect((await t().call('/mgr/tag/showpage', body, { token: s.otherStoreAdmin })).code).toBe(ErrorCode.NOT_FOUND);
    expect((await t().call('/mgr/tag/showpage', body, { token: s.tokens.stock })).code).toBe(ErrorCode.FORBIDDEN);
    expect((await t().call('/mgr/tag/showpage', { ...body, page: 9 }, { token: s.token })).code).toBe(
      ErrorCode.VALIDATION,
    );
    expect(s.otherJobs.filter((j) => j.kind === 'page')).toEqual([]);

    // The console's command (a clerk may): page 2 at the tag's next check-in, no image sent.
    const shown = await steps.call<{ requestId: number; tasks: number }>('/mgr/tag/showpage', body, s.tokens.clerk);
    expect(shown.tasks).toBe(1);
    await steps.until(s, 'page 2 on tag A', () => tagA.page === 2, 120_000);
    await steps.until(s, 'the switch done', async () => (await steps.progressOf(s, shown.requestId)).status === 'done');
    expect(await steps.progressOf(s, shown.requestId)).toMatchObject({ done: 1, failed: 0, total: 1 });
    expect(s.otherJobs.filter((j) => j.kind === 'page')).toEqual([{ kind: 'page', tag: a.hw }]);
    expect(tagA.transfers).toBe(transfers);
    expect(tagA.screen()?.hash).toBe(want);
    // The tag reports the page it shows; the console's tag row says so.
    const shownPage = async () => {
      const rows = (await steps.call<Array<{ id: number; shownPage: number }>>('/mgr/tag/list', {}, s.token)) ?? [];
      return rows.find((r) => r.id === a.id)?.shownPage;
    };
    await steps.until(s, 'page 2 reported', async () => (await shownPage()) === 2, 120_000);
    // Half the stay later it still shows page 2; after the stay, page 1 again, on its own.
    await steps.advance(s, 30_000);
    expect(tagA.page).toBe(2);
    await steps.until(s, 'back to page 1', () => tagA.page === 1, 60_000);
    await steps.until(s, 'page 1 reported', async () => (await shownPage()) === 1, 120_000);

    // The tag's button: page 2 at once, back to page 1 after the stay it last used; no transfer.
    expect(s.sim.pressButton(a.hw)).toBe(true);
    expect(tagA.page).toBe(2);
    await steps.settle(s.delivery);
    await steps.advance(s, 20_000);
    expect(tagA.page).toBe(2);
    await steps.until(s, 'back to page 1 after the press', () => tagA.page === 1, 60_000);
    expect(tagA.transfers).toBe(transfers);
    expect(s.jobs.get(a.hw)?.length ?? 0).toBe(imageJobs);
    // The press reached the server as a button wake (the system log's tag.button).
    const presses = await t()
      .app.services.db.selectFrom('sys_logs')
      .select('event')
      .where('tenant_id', '=', s.tenantId)
      .where('event', '=', 'tag.button')
      .execute();
    expect(presses.length).toBeGreaterThan(0);

    // A page the label does not have: the tag answers unsupported and the request counts it failed.
    const none = await steps.call<{ requestId: number }>(
      '/mgr/tag/showpage',
      { ids: [b.id], page: 3, staySeconds: 10 },
      s.token,
    );
    await steps.until(s, 'the refusal', async () => (await steps.progressOf(s, none.requestId)).status === 'done');
    expect(await steps.progressOf(s, none.requestId)).toMatchObject({ done: 0, failed: 1 });
    expect(s.sim.tag(b.hw).page).toBe(1);

    // A switch at a time (a schedule's step): handed to the tag ahead, made by the tag at that time.
    const at = t().clock.now() + 300_000;
    const timed = await steps.call<{ requestId: number }>(
      '/mgr/tag/showpage',
      { ids: [a.id], page: 2, staySeconds: 20, at },
      s.token,
    );
    await steps.until(
      s,
      'the switch handed over',
      async () => (await steps.progressOf(s, timed.requestId)).status === 'done',
    );
    expect(t().clock.now()).toBeLessThan(at);
    expect(tagA.page).toBe(1);
    await steps.until(s, 'page 2 at its time', () => tagA.page === 2, 400_000);
    expect(s.sim.clock.now()).toBeGreaterThanOrEqual(at);
    await steps.until(s, 'back to page 1 after the timed stay', () => tagA.page === 1, 60_000);
    expect(tagA.transfers).toBe(transfers);
  });
});
