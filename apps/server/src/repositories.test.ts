import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// SQL lives only in repositories (STYLE.md), and a module writes only its own tables: one that
// needs another's data calls that module's service. Reading another module's table inside a
// query (a join, a count in a list) stays allowed. Outside the rule: db/ (setup, migrations),
// cache/pgbus.ts (the LISTEN/NOTIFY bus), demo/ (the seed writes its rows directly, as test/
// factories do) and tests.

/**
 * Which repository may write each table. Two tables have several writers, by column: the module
 * writes what users set (a station's serial and store, a tag's model and product), the
 * delivery gateway what the devices report (presence, runtime figures, signal, battery, status).
 */
const OWNER: Record<string, string | readonly string[]> = {
  users: 'modules/users',
  user_stores: 'modules/users',
  avatars: 'modules/users',
  stores: 'modules/stores',
  store_params: 'modules/stores',
  login_attempts: 'modules/session',
  sessions: 'api',
  op_logs: 'infra/audit',
  sys_logs: 'infra/audit',
  tenants: 'modules/tenants',
  firmware: ['modules/tenants', 'modules/firmware'],
  firmware_tasks: ['modules/firmware', 'delivery/firmware'],
  templates: 'modules/templates',
  template_thumbs: 'modules/templates',
  data_keys: 'modules/templates',
  template_rules: ['modules/templates', 'modules/templates/rules'],
  stations: ['modules/stations', 'delivery/gateway'],
  device_requests: ['modules/stations', 'outbox/slots', 'delivery/tasks'],
  device_tasks: [
    'outbox/slots',
    'delivery/tasks',
    'delivery/tasks/render',
    'delivery/tasks/dispatch',
    'delivery/tasks/sweeps',
  ],
  // Promotions: its own table; the running promotion's price on products goes through modules/products.
  promotions: 'modules/promotions',
  // Page schedules: the calls and the runner (modules/pages/runner.ts) share one repository.
  page_schedules: 'modules/pages',
  page_schedule_tags: 'modules/pages',
  products: 'modules/products',
  field_maps: 'modules/products',
  tags: [
    'modules/tags',
    'delivery/gateway/tags',
    'delivery/tasks',
    'delivery/tasks/render',
    'outbox/slots',
    // Proof of price: the watch marks the disagreements it reported (price_wrong_since, price_alerted_at).
    'modules/proof',
    // Problems to act on: the marks of a product deleted under a tag (product_gone_at).
    'modules/problems',
  ],
  tag_images: 'infra/render',
  open_nonces: 'open',
  tag_log: 'infra/logs',
  push_log: 'infra/logs',
  callback_settings: 'modules/callbacks',
  callback_outbox: ['modules/callbacks', 'outbox/results'],
  cluster_leases: 'infra/cluster',
  learned_models: 'modules/models',
  problems: 'modules/problems',
  tenant_fonts: 'modules/fonts',
  scheduled_changes: ['modules/schedule', 'delivery/schedule'],
  timed_labels: 'delivery/schedule',
};

const EXEMPT = /^(infra\/db\/|demo\/|test\/|infra\/cache\/pgbus\.ts$)|\.test\.ts$/;
const QUERY = /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|\bsql(<[^>]*>)?`/;
const WRITE = /\.(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(\s*'([a-z_]+)/g;

const root = new URL('./', import.meta.url);
function files(dir = ''): string[] {
  return readdirSync(new URL(dir, root), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(`${dir}${e.name}/`) : e.name.endsWith('.ts') ? [`${dir}${e.name}`] : [],
  );
}

/** Problems with where SQL is written, one line each. */
function sqlPlaces(sources: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [file, text] of Object.entries(sources)) {
    if (EXEMPT.test(file)) continue;
    if (!file.endsWith('/repository.ts')) {
      if (QUERY.test(text)) out.push(`${file}: SQL outside a repository`);
      continue;
    }
    const folder = file.slice(0, -'/repository.ts'.length);
    for (const [, , table] of text.matchAll(WRITE)) {
      if (OWNER[table] === undefined) out.push(`${file}: writes ${table}, which has no owner in repositories.test.ts`);
      else if (![OWNER[table]].flat().includes(folder)) {
        out.push(`${file}: writes ${table}, which belongs to ${[OWNER[table]].flat().join(' and ')}`);
      }
    }
  }
  return out;
}

describe('SQL', () => {
  it('finds SQL outside repositories and writes to another module’s table', () => {
    expect(
      sqlPlaces({
        'modules/tenants/service.ts': "await db.selectFrom('users').selectAll().execute();",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a tagged template, read as text
        'app.ts': 'await sql`select pg_notify(${c}, ${p})`.execute(db);',
        'modules/session/repository.ts': "db.updateTable('users').set({ last_login_at: now })",
        'modules/tags/repository.ts': "db.insertInto('tags'); db.deleteFrom('tag_logs')",
        'modules/tags/tags.test.ts': "db.insertInto('products')",
        'modules/stores/repository.ts': "db.selectFrom('user_stores').innerJoin('users', 'x', 'y')",
      }),
    ).toEqual([
      'modules/tenants/service.ts: SQL outside a repository',
      'app.ts: SQL outside a repository',
      'modules/session/repository.ts: writes users, which belongs to modules/users',
      'modules/tags/repository.ts: writes tag_logs, which has no owner in repositories.test.ts',
    ]);
  });

  it('lives only in repositories, each writing only its own tables', () => {
    const sources = Object.fromEntries(files().map((f) => [f, readFileSync(new URL(f, root), 'utf8')]));
    expect(sqlPlaces(sources)).toEqual([]);
  });

  it('names an owner for every table of the schema', () => {
    const schema = readFileSync(new URL('infra/db/schema.ts', root), 'utf8');
    const block = schema.slice(schema.indexOf('export interface Database {'));
    const tables = [...block.slice(0, block.indexOf('}')).matchAll(/^\s+([a-z_]+):/gm)].map((m) => m[1]);
    expect(tables.length).toBeGreaterThan(10);
    expect(tables.filter((t) => OWNER[t] === undefined)).toEqual([]);
  });
});
