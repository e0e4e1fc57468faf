import { randomBytes } from 'node:crypto';
import {
  encodeMessage,
  MESSAGES,
  type MessageInput,
  type MessageName,
  stationRoot,
  stationUsername,
  topics,
} from '@esl/contract/protocol';
import mqtt, { type MqttClient } from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, inject, it } from 'vitest';
import { LEARNED_MODEL } from '../apps/server/src/test/models';
import {
  api,
  apiLogin,
  describeBrowser,
  eventually,
  expect,
  type Lang,
  login,
  newPage,
  screenshot,
  settled,
  useBrowser,
  waitForShell,
} from './support/browser';

// A bridge's station (a raw MQTT client) teaches a tag model, reports a tag of it and a heartbeat
// with the radio-silent alarm and its access point: the tag list names the learned model and
// where it came from and offers it in the model filter and the template rules, the base-station
// list and detail show the AP's state (docs/OEPL.md).

const TEXT = {
  en: {
    learned: 'learned from shop AP, tag type 35 v2',
    alarm: 'Radio silent',
    channel: 'ch 11',
    tags: '42 tags',
    low: '3 low battery',
    firmware: 'AP firmware',
    learnedGroup: 'Learned from your stations',
    modelPlaceholder: 'Tag model',
  },
  'zh-CN': {
    learned: '学自 shop AP, tag type 35 v2',
    alarm: '无线静默',
    channel: '信道 11',
    tags: '42 个价签',
    low: '3 个低电量',
    firmware: '接入点固件',
    learnedGroup: '从基站学到的型号',
    modelPlaceholder: '标签型号',
  },
} as const;

describeBrowser('learned tag models and the access point’s state', () => {
  const browser = useBrowser();
  let token = '';
  let tenantId = 0;
  const clients: MqttClient[] = [];
  const stations: number[] = [];
  const tags: number[] = [];

  beforeAll(async () => {
    token = await apiLogin('admin');
    const info = await api<{ tenant: { id: number } | null }>('/user/info', {}, token);
    tenantId = info.data.tenant?.id ?? 0;
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => {})));
    if (tags.length) await api('/mgr/tag/delete', { ids: tags }, token);
    if (stations.length) await api('/mgr/ap/delete', { ids: stations }, token);
  });

  async function bridge(sn: string, secret: string) {
    const key = { tenantId, sn };
    const client = await mqtt.connectAsync(inject('mqttUrl'), {
      clientId: stationUsername(key),
      username: stationUsername(key),
      password: secret,
      reconnectPeriod: 0,
    });
    clients.push(client);
    const welcomed = new Promise<void>((resolve) =>
      client.on('message', (topic) => topic.endsWith('/down/welcome') && resolve()),
    );
    await client.subscribeAsync(topics.downFilter(key), { qos: 1 });
    const send = <K extends MessageName>(name: K, body: MessageInput<K>) =>
      client.publishAsync(`${stationRoot(key)}/${MESSAGES[name].path}`, encodeMessage(name, body), { qos: 1 });
    const connId = `e2e${randomBytes(3).toString('hex')}`;
    await send('status', { v: 1, online: true, connId, at: Date.now() });
    await send('hello', {
      v: 1,
      connId,
      boot: 1,
      model: 'OEPL-AP',
      fw: { ap: '2.80' },
      radio: { profile: 'oepl-2g4', channel: 11, kbps: 250 },
      caps: { queue: 64, queueBytes: 1 << 20, inlineMax: 16384, chunk: 16384, fwConcurrent: 0, kinds: ['image'] },
      queue: [],
      outbox: 0,
      net: { ip: '0.0.0.0', mac: '00:00:00:00:00:00' },
      cfgRev: 0,
      time: Date.now(),
    });
    await welcomed;
    return send;
  }

  for (const lang of ['zh-CN', 'en'] as Lang[]) {
    it(`names a learned model with its source and shows the AP's status (${lang})`, async () => {
      const text = TEXT[lang];
      const sn = `OEPL-${lang === 'en' ? 'EN' : 'ZH'}-${randomBytes(2).toString('hex')}`.toUpperCase();
      const station = await api<{ id: number; sn: string; secret: string }>('/mgr/ap/add', { sn }, token);
      expect(station.code, station.msg).toBe(0);
      stations.push(station.data.id);
      const hardwareId = `00EE${randomBytes(6).toString('hex')}`.toUpperCase();
      const added = await api<{ tags: Array<{ id: number }> }>(
        '/mgr/tag/add',
        { model: '05', hardwareIds: [hardwareId] },
        token,
      );
      expect(added.code, added.msg).toBe(0);
      tags.push(...added.data.tags.map((x) => x.id));

      const send = await bridge(station.data.sn, station.data.secret);
      await send('models', {
        v: 1,
        models: [LEARNED_MODEL],
      });
      const now = Date.now();
      await send('tags', {
        v: 1,
        seq: 1,
        at: now,
        full: true,
        tags: [{ id: hardwareId, rssi: -61, battMv: 2900, ver: null, hw: 'oepl-35', wakeS: 40, seenAt: now }],
      });
      await send('heartbeat', {
        v: 1,
        at: now,
        uptimeS: 60,
        cpu: 0,
        mem: 20,
        disk: 0,
        queue: { jobs: 0, bytes: 0 },
        radio: { busyPct: 0, svcPerS: 0, tx: 0, rx: 0, crcErr: 0 },
        tagsHeard: 1,
        cfgRev: 0,
        alarms: ['radioSilent'],
        ap: { apstate: 1, runstate: 2, lowBattery: 3, timeouts: 2, fw: '2.80', channel: 11, tags: 42 },
      });

      const { context, page } = await newPage(browser(), { lang });
      // A shared, loaded machine: the console's first paint may take long.
      page.setDefaultTimeout(60_000);
      try {
        await login(page, 'admin', { path: '/basemgr/esl' });
        await waitForShell(page);
        await page.locator('.ant-table').waitFor();
        await page.fill('#tagFilter_text', hardwareId);
        await page.locator('form#tagFilter button[type="submit"]').click();
        const tagRow = rowIn(page, 'tag-table', hardwareId);
        await eventually(() => tagRow.textContent()).toContain('Lite 2.2');
        await eventually(() => tagRow.textContent()).toContain(text.learned);
        expect(await tagRow.textContent()).toContain('232×104');
        await settled(page);
        await screenshot(page, `learned-model-tags-${lang}`);

        // The model filter offers the learned model by its name, under its own heading; the tag
        // (its model now the learned key) is found by it.
        await page.locator('#tagFilter_model').click();
        await page.locator('#tagFilter_model').pressSequentially('Lite');
        await page.locator('.ant-select-item-group', { hasText: text.learnedGroup }).waitFor();
        await page.locator('.ant-select-item-option', { hasText: 'Lite 2.2 (232×104)' }).click();
        await page.locator('form#tagFilter button[type="submit"]').click();
        await eventually(() => page.getByTestId('tag-table').locator('tbody tr.ant-table-row').count()).toBe(1);
        expect(await tagRow.textContent()).toContain('Lite 2.2');
        await settled(page);
        await screenshot(page, `learned-model-filter-${lang}`);

        // A template rule can be of the learned model, named with its size.
        await page.goto(new URL('/tmpl/index', page.url()).href);
        await waitForShell(page);
        await page.getByTestId('tmpl-rules').click();
        const modal = page.locator('.ant-modal');
        await modal.locator('.ant-select', { hasText: text.modelPlaceholder }).click();
        await page.keyboard.type('Lite');
        const option = page.locator('.ant-select-item-option', { hasText: 'Lite 2.2' });
        await eventually(() => option.textContent()).toContain('232×104');
        await option.click();
        await settled(page);
        await screenshot(page, `learned-model-rules-${lang}`);
        await page.keyboard.press('Escape');

        await page.goto(new URL('/basemgr/ap', page.url()).href);
        await waitForShell(page);
        await page.fill('#stationFilter_text', station.data.sn);
        await page.locator('form#stationFilter button[type="submit"]').click();
        const row = rowIn(page, 'station-table', station.data.sn);
        const cell = page.getByTestId(`ap-status-${station.data.sn}`);
        await eventually(() => cell.textContent()).toContain(text.alarm);
        for (const s of [text.channel, text.tags, text.low]) expect(await cell.textContent()).toContain(s);
        await row.locator('.ant-table-row-expand-icon').click();
        await page.getByText(text.firmware).first().waitFor();
        await settled(page);
        await screenshot(page, `learned-model-ap-${lang}`);
      } finally {
        await context.close();
      }
    }, 300_000);
  }
});

const rowIn = (page: Page, table: string, text: string) =>
  page.getByTestId(table).locator('.ant-table-tbody .ant-table-row', { hasText: text });
