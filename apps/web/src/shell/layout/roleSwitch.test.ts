import { describe, expect, it } from 'vitest';
import en from '../../locales/en/navbar.json';
import zh from '../../locales/zh-CN/navbar.json';
import { roleChoices, roleLabelKey } from './roleSwitch';

const lookup = (table: Record<string, unknown>, key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], table);

describe('role switch', () => {
  it('offers all my roles and then each role, only when there are several', () => {
    expect(roleChoices(['admin', 'editor', 'manager', 'clerk', 'stock'])).toEqual([
      '',
      'admin',
      'editor',
      'manager',
      'clerk',
      'stock',
    ]);
    expect(roleChoices(['editor', 'clerk'])).toEqual(['', 'editor', 'clerk']);
    expect(roleChoices(['clerk'])).toEqual([]);
    expect(roleChoices([])).toEqual([]);
    // A session narrowed to the one role the user holds can still go back.
    expect(roleChoices(['clerk'], 'clerk')).toEqual(['', 'clerk']);
  });

  it('labels every choice in both languages', () => {
    const labels = {
      '': ['All my roles', '全部角色'],
      admin: ['Administrator', '管理员'],
      editor: ['Supervisor', '主管'],
      manager: ['Store manager', '店长'],
      clerk: ['Store clerk', '店员'],
      stock: ['Stock clerk', '理货员'],
    } as const;
    for (const [choice, [english, chinese]] of Object.entries(labels)) {
      const key = roleLabelKey(choice as keyof typeof labels);
      expect(lookup(en, key), key).toBe(english);
      expect(lookup(zh, key), key).toBe(chinese);
    }
  });
});
