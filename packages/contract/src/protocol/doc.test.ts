import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyBlocks, jsonSchemaOf, renderBlocks } from './doc';
import { EXAMPLE_IMAGE_HASH, EXAMPLES } from './examples';
import { MESSAGE_NAMES, MESSAGES } from './registry';

const file = new URL('../../../../docs/PROTOCOL.md', import.meta.url);

describe('docs/PROTOCOL.md', () => {
  it('shows what the schemas say (regenerate: node --import tsx packages/contract/scripts/protocol-doc.ts)', () => {
    const doc = readFileSync(file, 'utf8');
    expect(applyBlocks(doc)).toBe(doc);
  });

  it('documents every message with its topic, schema and example', () => {
    const messages = renderBlocks().messages;
    for (const name of MESSAGE_NAMES) {
      expect(messages).toContain(`### ${name}\n`);
      expect(messages).toContain(`esl/v1/{tid}/{sn}/${MESSAGES[name].path}\``);
      expect(messages).toContain(JSON.stringify(jsonSchemaOf(name), null, 2));
    }
  });

  it('generates each schema from zod: required fields, bounds and the kinds of jobs', () => {
    const status = jsonSchemaOf('status') as { required: string[] };
    expect(status.required.sort()).toEqual(['at', 'connId', 'online', 'v']);
    const jobs = JSON.stringify(jsonSchemaOf('jobs'));
    expect(jobs).toContain('"maxItems":64');
    expect(jobs).toContain('"const":"rollcall"');
    // Formats the standard defines stay formats; zod's long regular expressions for them are left out.
    const hello = JSON.stringify(jsonSchemaOf('hello'));
    expect(hello).toContain('"format":"ipv4"');
    expect(hello).not.toContain('25[0-5]');
  });

  it('shows an inline image whose hash is that of its bytes', () => {
    const job = EXAMPLES.jobs.jobs[0];
    if (job.kind !== 'image' || !job.image.data) throw new Error('the first example job is an inline image');
    const bytes = Buffer.from(job.image.data, 'base64');
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(EXAMPLE_IMAGE_HASH);
    expect(job.image.hash).toBe(EXAMPLE_IMAGE_HASH);
    expect(bytes.length).toBe(job.image.size);
  });

  it('refuses a document whose markers are gone', () => {
    expect(() => applyBlocks('# nothing here')).toThrow(/markers/);
  });
});
