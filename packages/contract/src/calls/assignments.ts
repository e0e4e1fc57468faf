import { RuleListBody, SetRuleBody, SetTagTemplateBody, SetTagTemplateData, TemplateRule } from '../api/assignments';
import { DeleteBody, DeleteData } from '../common';
import type { Messages } from '../errors';
import { call, change, list } from './define';

/**
 * Which template a tag shows (issue 13 item 0, docs/TEMPLATES.md): rules per tenant or store, and
 * per tag. Beyond SPEC.md, which leaves the assignment open; every tag row answers the result.
 */
export const ASSIGNMENT_CALLS = {
  templateRules: call(
    '/mgr/templ/rulelist',
    'template.read',
    RuleListBody,
    TemplateRule,
    'List the template assignment rules of the tenant and the current store (beyond SPEC)',
    list,
  ),
  setTemplateRule: call(
    '/mgr/templ/setrule',
    'template.write',
    SetRuleBody,
    TemplateRule,
    'Set the default, unbound or category template of a tag model in the tenant or current store (beyond SPEC)',
    change,
  ),
  delTemplateRules: call(
    '/mgr/templ/delrule',
    'template.write',
    DeleteBody,
    DeleteData,
    'Delete template assignment rules (beyond SPEC)',
    change,
  ),
  setTagTemplate: call(
    '/mgr/tag/settemplate',
    'template.write',
    SetTagTemplateBody,
    SetTagTemplateData,
    'Set or clear the template of tags of the current store, overriding every rule (beyond SPEC)',
    change,
  ),
} as const;

export const ASSIGNMENT_CALL_NAMES = {
  templateRules: { 'zh-CN': '查询模板规则', en: 'List template rules' },
  setTemplateRule: { 'zh-CN': '设置模板规则', en: 'Set a template rule' },
  delTemplateRules: { 'zh-CN': '删除模板规则', en: 'Delete template rules' },
  setTagTemplate: { 'zh-CN': '设置价签模板', en: "Set tags' template" },
} as const satisfies Record<keyof typeof ASSIGNMENT_CALLS, Messages>;
