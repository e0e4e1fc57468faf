import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, inject, it } from 'vitest';
import { type Db, openDatabase } from '../apps/server/src/infra/db/database';
import { addToPush, appendTagLog, closePush, openPush } from '../apps/server/src/infra/logs';
import { insertTags } from '../apps/server/src/modules/tags/repository';
import {
  api,
  apiLogin,
  chineseFontLoaded,
  chooseOption,
  describeBrowser,
  eventually,
  expect,
  type Lang,
  login,
  newPage,
  screenshot,
  selectOf,
  settled,
  useBrowser,
  waitForShell,
} from './support/browser';

// Rows of this run carry a prefix of their own, so filters find exactly them.
const prefix = randomBytes(2).toString('hex').toUpperCase();
const hw = (n: number) => `E2E${prefix}0${n}`;
const stationSn = `E2E-AP-${prefix}`;
const exception = `template "Shelf ${prefix}": font missing`;

const rows = (page: Page, testId: string) => page.getByTestId(testId).locator('.ant-table-tbody .ant-table-row');
const tbody = async (page: Page, testId: string) =>
  (await page.getByTestId(testId).locator('.ant-table-tbody').textContent()) ?? '';

/** The words each language shows (SPEC.md §8 for the failures). */
const WORDS = {
  en: {
    title: 'Tag log',
    timeout: 'Refresh timeout',
    synthesis: 'Synthesis failed',
    screen: 'Screen refresh failed',
    failed: 'Refresh failed',
    done: 'Done',
    push: 'Data log',
    import: 'Import',
    console: 'Console',
    running: 'Running',
  },
  'zh-CN': {
    title: '价签日志',
    timeout: '刷新超时',
    synthesis: '合成失败',
    screen: '屏幕刷新失败',
    failed: '刷新失败',
    done: '成功',
    push: '数据日志',
    import: '导入',
    console: '控制台',
    running: '进行中',
  },
} as const;

/** Engine words that must never reach the page. */
const RAW = ['renderError', 'displayError', 'nack', 'image', 'skipped'];

describeBrowser('delivery log pages (/logmgr/esl, /logmgr/push)', () => {
  const browser = useBrowser();
  let database: Db;
  let importId = 0;
  let heldTagId = 0;

  beforeAll(async () => {
    const url = inject('databaseUrl');
    expect(url, 'the global setup names the server database').not.toBe('');
    const token = await apiLogin('admin');
    const info = await api<{ curshop: { id: number } | null }>('/user/info', {}, token);
    const storeId = info.data.curshop?.id;
    expect(storeId, 'the demo admin has a current store').toBeTruthy();
    database = openDatabase(url);
    const store = await database.db
      .selectFrom('stores')
      .select(['id', 'tenant_id'])
      .where('id', '=', storeId as number)
      .executeTakeFirstOrThrow();
    const at = { tenantId: store.tenant_id, storeId: store.id };
    const now = Date.now();
    const base = { ...at, kind: 'image', rev: 1, stationSn, attempts: 1, queuedAt: now - 42_000, sentAt: now - 40_000 };
    await appendTagLog(database.db, [
      { ...base, tagId: 900_001, hardwareId: hw(1), result: 'ok', finishedAt: now - 5000, airMs: 900, rssi: -61 },
      {
        ...base,
        tagId: 900_002,
        hardwareId: hw(2),
        result: 'failed',
        code: 'timeout',
        attempts: 8,
        finishedAt: now - 4000,
      },
      { ...base, tagId: 900_003, hardwareId: hw(3), result: 'failed', code: 'renderError', finishedAt: now - 3000 },
      { ...base, tagId: 900_004, hardwareId: hw(4), result: 'failed', code: 'displayError', finishedAt: now - 2000 },
      { ...base, tagId: 900_005, hardwareId: hw(5), result: 'failed', code: 'nack', finishedAt: now - 1000 },
    ]);
    importId = await openPush(database.db, { ...at, source: 'import', products: 1234, startedAt: now - 60_000 });
    await addToPush(database.db, importId, { tagsAffected: 987, rendered: 985, failed: 2, exception });
    await addToPush(database.db, importId, { exception: 'second exception' });
    await closePush(database.db, importId, now - 30_000);
    const running = await openPush(database.db, {
      ...at,
      source: 'console',
      products: 1,
      tagsAffected: 2,
      startedAt: now - 1000,
    });
    // A push runs while one of its labels waits for its render (the reconciler finishes a push
    // with none): a tag of this run's own whose label is held back for an hour, as a burst of
    // changes to one tag is.
    [heldTagId] = await insertTags(database.db, [
      {
        tenant_id: at.tenantId,
        store_id: at.storeId,
        hardware_id: hw(9),
        model: '05',
        colour: 'bwr',
        status: 'unknown',
        hardware_model: '',
        created_at: now,
      },
    ]);
    await database.db
      .insertInto('device_tasks')
      .values({
        tenant_id: at.tenantId,
        store_id: at.storeId,
        target_key: `t:${heldTagId}`,
        tag_id: heldTagId,
        station_id: null,
        kind: 'image',
        request_id: null,
        push_id: running,
        prio: 1,
        state: 'render',
        rev: 1,
        created_at: now,
        not_before: now + 3_600_000,
      })
      .execute();
  });
  afterAll(async () => {
    if (heldTagId) {
      await database.db.deleteFrom('device_tasks').where('tag_id', '=', heldTagId).execute();
      await database.db.deleteFrom('tags').where('id', '=', heldTagId).execute();
    }
    await database?.close();
  });

  it.each(['en', 'zh-CN'] as const)(
    'lists the tag log in %s with the spec’s messages and filters it',
    async (lang: Lang) => {
      const w = WORDS[lang];
      const { context, page } = await newPage(browser(), { lang });
      try {
        await login(page, 'admin', { path: '/logmgr/esl' });
        await waitForShell(page);
        await page.locator('.ant-card-head-title', { hasText: w.title }).waitFor();
        await rows(page, 'tag-log')
          .filter({ hasText: hw(5) })
          .waitFor();
        const text = await tbody(page, 'tag-log');
        for (const message of [w.timeout, w.synthesis, w.screen, w.failed]) expect(text).toContain(message);
        for (const raw of RAW) expect(text).not.toContain(raw);
        expect(text).toContain(stationSn);
        expect(text).toContain(w.done);
        await settled(page);
        if (lang === 'zh-CN') expect(await chineseFontLoaded(page)).toBe(true);
        await screenshot(page, `tag-log-${lang}`);

        // One tag by its ID (typed in lower case): only its row.
        await page.fill('#tagLogFilter_hardwareId', hw(3).toLowerCase());
        await page.locator('form#tagLogFilter button[type="submit"]').click();
        await eventually(async () => (await rows(page, 'tag-log').allTextContents()).length).toBe(1);
        expect(await rows(page, 'tag-log').first().textContent()).toContain(w.synthesis);
      } finally {
        await context.close();
      }
    },
  );

  it.each(['en', 'zh-CN'] as const)('lists data pushes in %s with counts and exceptions', async (lang: Lang) => {
    const w = WORDS[lang];
    const { context, page } = await newPage(browser(), { lang });
    try {
      await login(page, 'admin', { path: '/logmgr/push' });
      await waitForShell(page);
      await page.locator('.ant-card-head-title', { hasText: w.push }).waitFor();
      const imported = rows(page, 'push-log').filter({ hasText: exception });
      await imported.waitFor();
      const row = (await imported.textContent()) ?? '';
      for (const figure of ['1,234', '987', '985']) expect(row).toContain(figure);
      expect(row).toContain(w.import);
      expect(await tbody(page, 'push-log')).toContain(w.running);
      await settled(page);
      if (lang === 'zh-CN') expect(await chineseFontLoaded(page)).toBe(true);
      await screenshot(page, `push-log-${lang}`);

      // By source: the console's push goes, the import stays.
      await chooseOption(page, selectOf(page, '#pushLogFilter_source'), w.import);
      await page.locator('form#pushLogFilter button[type="submit"]').click();
      await eventually(async () => {
        const sources = await page.getByTestId('push-log').locator('.ant-table-tbody .ant-tag').allTextContents();
        return sources.length > 0 && sources.every((s) => s === w.import);
      }).toBe(true);
    } finally {
      await context.close();
    }
  });
});
