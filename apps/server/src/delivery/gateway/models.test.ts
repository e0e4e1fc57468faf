import type { AddStationData, LearnedTagModel, Station, Tag, Template, TemplateRule } from '@esl/contract';
import {
  encodeMessage,
  MESSAGES,
  type MessageInput,
  type MessageName,
  type StationKey,
  stationRoot,
  stationUsername,
  topics,
} from '@esl/contract/protocol';
import { decodeTagImage } from '@esl/labels';
import mqtt, { type MqttClient } from 'mqtt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildProduct, buildShop, buildTag } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';
import { LEARNED_MODEL } from '../../test/models';

// Learned tag models (docs/PROTOCOL.md §5.13) on the server `npm start` runs: a station (a raw
// MQTT client playing a bridge) teaches a model, reports a tag of it, receives the label drawn at
// the model's size and confirms it. Models are the station's tenant's alone; bad ones are dropped.

const open: MqttClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.endAsync(true).catch(() => {})));
});

let seq = 0;

interface Down {
  topic: string;
  body: Record<string, unknown>;
}

async function connect(url: string, key: StationKey, secret: string) {
  const connId = `models${++seq}`;
  const client = await mqtt.connectAsync(url, {
    clientId: stationUsername(key),
    username: stationUsername(key),
    password: secret,
    reconnectPeriod: 0,
    connectTimeout: 5000,
  });
  open.push(client);
  const down: Down[] = [];
  client.on('message', (topic, payload) => down.push({ topic, body: JSON.parse(payload.toString()) }));
  await client.subscribeAsync(topics.downFilter(key), { qos: 1 });
  const send = async <K extends MessageName>(name: K, body: MessageInput<K>) => {
    await client.publishAsync(`${stationRoot(key)}/${MESSAGES[name].path}`, encodeMessage(name, body), { qos: 1 });
  };
  const raw = (path: string, value: unknown) =>
    client.publishAsync(`${stationRoot(key)}/${path}`, JSON.stringify(value), { qos: 1 });
  return { key, client, connId, down, send, raw };
}

describe.each(await testDatabases())('learned tag models on $name', (db) => {
  const t = useApp(db, { mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 } });
  const delivery = () => {
    const d = t().app.delivery;
    if (!d) throw new Error('no delivery');
    return d;
  };
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      await delivery().gateway.idle();
      await delivery().tasks.idle();
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const call = async <T>(path: string, body: object, token: string) => {
    const res = await t().call<T>(path, body, { token });
    expect(res.code, `${path}: ${res.msg}`).toBe(0);
    return res.data;
  };

  async function stationOf(sn: string) {
    const shop = await buildShop(t().app);
    const added = await call<AddStationData>('/mgr/ap/add', { sn }, shop.tokens.admin);
    const s = await connect(delivery().url, { tenantId: shop.tenant.id, sn: added.sn }, added.secret);
    await s.send('hello', {
      v: 1,
      connId: s.connId,
      boot: 1,
      model: 'OEPL-AP',
      fw: { ap: '2.80' },
      radio: { profile: 'oepl-2g4', channel: 11, kbps: 250 },
      caps: { queue: 64, queueBytes: 1 << 20, inlineMax: 16384, chunk: 16384, fwConcurrent: 0, kinds: ['image'] },
      queue: [],
      outbox: 0,
      net: { ip: '0.0.0.0', mac: '00:00:00:00:00:00' },
      cfgRev: 0,
      time: t().clock.now(),
    });
    await vi.waitFor(() => expect(s.down.some((d) => d.topic.endsWith('/down/welcome'))).toBe(true));
    const at = { tenantId: shop.tenant.id, storeId: shop.store.id };
    return { shop, s, at, token: shop.tokens.admin };
  }

  const report = (hw: string, id: string, ver: string | null = null): MessageInput<'tags'> => ({
    v: 1,
    seq: ++seq,
    at: t().clock.now(),
    full: false,
    tags: [{ id, rssi: -60, battMv: 2900, ver, hw, wakeS: 40, seenAt: t().clock.now() }],
  });
  const tagOf = async (token: string, hardwareId: string) => {
    const list = await call<Tag[]>('/mgr/tag/list', { hardwareId }, token);
    return list[0] as Tag;
  };

  it('registers a model from up/models; a tag reported with its key is drawn at its size and delivered', async () => {
    const { s, at, token } = await stationOf('OEPL-LEARN');
    await s.send('models', { v: 1, models: [LEARNED_MODEL] });
    await settle();
    const learned = await call<{ rows: LearnedTagModel[] }>('/mgr/tag/learnedmodels', {}, token);
    expect(learned.rows).toEqual([
      expect.objectContaining({ key: 'oepl-35', name: 'Lite 2.2', w: 232, h: 104, colourType: 'bwr', led: true }),
    ]);
    expect(learned.rows[0]).toMatchObject({ source: 'shop AP, tag type 35 v2', stationSn: 'OEPL-LEARN' });

    // Registered as a catalogue model; the station knows better.
    const tag = await buildTag(t().app, at, { model: '05' });
    await s.send('tags', report('oepl-35', tag.hardware_id));
    await settle();
    const shown = await tagOf(token, tag.hardware_id);
    expect(shown).toMatchObject({ model: 'oepl-35', modelName: 'Lite 2.2', colour: 'bwr', unknownModel: false });
    expect(shown.learnedModel).toMatchObject({ key: 'oepl-35', source: 'shop AP, tag type 35 v2' });

    // A template of the model's size fits the tag (a 2.13" one does not) and is drawn at 232 × 104.
    const wrong = await call<Template>('/mgr/templ/addtemple', { name: 'small', model: '05' }, token);
    const refused = await t().call('/mgr/tag/settemplate', { ids: [tag.id], templateId: wrong.id }, { token });
    expect(refused.code).not.toBe(0);
    const template = await call<Template>(
      '/mgr/templ/addtemple',
      { name: 'lite', width: 232, length: 104, colourType: 'bwr' },
      token,
    );
    await call('/mgr/tag/settemplate', { ids: [tag.id], templateId: template.id }, token);
    type ImageJob = { id: string; rev: number; tag: string; image: { ver: string; data: string } };
    let job: ImageJob | undefined;
    for (let i = 0; i < 40 && !job; i++) {
      await settle();
      await delivery().tasks.tick();
      await settle();
      const jobs = s.down.filter((d) => d.topic.endsWith('/down/jobs')).flatMap((d) => d.body.jobs as ImageJob[]);
      job = jobs.find((j) => j.tag === tag.hardware_id);
      t().clock.advance(1000);
    }
    if (!job) throw new Error('no image job reached the station');
    const image = decodeTagImage(Buffer.from(job.image.data, 'base64'));
    expect([image.width, image.height]).toEqual([232, 104]);
    expect(image.colourType).toBe('bwr');

    await s.send('ack', { v: 1, jobs: [{ id: job.id, rev: job.rev, ok: true }] });
    await s.send('result', {
      v: 1,
      results: [
        { id: job.id, rev: job.rev, code: 'ok', tag: tag.hardware_id, ver: job.image.ver, at: t().clock.now() },
      ],
    });
    await s.send('tags', report('oepl-35', tag.hardware_id, job.image.ver));
    await settle();
    await vi.waitFor(async () => {
      await settle();
      expect(await tagOf(token, tag.hardware_id)).toMatchObject({ shownVer: job?.image.ver, pending: false });
    });
  });

  it('a learned model’s key filters the tag list and keys a template rule; a key the tenant never learned is refused', async () => {
    const { s, at, token } = await stationOf(`OEPL-RULES-${++seq}`);
    await s.send('models', { v: 1, models: [LEARNED_MODEL] });
    await settle();
    const lite = await buildTag(t().app, at, { model: '05' });
    const plain = await buildTag(t().app, at, { model: '05' });
    await s.send('tags', report('oepl-35', lite.hardware_id));
    await settle();
    // The tag list's "Tag model" filter takes the key as well as a catalogue code.
    expect((await call<Tag[]>('/mgr/tag/list', { model: 'oepl-35' }, token)).map((x) => x.id)).toEqual([lite.id]);
    expect((await call<Tag[]>('/mgr/tag/list', { model: '05' }, token)).map((x) => x.id)).toEqual([plain.id]);

    // A rule for the learned model (its unbound label): a template of its size, and the tag shows it.
    const template = await call<Template>(
      '/mgr/templ/addtemple',
      { name: 'lite rule', width: 232, length: 104, colourType: 'bwr' },
      token,
    );
    const rule = await call<TemplateRule>(
      '/mgr/templ/setrule',
      { kind: 'unbound', model: 'oepl-35', templateId: template.id },
      token,
    );
    expect(rule).toMatchObject({ model: 'oepl-35', modelName: 'Lite 2.2', colour: 'bwr', templateId: template.id });
    const rules = await call<TemplateRule[]>('/mgr/templ/rulelist', { model: 'oepl-35' }, token);
    expect(rules.map((r) => [r.id, r.modelName])).toEqual([[rule.id, 'Lite 2.2']]);
    expect((await tagOf(token, lite.hardware_id)).label).toMatchObject({
      templateId: template.id,
      ruleId: rule.id,
      source: 'storeUnbound',
    });
    expect((await tagOf(token, plain.hardware_id)).label.ruleId).not.toBe(rule.id);

    // Refused: a template of another size, a colour the model is not made in, a key not learned.
    const small = await call<Template>('/mgr/templ/addtemple', { name: 'small rule', model: '05' }, token);
    const refusals = [
      [
        { model: 'oepl-35', templateId: small.id },
        "Template: the template's size does not match the tag model's screen",
      ],
      [{ model: 'oepl-35', colour: 'bwy', templateId: template.id }, 'Colour: has the wrong format'],
      [{ model: 'oepl-99', templateId: template.id }, 'Tag model: has the wrong format'],
      [{ model: 'OEPL 35', templateId: template.id }, 'Tag model: has the wrong format'],
    ] as const;
    for (const [body, msg] of refusals) {
      const res = await t().call('/mgr/templ/setrule', { kind: 'default', ...body }, { token });
      expect(res, JSON.stringify(body)).toMatchObject({ code: 1001, msg });
    }
    expect(await call<TemplateRule[]>('/mgr/templ/rulelist', {}, token)).toHaveLength(1);
    expect(await t().call('/mgr/tag/list', { model: 'OEPL 35' }, { token })).toMatchObject({
      code: 1001,
      msg: 'Tag model: has the wrong format',
    });
  });

  it('shows a key nobody described as an unknown model, and never another tenant’s model', async () => {
    const a = await stationOf('OEPL-A');
    const b = await stationOf('OEPL-B');
    expect(a.at.tenantId).not.toBe(b.at.tenantId);
    await a.s.send('models', { v: 1, models: [LEARNED_MODEL] });
    await settle();
    const tagB = await buildTag(t().app, b.at, { model: '05' });
    const unknownBefore = delivery().gateway.counters.unknownModels;
    await b.s.send('tags', report('oepl-35', tagB.hardware_id));
    await settle();
    // Stored (heard, its signal), not taken as a model tenant B never learned.
    const shown = await tagOf(b.token, tagB.hardware_id);
    expect(shown).toMatchObject({ model: '05', hardwareModel: 'oepl-35', unknownModel: true, learnedModel: null });
    expect(shown.lastSeen).not.toBeNull();
    expect(delivery().gateway.counters.unknownModels).toBe(unknownBefore + 1);
    expect((await call<{ rows: LearnedTagModel[] }>('/mgr/tag/learnedmodels', {}, b.token)).rows).toEqual([]);

    // B teaches its own model of the same key: each tenant keeps its own description.
    await b.s.send('models', { v: 1, models: [{ ...LEARNED_MODEL, name: 'B’s own', w: 200, h: 200 }] });
    await settle();
    expect(await tagOf(b.token, tagB.hardware_id)).toMatchObject({ model: 'oepl-35', modelName: 'B’s own' });
    const rowsA = (await call<{ rows: LearnedTagModel[] }>('/mgr/tag/learnedmodels', {}, a.token)).rows;
    expect(rowsA.map((m) => [m.name, m.w, m.h])).toEqual([['Lite 2.2', 232, 104]]);
  });

  it('drops a malformed up/models whole and stores nothing of it', async () => {
    const { s, token } = await stationOf('OEPL-BAD');
    const invalid = () => delivery().gateway.counters.dropped.invalid;
    const before = invalid();
    const bad: unknown[] = [
      { v: 1, models: [{ ...LEARNED_MODEL, key: 'OEPL 35' }] },
      { v: 1, models: [LEARNED_MODEL, { ...LEARNED_MODEL, key: 'oepl-36', w: 0 }] },
      { v: 1, models: [LEARNED_MODEL, LEARNED_MODEL] },
      { v: 1, models: [{ ...LEARNED_MODEL, colours: ['white', 'black'] }] },
      { v: 1, models: Array.from({ length: 65 }, (_, i) => ({ ...LEARNED_MODEL, key: `oepl-${i}` })) },
    ];
    for (const value of bad) await s.raw('up/models', value);
    await settle();
    expect(invalid() - before).toBe(bad.length);
    expect((await call<{ rows: LearnedTagModel[] }>('/mgr/tag/learnedmodels', {}, token)).rows).toEqual([]);
  });

  it('refuses the labels of a model with no colour type we draw, saying why', async () => {
    const { s, at, token } = await stationOf('OEPL-ODD');
    const odd = {
      ...LEARNED_MODEL,
      key: 'oepl-4a',
      colours: ['white', 'black', 'red', 'yellow', 'green'],
      colourType: null,
    };
    await s.send('models', { v: 1, models: [odd] });
    const tag = await buildTag(t().app, at, { model: '05' });
    await s.send('tags', report('oepl-4a', tag.hardware_id));
    await settle();
    for (let i = 0; i < 5; i++) {
      await delivery().tasks.tick();
      await settle();
    }
    const task = await t()
      .app.services.db.selectFrom('device_tasks')
      .select(['state', 'code', 'detail'])
      .where('tag_id', '=', tag.id)
      .executeTakeFirst();
    expect(task).toMatchObject({ state: 'failed', code: 'unsupported' });
    expect(task?.detail).toContain('no label can be drawn in: white, black, red, yellow, green');
    expect(s.down.filter((d) => d.topic.endsWith('/down/jobs'))).toEqual([]);
    expect(await tagOf(token, tag.hardware_id)).toMatchObject({ model: 'oepl-4a', learnedModel: { colourType: null } });
  });

  it('writes a template’s NFC content only to tags whose model has NFC: the catalogue’s flag, a learned model’s', async () => {
    const { s, at, token } = await stationOf('OEPL-NFC');
    // Two learned models of one size, with and without NFC (the bridge's capability bit 0x40).
    await s.send('models', {
      v: 1,
      models: [LEARNED_MODEL, { ...LEARNED_MODEL, key: 'oepl-36', name: 'Lite 2.2 NFC', nfc: true }],
    });
    await settle();
    const product = await buildProduct(t().app, at, { name: 'Apple' });
    // 05 (2.13″) has NFC in the catalogue, 2C (10.2″) has not.
    const tags = {
      shelf: await buildTag(t().app, at, { model: '05', productId: product.id }),
      display: await buildTag(t().app, at, { model: '2C', productId: product.id }),
      learnedNo: await buildTag(t().app, at, { model: '05', productId: product.id }),
      learnedYes: await buildTag(t().app, at, { model: '05', productId: product.id }),
    };
    await s.send('tags', report('05', tags.shelf.hardware_id));
    await s.send('tags', report('2C', tags.display.hardware_id));
    await s.send('tags', report('oepl-35', tags.learnedNo.hardware_id));
    await s.send('tags', report('oepl-36', tags.learnedYes.hardware_id));
    await settle();
    // One template per size, each writing the product's name to NFC as text.
    const withNfc = async (body: object, ids: number[]) => {
      const tpl = await call<Template>('/mgr/templ/addtemple', { name: `nfc ${ids[0]}`, ...body }, token);
      const data = await call<{ doc: object }>('/mgr/templ/gettempledata', { id: tpl.id }, token);
      await call(
        '/mgr/templ/alerttempData',
        { id: tpl.id, doc: { ...data.doc, nfc: { key: 'name', type: 'text' } } },
        token,
      );
      await call('/mgr/tag/settemplate', { ids, templateId: tpl.id }, token);
    };
    await withNfc({ model: '05' }, [tags.shelf.id]);
    await withNfc({ model: '2C' }, [tags.display.id]);
    await withNfc({ width: 232, length: 104, colourType: 'bwr' }, [tags.learnedNo.id, tags.learnedYes.id]);
    const slots = (kind: 'image' | 'nfc') =>
      t()
        .app.services.db.selectFrom('device_tasks')
        .select(['tag_id', 'state', 'payload'])
        .where('kind', '=', kind)
        .where(
          'tag_id',
          'in',
          Object.values(tags).map((x) => x.id),
        )
        .execute();
    for (let i = 0; i < 40; i++) {
      await delivery().tasks.tick();
      await settle();
      if ((await slots('image')).filter((x) => x.state !== 'render').length === 4) break;
      t().clock.advance(1000);
    }
    // Every label was drawn; only the tags whose model has NFC got an nfc slot and remember the content.
    expect((await slots('image')).filter((x) => x.state !== 'render')).toHaveLength(4);
    const nfc = await slots('nfc');
    expect(nfc.map((x) => x.tag_id).sort()).toEqual([tags.shelf.id, tags.learnedYes.id].sort());
    for (const x of nfc) expect(JSON.parse(x.payload)).toEqual({ type: 'text', value: 'Apple' });
    const remembered = await t()
      .app.services.db.selectFrom('tags')
      .select(['id', 'nfc_value'])
      .where(
        'id',
        'in',
        Object.values(tags).map((x) => x.id),
      )
      .execute();
    const value = new Map(remembered.map((r) => [r.id, r.nfc_value]));
    expect(value.get(tags.display.id)).toBeNull();
    expect(value.get(tags.learnedNo.id)).toBeNull();
    expect(value.get(tags.learnedYes.id)).toBe(JSON.stringify({ type: 'text', value: 'Apple' }));
  });

  it('keeps the heartbeat’s known alarms and access point for the console, and logs an alarm once', async () => {
    const { s, token, at } = await stationOf('OEPL-HB');
    const beat = (alarms: string[]): MessageInput<'heartbeat'> => ({
      v: 1,
      at: t().clock.now(),
      uptimeS: 60,
      cpu: 0,
      mem: 10,
      disk: 0,
      queue: { jobs: 0, bytes: 0 },
      radio: { busyPct: 0, svcPerS: 0, tx: 0, rx: 0, crcErr: 0 },
      tagsHeard: 0,
      cfgRev: 0,
      alarms,
      ap: { apstate: 1, runstate: 2, lowBattery: 3, timeouts: 2, fw: '2.80', channel: 11, tags: 42 },
    });
    const station = async () =>
      (await call<Station[]>('/mgr/ap/runtimelist', { text: 'OEPL-HB' }, token)).find((x) => x.sn === 'OEPL-HB');
    const logged = (event: string) =>
      t()
        .app.services.db.selectFrom('sys_logs')
        .select('message')
        .where('tenant_id', '=', at.tenantId)
        .where('event', '=', event)
        .execute();
    await s.send('heartbeat', beat(['radioSilent', 'somethingNewer']));
    await s.send('heartbeat', beat(['radioSilent']));
    await settle();
    await delivery().syslog.flush();
    expect(await station()).toMatchObject({
      alarms: ['radioSilent'],
      ap: { apstate: 1, runstate: 2, lowBattery: 3, timeouts: 2, fw: '2.80', channel: 11, tags: 42 },
    });
    expect((await logged('station.alarm')).map((r) => r.message)).toEqual([
      expect.stringContaining('station OEPL-HB: alarm radioSilent'),
    ]);
    await s.send('heartbeat', beat([]));
    await settle();
    await delivery().syslog.flush();
    expect(await station()).toMatchObject({ alarms: [] });
    expect(await logged('station.alarm_over')).toHaveLength(1);
  });
});
