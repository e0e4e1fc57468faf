/** The real server as a child process for the benches, and the CPU time it uses (Linux /proc). */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;

export interface Server {
  url: string;
  child: ChildProcess;
}

/**
 * The flags `npm start` gives the server's node (package.json; the Dockerfile and the systemd unit
 * give the same, scripts/deploy.test.ts): a bench measures the server as it is run.
 */
export function serverNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const m = /^node((?: --[\w-]+(?:=\S+)?)*) apps\/server\/dist\/main\.js$/.exec(pkg.scripts.start);
  if (!m) throw new Error(`package.json start is not "node [flags] apps/server/dist/main.js": ${pkg.scripts.start}`);
  return (m[1] ?? '').trim().split(' ').filter(Boolean);
}

/**
 * Starts `apps/server/src/main.ts` on 127.0.0.1 with a free port and answers once it listens, its
 * node given the flags `npm start` gives (serverNodeFlags). `nodeArgs` go to the server's node
 * too (e.g. --cpu-prof); `env` adds to the process environment; `args` go to main.ts (e.g. --demo).
 */
export function startServer(
  env: Record<string, string>,
  nodeArgs: string[] = [],
  args: string[] = [],
): Promise<Server> {
  const child = spawn(
    process.execPath,
    [...serverNodeFlags(), ...nodeArgs, '--import', 'tsx', join(ROOT, 'apps/server/src/main.ts'), ...args],
    {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve({ url: m[1], child });
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

/** CPU seconds (user + system) a process and its live children (WORKERS) have used so far; NaN if gone. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    let children: number[] = [];
    try {
      children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    } catch {}
    return (Number(fields[11]) + Number(fields[12])) / 100 + children.reduce((sum, c) => sum + cpuSeconds(c), 0);
  } catch {
    return Number.NaN;
  }
}

export /** Resident memory of a process in MB: now (VmRSS) and its peak so far (VmHWM). Linux only. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}
