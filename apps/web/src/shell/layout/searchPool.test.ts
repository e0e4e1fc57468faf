import { describe, expect, it } from 'vitest';
import { filterRoutes } from '../../platform/permission';
import { routes } from '../routes';
import { createSearch, searchPool } from './searchPool';

const english: Record<string, string> = {
  dashboard: 'Dashboard',
  basemgr: 'Business',
  station: 'Stores',
  ap: 'Base stations',
  esl: 'Tags',
  product: 'Products',
  logmgr: 'Logs',
  sysLog: 'System log',
  eslLog: 'Tag log',
  opLog: 'Operation log',
  pushLog: 'Data log',
  tmpl: 'Templates',
  tmplIndex: 'View templates',
  tmplEdit: 'Template editor',
  system: 'System',
  users: 'Users',
  conf: 'Parameters',
  setme: 'Account settings',
  tenants: 'Tenant management',
};
const tr = (key: string) => english[key] ?? key;

describe('header search', () => {
  const pool = searchPool(filterRoutes(routes, ['admin']), tr);

  it('offers shown pages only, with their group titles', () => {
    expect(pool.map((e) => e.path)).not.toContain('/tmpl/tmpledit');
    expect(pool.map((e) => e.path)).not.toContain('/system/setme');
    expect(pool.find((e) => e.path === '/logmgr/op')?.title).toEqual(['Logs', 'Operation log']);
  });

  it('finds by title, fuzzily', () => {
    const search = createSearch(pool);
    expect(search('operation')[0]?.path).toBe('/logmgr/op');
    expect(search('Stroes')[0]?.path).toBe('/basemgr/station');
  });

  it('finds by path', () => {
    expect(createSearch(pool)('/system/conf')[0]?.path).toBe('/system/conf');
  });

  it('finds nothing for a distant query or an empty one', () => {
    const search = createSearch(pool);
    expect(search('zzzzqqqq')).toEqual([]);
    expect(search('  ')).toEqual([]);
  });

  it('offers a store clerk the pages of their work and nothing of the administrator', () => {
    const offered = searchPool(filterRoutes(routes, ['clerk']), tr).map((e) => e.path);
    expect(offered).toEqual(expect.arrayContaining(['/dashboard', '/basemgr/esl', '/basemgr/product']));
    expect(offered).not.toContain('/system/index');
    expect(offered).not.toContain('/basemgr/ap');
  });
});
