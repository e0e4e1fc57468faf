import { type DataKeyMapping, STANDARD_DATA_KEYS } from '@esl/contract';
import { DATA_KEYS } from '@esl/labels';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases';
import { buildWorld } from '../../test/factories';
import { useApp } from '../../test/harness';

describe('the standard data keys', () => {
  it('are the product fields the labels package binds', () => {
    expect([...STANDARD_DATA_KEYS].sort()).toEqual([...DATA_KEYS].sort());
  });
});

describe.each(await testDatabases())('the field mapping on $name', (db) => {
  const t = useApp(db);
  const get = async (token: string, lang: 'en' | 'zh-CN' = 'en') => {
    const res = await t().call<DataKeyMapping[]>('/mgr/templ/getdatekeymap', {}, { token, lang });
    expect(res.code, res.msg).toBe(0);
    return res.data;
  };

  it('starts with the standard keys named in the caller language', async () => {
    const { tokens } = await buildWorld(t().app);
    const en = await get(tokens.admin);
    expect(en.map((k) => k.name)).toEqual([...STANDARD_DATA_KEYS]);
    expect(en.every((k) => k.standard)).toBe(true);
    expect(en.find((k) => k.name === 'name')?.tField).toBe('Name');
    const zh = await get(tokens.manager, 'zh-CN');
    expect(zh.find((k) => k.name === 'price')?.tField).toBe('价格');
  });

  it('renames a key, adds custom keys and replaces the whole mapping', async () => {
    const { tokens } = await buildWorld(t().app);
    const token = tokens.editor;
    const renamed = await t().call('/mgr/templ/Alterkeymap', { name: 'name', tField: ' 品名 ' }, { token });
    expect(renamed).toMatchObject({ code: 0, data: { name: 'name', tField: '品名', standard: true } });
    await t().call('/mgr/templ/Alterkeymap', { name: 'memberPrice', tField: '会员价' }, { token });
    await t().call('/mgr/templ/Alterkeymap', { name: 'brand', tField: '品牌' }, { token });
    await t().call('/mgr/templ/Alterkeymap', { name: 'memberPrice', tField: '会员价格' }, { token });
    const map = await get(token, 'zh-CN');
    expect(map.find((k) => k.name === 'name')?.tField).toBe('品名');
    expect(map.slice(STANDARD_DATA_KEYS.length)).toEqual([
      { name: 'memberPrice', tField: '会员价格', standard: false },
      { name: 'brand', tField: '品牌', standard: false },
    ]);

    const replaced = await t().call<DataKeyMapping[]>(
      '/mgr/templ/UpdateDataKeyMap',
      {
        keys: [
          { name: 'stock', tField: '库存' },
          { name: 'price', tField: '售价' },
        ],
      },
      { token, lang: 'en' },
    );
    expect(replaced.code, replaced.msg).toBe(0);
    expect(replaced.data.map((k) => k.name)).toEqual([...STANDARD_DATA_KEYS, 'stock']);
    // Standard keys not listed go back to their default names; custom keys not listed are gone.
    expect(replaced.data.find((k) => k.name === 'name')?.tField).toBe('Name');
    expect(replaced.data.find((k) => k.name === 'price')?.tField).toBe('售价');
    expect(await get(token)).toEqual(replaced.data);
  });

  it('validates keys and display names', async () => {
    const { tokens } = await buildWorld(t().app);
    const token = tokens.admin;
    const cases: [string, object, string][] = [
      ['/mgr/templ/Alterkeymap', { name: '1abc', tField: 'x' }, 'Name: has the wrong format'],
      ['/mgr/templ/Alterkeymap', { name: 'a-b', tField: 'x' }, 'Name: has the wrong format'],
      ['/mgr/templ/Alterkeymap', { tField: 'x' }, 'Name: cannot be empty'],
      ['/mgr/templ/Alterkeymap', { name: 'brand', tField: '' }, 'Template field: cannot be empty'],
      ['/mgr/templ/Alterkeymap', { name: 'brand', tField: 'a\nb' }, 'Template field: no line breaks allowed'],
      ['/mgr/templ/Alterkeymap', { name: 'brand', tField: 'x'.repeat(33) }, 'Template field: is too long'],
      ['/mgr/templ/UpdateDataKeyMap', {}, 'Fields: cannot be empty'],
      [
        '/mgr/templ/UpdateDataKeyMap',
        {
          keys: [
            { name: 'a', tField: 'A' },
            { name: 'a', tField: 'B' },
          ],
        },
        'Name (item 2): has the wrong format',
      ],
    ];
    for (const [path, body, msg] of cases) {
      expect(await t().call(path, body, { token }), `${path} ${JSON.stringify(body)}`).toMatchObject({
        code: 1001,
        msg,
      });
    }
    expect((await get(token)).length).toBe(STANDARD_DATA_KEYS.length);
  });

  it("keeps each tenant's mapping to itself", async () => {
    const a = await buildWorld(t().app);
    const b = await buildWorld(t().app);
    await t().call('/mgr/templ/Alterkeymap', { name: 'brand', tField: 'A brand' }, { token: a.tokens.admin });
    await t().call('/mgr/templ/Alterkeymap', { name: 'name', tField: 'A name' }, { token: a.tokens.admin });
    const theirs = await get(b.tokens.admin);
    expect(theirs.map((k) => k.name)).toEqual([...STANDARD_DATA_KEYS]);
    expect(theirs.find((k) => k.name === 'name')?.tField).toBe('Name');
    await t().call('/mgr/templ/UpdateDataKeyMap', { keys: [] }, { token: b.tokens.admin });
    expect((await get(a.tokens.admin)).find((k) => k.name === 'brand')?.tField).toBe('A brand');
  });
});
