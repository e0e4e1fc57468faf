import { TAG_MODELS } from '@esl/contract';
import { TemplateDocument } from '@esl/labels';
import type { Kysely } from 'kysely';
import type { Database } from '../../../infra/db/schema';
import { randomHex } from '../../../infra/lib/random';
import { type RenderPool, renderThumbnail } from '../../../infra/render';
import { documentColumns } from '../documents';
import { insertTemplate, listDataKeys, nameTaken, saveThumb, upsertDataKey } from '../repository';
import { insertRules, tenantDefaultRules } from '../rules/repository';
import { STARTER_DATA_KEYS, STARTER_TEMPLATES } from './documents';
import { starterRules } from './rules';

type Db = Kysely<Database>;

/** The list thumbnail of each starter template by name. */
export type StarterThumbnails = ReadonlyMap<string, Uint8Array>;

let drawn: Promise<StarterThumbnails> | undefined;

/**
 * The starter templates' thumbnails, drawn once per process (the documents never change) by
 * `previews` (the app's render pool), or in this thread without one.
 */
export function starterThumbnails(previews?: Pick<RenderPool, 'preview'>): Promise<StarterThumbnails> {
  if (!drawn) {
    drawn = Promise.all(
      STARTER_TEMPLATES.map(
        async (t) => [t.name, await renderThumbnail(TemplateDocument.parse(t.doc), previews)] as const,
      ),
    ).then((pairs) => new Map(pairs));
    drawn.catch(() => {
      drawn = undefined;
    });
  }
  return drawn;
}

/**
 * Adds the starter templates a tenant lacks (by name), with their thumbnails (asked for only when
 * one is missing), and the starter data keys it lacks; a template the tenant changed stays as it
 * is. Answers the templates it added, by name.
 */
export async function addStarterTemplates(
  db: Db,
  tenantId: number,
  now: number,
  thumbnails: () => Promise<StarterThumbnails>,
): Promise<Map<string, number>> {
  const known = new Set((await listDataKeys(db, tenantId)).map((k) => k.name));
  for (const [position, key] of STARTER_DATA_KEYS.entries()) {
    if (!known.has(key.name)) await upsertDataKey(db, tenantId, key.name, key.tField, position + 1);
  }
  const added = new Map<string, number>();
  // Last first: the list shows the newest first, so it reads in the starter set's order (the
  // drawn shelf labels first, the "no product" labels last).
  for (const starter of [...STARTER_TEMPLATES].reverse()) {
    if (await nameTaken(db, tenantId, starter.name)) continue;
    const png = (await thumbnails()).get(starter.name);
    if (!png) throw new Error(`no thumbnail of the starter template ${starter.name}`);
    const doc = TemplateDocument.parse(starter.doc);
    const { id } = await insertTemplate(db, {
      tenant_id: tenantId,
      name: starter.name,
      ...documentColumns(doc),
      revision: 1,
      created_at: now,
      updated_at: now,
    });
    await saveThumb(db, { template_id: id, tenant_id: tenantId, key: randomHex(16), png, revision: 1 });
    added.set(starter.name, id);
  }
  return added;
}

/**
 * Adds the tenant-wide starter rules for tags of `models` (starterRules) whose template is one of
 * `added` (addStarterTemplates' answer), where the tenant has no rule of that kind, model and
 * colour type yet: rules of templates that were there before are left as the tenant left them,
 * removed ones included. Answers how many it added.
 */
export async function addStarterRules(
  db: Db,
  tenantId: number,
  now: number,
  added: ReadonlyMap<string, number>,
  models: Iterable<string>,
): Promise<number> {
  const taken = new Set((await tenantDefaultRules(db, tenantId)).map((r) => `${r.kind}/${r.model}/${r.colour}`));
  const rows = starterRules(models).flatMap((rule) => {
    const id = added.get(rule.template);
    if (id === undefined || taken.has(`${rule.kind}/${rule.model}/${rule.colour}`)) return [];
    return [
      {
        tenant_id: tenantId,
        store_id: null,
        tag_id: null,
        kind: rule.kind,
        model: rule.model,
        colour: rule.colour,
        match_key: '',
        match_value: '',
        priority: 0,
        template_id: id,
        created_at: now,
        updated_at: now,
      },
    ];
  });
  await insertRules(db, rows);
  return rows.length;
}

/**
 * What a new tenant starts with: the starter templates and data keys, and a default label and a
 * "no product" label for every catalogue model one of them fits, so a tag bound in its first
 * store shows a label before anyone draws one.
 */
export async function installStarter(db: Db, tenantId: number, now: number, thumbnails: StarterThumbnails) {
  const added = await addStarterTemplates(db, tenantId, now, async () => thumbnails);
  await addStarterRules(
    db,
    tenantId,
    now,
    added,
    TAG_MODELS.map((m) => m.code),
  );
}
