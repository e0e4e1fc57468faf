import { type Product, type Station, TAG_STATUSES, type Tag, type TagWall } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { useStore } from '../test/business';
import { testDatabases } from '../test/databases';
import { buildStore, buildTenant, buildUser, login } from '../test/factories';
import { useApp } from '../test/harness';
import {
  businessStep,
  DEMO_PLACED,
  DEMO_PRODUCTS_PER_STORE,
  DEMO_STATIONS_PER_STORE,
  DEMO_TAGS_PER_STORE,
  ean13,
} from './business';
import type { SeedContext } from './step';

describe('EAN-13 check digit', () => {
  it('matches known codes', () => {
    expect(ean13('690123456789')).toBe('6901234567892');
    expect(ean13('400638133393')).toBe('4006381333931');
  });
});

describe.each(await testDatabases())('demo stations, tags and products on $name', (db) => {
  const t = useApp(db);

  it('seeds each store once with varied tags bound to Chinese-named products', async () => {
    const tenant = await buildTenant(t().app);
    const a = await buildStore(t().app, tenant.id);
    const b = await buildStore(t().app, tenant.id);
    const ctx: SeedContext = {
      db: t().app.services.db,
      now: t().clock.time,
      passwordHash: '',
      tenantId: tenant.id,
      stores: new Map([
        ['A', a.id],
        ['B', b.id],
      ]),
      users: new Map(),
    };
    await businessStep.run(ctx);
    await businessStep.run(ctx); // a second run adds nothing

    const user = await buildUser(t().app, { tenantId: tenant.id, roles: ['admin'] });
    const token = await login(t().app, user.username);
    for (const store of [a, b]) {
      await useStore(t().app, token, store.id);
      const stations = await t().call<Station[]>('/mgr/ap/runtimelist', {}, { token });
      expect(stations.count).toBe(DEMO_STATIONS_PER_STORE);
      expect(stations.data.some((s) => s.online && s.cpu !== null && s.lastHeartbeat !== null)).toBe(true);
      const products = await t().call<Product[]>('/mgr/product/list', { limit: 2000 }, { token });
      expect(products.count).toBe(DEMO_PRODUCTS_PER_STORE);
      expect(products.data.every((p) => /[\u4e00-\u9fff]/.test(p.name) && /^\d+\.\d{2}$/.test(p.price))).toBe(true);
      expect(products.data.every((p) => ean13(p.barcode.slice(0, 12)) === p.barcode)).toBe(true);
      const tags = await t().call<Tag[]>('/mgr/tag/list', { limit: 2000 }, { token });
      expect(tags.count).toBe(DEMO_TAGS_PER_STORE);
      expect(new Set(tags.data.map((tag) => tag.model)).size).toBeGreaterThanOrEqual(6);
      expect(new Set(tags.data.map((tag) => tag.colour)).size).toBeGreaterThanOrEqual(3);
      expect(new Set(tags.data.map((tag) => tag.status))).toEqual(new Set(TAG_STATUSES));
      const bound = tags.data.filter((tag) => tag.product !== null).length;
      expect(bound).toBeGreaterThan(DEMO_TAGS_PER_STORE / 2);
      expect(bound).toBeLessThan(DEMO_TAGS_PER_STORE);
      // The store wall has bound tags to show, in aisles A–C; the rest wait to be placed.
      const wall = await t().call<TagWall>('/mgr/tag/wall', {}, { token });
      expect(wall.data.aisles).toEqual(['A', 'B', 'C']);
      expect(wall.data.tags).toHaveLength(DEMO_PLACED);
      expect(wall.data.tags.every((tag) => tag.productName !== null)).toBe(true);
      expect(wall.data.unplaced).toBe(DEMO_TAGS_PER_STORE - DEMO_PLACED);
    }
    const mapping = await t().call<{ fields: { name: string }[] }>('/mgr/product/mapfield', {}, { token });
    expect(mapping.data.fields.map((f) => f.name)).toContain('memberPrice');
  });
});
