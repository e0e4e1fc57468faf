import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDatabases } from '../../test/databases';
import { type Db, openDatabase } from './database';
import { migrateToLatest } from './migrate';
import { contains, runCached } from './query';

describe.each(await testDatabases())('query helpers on $name', (target) => {
  let database: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const created = await target.create();
    drop = created.drop;
    database = openDatabase(created.url);
    await migrateToLatest(database);
    await database.db
      .insertInto('tenants')
      .values(
        ['a_b', 'a%b', 'axb', 'A_B'].map((name) => ({
          name,
          company: '',
          description: '',
          account: '',
          appid: '',
          ck: '',
          sk: '',
          created_at: 1,
        })),
      )
      .execute();
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  it('contains() matches case-insensitively and takes % and _ literally', async () => {
    const names = async (text: string) =>
      (
        await database.db.selectFrom('tenants').select('name').where(contains('name', text)).orderBy('id').execute()
      ).map((r) => r.name);
    expect(await names('a_b')).toEqual(['a_b', 'A_B']);
    expect(await names('%')).toEqual(['a%b']);
    expect(await names('X')).toEqual(['axb']);
  });

  it('runCached builds once per key and answers with the new parameters afterwards', async () => {
    const { db } = database;
    const build = vi.fn((name: string) => db.selectFrom('tenants').select('name').where('name', '=', name));
    const byName = (name: string) => runCached(db, 'test.byName', [name], () => build(name));
    expect(await byName('axb')).toEqual([{ name: 'axb' }]);
    expect(await byName('a%b')).toEqual([{ name: 'a%b' }]);
    expect(await byName('none')).toEqual([]);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('does not cache, and stays correct, when the arguments are not the parameters', async () => {
    const { db } = database;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const build = vi.fn((name: string) => db.selectFrom('tenants').select('name').where('name', '=', name).limit(1));
    const byName = (name: string) => runCached(db, `test.wrong.${target.name}`, [name], () => build(name));
    expect(await byName('axb')).toEqual([{ name: 'axb' }]);
    expect(await byName('a_b')).toEqual([{ name: 'a_b' }]);
    expect(build).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});
