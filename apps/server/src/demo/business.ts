import { findTagModel, TAG_STATUSES, type TagStatus } from '@esl/contract';
import type { Insertable } from 'kysely';
import type { ProductTable, StationTable, TagTable } from '../infra/db/schema';
import { randomHex, sha256Hex } from '../infra/lib/random';
import { insertTags } from '../modules/tags/repository';
import type { SeedContext, SeedStep } from './step';

/** The serial of demo store `storeIndex`'s station `i` (0-based): DEMO1AP01 … */
export const demoStationSn = (storeIndex: number, i: number) =>
  `DEMO${storeIndex + 1}AP${String(i + 1).padStart(2, '0')}`;

/** Whether a serial is one the demo gave its own stations (stations.ts plays only these). */
export const isDemoStationSn = (sn: string) => /^DEMO\d+AP\d{2}$/.test(sn);

/** Per demo store: base stations, products and tags (most of them bound). */
export const DEMO_STATIONS_PER_STORE = 3;
export const DEMO_PRODUCTS_PER_STORE = 200;
export const DEMO_TAGS_PER_STORE = 300;
/** Bound demo tags given a shelf place (3 aisles × 4 bays × 4 shelves × 2). */
export const DEMO_PLACED = 96;

/** Models shown in the demo: small shelf tags mostly, a few large and colour ones (rules.ts gives each a label). */
export const DEMO_MODELS = ['01', '05', '05', '0A', '0A', '0F', '12', '1C', '1C', '28', '2C', '23'];

const ITEMS: [name: string, unit: string, spec: string, origin: string, cents: number][] = [
  ['红富士苹果', '斤', '特级', '山东烟台', 699],
  ['阿克苏冰糖心苹果', '斤', '一级', '新疆阿克苏', 899],
  ['海南香蕉', '斤', '一级', '海南', 399],
  ['赣南脐橙', '斤', '特级', '江西赣州', 599],
  ['砀山酥梨', '斤', '一级', '安徽砀山', 359],
  ['东北五常大米', '袋', '5kg', '黑龙江五常', 5990],
  ['金龙鱼调和油', '桶', '5L', '上海', 6990],
  ['蒙牛纯牛奶', '箱', '250ml×16', '内蒙古', 5500],
  ['伊利安慕希酸奶', '箱', '205g×12', '内蒙古', 6500],
  ['农夫山泉', '瓶', '550ml', '浙江', 200],
  ['可口可乐', '瓶', '330ml', '上海', 300],
  ['青岛啤酒', '罐', '500ml', '山东青岛', 650],
  ['康师傅红烧牛肉面', '袋', '105g', '天津', 450],
  ['奥利奥饼干', '盒', '388g', '江苏', 1890],
  ['旺旺雪饼', '袋', '520g', '湖南', 2290],
  ['三只松鼠坚果', '袋', '750g', '安徽芜湖', 8990],
  ['海天生抽', '瓶', '500ml', '广东佛山', 990],
  ['老干妈风味豆豉', '瓶', '280g', '贵州', 1150],
  ['鲜鸡蛋', '盒', '30枚', '河北', 2590],
  ['五花肉', '斤', '鲜', '江苏', 1680],
  ['草鱼', '斤', '鲜活', '湖北', 1290],
  ['西红柿', '斤', '一级', '山东寿光', 459],
  ['黄瓜', '斤', '一级', '山东寿光', 359],
  ['大白菜', '斤', '一级', '河北', 159],
  ['蓝月亮洗衣液', '瓶', '3kg', '广东', 4990],
  ['维达抽纸', '提', '3层×100抽×6', '广东', 2290],
  ['高露洁牙膏', '支', '180g', '广东', 1590],
  ['德芙巧克力', '盒', '252g', '北京', 3990],
  ['雀巢咖啡', '盒', '15g×30', '山东', 5990],
  ['立顿红茶', '盒', '2g×100', '安徽', 3990],
];

/** A small deterministic generator, so every demo database looks the same. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An EAN-13 barcode (with its check digit) from a 12-digit body. */
export function ean13(body: string): string {
  const sum = [...body].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return body + ((10 - (sum % 10)) % 10);
}

const STATUS_WEIGHTS: [TagStatus, number][] = [
  ['online', 55],
  ['normal', 20],
  ['offline', 8],
  ['unknown', 5],
  ['lost', 4],
  ['interrupted', 4],
  ['disconnected', 4],
];

function pickStatus(r: number): TagStatus {
  let n = r * 100;
  for (const [status, weight] of STATUS_WEIGHTS) {
    if (n < weight) return status;
    n -= weight;
  }
  return TAG_STATUSES[0];
}

async function countIn(ctx: SeedContext, table: 'stations' | 'products' | 'tags', storeId: number) {
  const row = await ctx.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('store_id', '=', storeId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function seedStore(ctx: SeedContext, storeId: number, storeIndex: number) {
  const random = prng(2026 + storeIndex);
  const at = { tenant_id: ctx.tenantId, store_id: storeId };
  const minute = 60_000;

  if ((await countIn(ctx, 'stations', storeId)) === 0) {
    const names = ['收银区', '生鲜区', '仓库'];
    const stations: Insertable<StationTable>[] = names.slice(0, DEMO_STATIONS_PER_STORE).map((name, i) => ({
      ...at,
      sn: demoStationSn(storeIndex, i),
      name,
      module: 'AP-2.4G-V3',
      // The demo stations never connect: their secret is thrown away.
      secret_hash: sha256Hex(randomHex(24)),
      cpu: Math.round(random() * 400) / 10,
      memory: Math.round(300 + random() * 400) / 10,
      disk: Math.round(100 + random() * 500) / 10,
      ip: `192.168.${storeIndex + 1}.${10 + i}`,
      mac: `A4:C1:38:${(storeIndex + 1).toString(16).padStart(2, '0')}:00:${(i + 1).toString(16).padStart(2, '0')}`.toUpperCase(),
      wifi_password: 'demo-wifi-2026',
      ntp_server: 'ntp.aliyun.com',
      gateway: `192.168.${storeIndex + 1}.1`,
      mask: '255.255.255.0',
      server_address: '127.0.0.1',
      server_port: 1884,
      upgrade_url: '',
      firmware: 'v3.2.1',
      last_heartbeat: ctx.now - Math.round(random() * 5) * minute,
      online: i < 2 ? 1 : 0,
      created_at: ctx.now,
    }));
    await ctx.db.insertInto('stations').values(stations).execute();
  }

  if ((await countIn(ctx, 'products', storeId)) === 0) {
    const products: Insertable<ProductTable>[] = [];
    for (let i = 0; i < DEMO_PRODUCTS_PER_STORE; i++) {
      const [name, unit, spec, origin, base] = ITEMS[i % ITEMS.length];
      const batch = Math.floor(i / ITEMS.length);
      // Store prices differ a little; a third of the products are on offer.
      const cents = Math.max(100, Math.round((base * (0.9 + random() * 0.3)) / 10) * 10 - 1);
      const onOffer = random() < 0.33;
      const custom: Record<string, string> = {};
      if (onOffer) custom.promo = random() < 0.5 ? '限时特价' : '第二件半价';
      if (random() < 0.25) custom.memberPrice = ((cents * 0.95) / 100).toFixed(2);
      const barcode = ean13(`69${storeIndex + 1}${String(100000000 + i * 7919).slice(-9)}`);
      products.push({
        ...at,
        barcode,
        qrcode: `https://shop.example.com/p/${barcode}`,
        name: batch === 0 ? name : `${name}（${['家庭装', '促销装', '精选', '礼盒', '散装', '量贩装'][batch % 6]}）`,
        price_cents: cents,
        original_price_cents: onOffer ? Math.round(cents * 1.25) : null,
        unit,
        spec,
        origin,
        grade: ['一级', '特级', '优等品', ''][i % 4],
        custom: JSON.stringify(custom),
        price_changes: Math.floor(random() * 4),
        created_at: ctx.now,
        updated_at: ctx.now,
      });
    }
    for (let i = 0; i < products.length; i += 500) {
      await ctx.db
        .insertInto('products')
        .values(products.slice(i, i + 500))
        .execute();
    }
  }

  if ((await countIn(ctx, 'tags', storeId)) === 0) {
    const [stations, products] = await Promise.all([
      ctx.db.selectFrom('stations').select('id').where('store_id', '=', storeId).orderBy('id').execute(),
      ctx.db.selectFrom('products').select('id').where('store_id', '=', storeId).orderBy('id').execute(),
    ]);
    const tags: Insertable<TagTable>[] = [];
    let placed = 0;
    for (let i = 0; i < DEMO_TAGS_PER_STORE; i++) {
      const model = findTagModel(DEMO_MODELS[i % DEMO_MODELS.length]);
      if (!model) continue;
      const status = pickStatus(random());
      const heard = status !== 'unknown';
      // Four tags in five show a product; the products cycle, so some sit on two tags.
      const product = i % 5 === 4 ? null : products[i % products.length];
      // The first DEMO_PLACED bound tags hang in aisles A–C, 4 bays of 4 shelves, 2 to a shelf
      // (docs/SHELF.md), so the store wall has something to show; the rest wait to be placed.
      const place = product && placed < DEMO_PLACED ? placed++ : null;
      tags.push({
        ...(place === null
          ? {}
          : {
              aisle: 'ABC'[Math.floor(place / 32)] ?? null,
              bay: String((Math.floor(place / 8) % 4) + 1),
              shelf: String((Math.floor(place / 2) % 4) + 1),
              position: (place % 2) + 1,
            }),
        ...at,
        hardware_id: `E${storeIndex + 1}${(0x100000 + i * 37).toString(16).toUpperCase().padStart(6, '0')}`,
        model: model.code,
        colour: model.colours[Math.floor(random() * model.colours.length)],
        product_id: product?.id ?? null,
        station_id: heard && stations.length ? stations[i % stations.length].id : null,
        status,
        signal: heard ? -Math.round(45 + random() * 50) : null,
        battery: heard ? Math.round(5 + random() * 95) : null,
        temperature: heard ? Math.round(18 + random() * 10) : null,
        hardware_model: heard ? `HS-${model.name}` : '',
        last_seen: heard ? ctx.now - Math.round(random() * 600) * minute : null,
        created_at: ctx.now,
      });
    }
    await insertTags(ctx.db, tags);
  }
}

/** Demo stations, products and tags for each demo store, and the demo import mapping. */
export const businessStep: SeedStep = {
  name: 'business',
  async run(ctx) {
    let index = 0;
    for (const storeId of ctx.stores.values()) await seedStore(ctx, storeId, index++);
    const mapping = await ctx.db
      .selectFrom('field_maps')
      .select('tenant_id')
      .where('tenant_id', '=', ctx.tenantId)
      .executeTakeFirst();
    if (!mapping) {
      const fields = [
        { name: 'promo', tField: '促销语' },
        { name: 'memberPrice', tField: '会员价' },
      ];
      await ctx.db
        .insertInto('field_maps')
        .values({ tenant_id: ctx.tenantId, fields: JSON.stringify(fields), updated_at: ctx.now })
        .execute();
    }
  },
};
