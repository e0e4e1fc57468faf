import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// The server and the demo run under `node --import tsx`, not vitest: the pool must start its
// workers there too, and a process that never calls close() must still end on its own.
const script = (closes: boolean, tags: number[]) => `
  import { SAMPLE_DATA, TemplateDocument } from '@esl/labels';
  const { createRenderPool } = await import(${JSON.stringify(new URL('./pool.ts', import.meta.url).pathname)});
  const { renderJobs } = await import(${JSON.stringify(new URL('./render.ts', import.meta.url).pathname)});
  const { DEMO_TEMPLATES } = await import(${JSON.stringify(new URL('../../demo/templates.ts', import.meta.url).pathname)});
  const doc = TemplateDocument.parse(DEMO_TEMPLATES[0].doc);
  const jobs = ${JSON.stringify(tags)}.map((tagId) => ({ tenantId: 1, tagId, doc, data: SAMPLE_DATA, model: doc.size.model, colour: doc.colourType }));
  const pool = createRenderPool({ workers: 2 });
  const there = await pool.render(jobs);
  const here = await renderJobs(jobs);
  const same = there.every((o, i) => o.hash && o.hash === here[i].hash && Buffer.from(o.bytes).equals(Buffer.from(here[i].bytes)));
  console.log(JSON.stringify({ same, n: there.length }));
  ${closes ? 'await pool.close();' : ''}
`;

describe('the render pool under node --import tsx', () => {
  // One job for two workers: one worker never gets a part, and an idle worker must not hold the process.
  it.each([
    [true, [1, 2, 3]],
    [false, [1, 2, 3]],
    [false, [1]],
  ])('renders in workers and the process ends (close called: %s, tags %j)', (closes, tags) => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(closes, tags)], {
      cwd: new URL('./', import.meta.url).pathname,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.error, run.stderr).toBeUndefined();
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}')).toEqual({ same: true, n: tags.length });
  });
});
