import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { WallStationJson } from './wall';

const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null) continue;
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});

/** The first stdout line that matches, or the process's whole output when it ends first. */
function lineMatching(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = pattern.exec(out);
      if (m) resolve(m);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`the simulator exited (${code}) before ${pattern}:\n${out}`)));
  });
}

describe('npm run sim -- --http', () => {
  it('prints the store wall’s address and serves every simulated tag there', async () => {
    // No broker on this port: the station keeps retrying, the wall serves all the same.
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        new URL('./cli.ts', import.meta.url).pathname,
        '--url',
        'mqtt://127.0.0.1:9',
        '--station',
        '4.AP-09:secret',
        '--tags',
        '3',
        '--http',
        '0',
        '--quiet',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    const [, url] = await lineMatching(child, /store wall: (http:\/\/\S+)/);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Store wall');
    const stations = (await (await fetch(new URL('/wall.json', url))).json()) as WallStationJson[];
    expect(stations).toHaveLength(1);
    expect(stations[0]).toMatchObject({ tenantId: 4, sn: 'AP-09', connected: false });
    expect(stations[0].tags).toHaveLength(3);
    for (const tag of stations[0].tags) expect(tag).toMatchObject({ hw: '05', ver: null, job: null });
  });
});
