import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { randomHex } from '../infra/lib/random';

/*
 * Test support for several server processes: docs/DEPLOY.md's recipe as the tests run it — a
 * Mosquitto started with the page's configuration file (port and paths changed) and accounts
 * made by the page's own commands, and servers as child processes with the page's environment.
 */

const ROOT = new URL('../../../../', import.meta.url).pathname;
const MAIN = join(ROOT, 'apps/server/src/main.ts');
export const PLUGIN = '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so';

/** Mosquitto, mosquitto_ctrl and the dynamic-security plugin are installed. */
export const haveMosquitto = (() => {
  for (const [cmd, arg] of [
    ['mosquitto', '-h'],
    ['mosquitto_ctrl', '--help'],
  ] as const) {
    try {
      execFileSync(cmd, [arg], { stdio: 'ignore' });
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT') return false;
    }
  }
  return existsSync(PLUGIN);
})();

/** A fenced block of docs/DEPLOY.md that follows `<!-- recipe:{name} -->`. */
export function recipeBlock(name: string, text = readFileSync(join(ROOT, 'docs/DEPLOY.md'), 'utf8')): string {
  const m = new RegExp(`<!-- recipe:${name} -->\\s*\`\`\`[a-z]*\\n([\\s\\S]*?)\`\`\``).exec(text);
  if (!m?.[1]) throw new Error(`docs/DEPLOY.md has no recipe block ${name}`);
  return m[1];
}

/** The page's environment block as variables, with `replace` applied to each value. */
export function recipeEnv(replace: (value: string) => string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of recipeBlock('env').split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m?.[1]) env[m[1]] = replace(m[2] ?? '');
  }
  return env;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

async function listening(port: number, timeoutMs = 10_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = createConnection({ port, host: '127.0.0.1' }, () => {
        c.destroy();
        resolve(true);
      });
      c.once('error', () => resolve(false));
    });
    if (ok) return;
    if (performance.now() > end) throw new Error(`nothing listens on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface TestBroker {
  url: string;
  port: number;
  admin: { username: string; password: string };
  server: { username: string; password: string };
  /** Stops Mosquitto by its pid and removes its files. */
  stop(): Promise<void>;
}

/** Mosquitto on a free port, set up by docs/DEPLOY.md's configuration and commands. */
export async function startMosquitto(): Promise<TestBroker> {
  const dir = mkdtempSync(join(tmpdir(), 'esl-cluster-mq-'));
  const port = await freePort();
  const admin = { username: 'dynsec-admin', password: `a-${randomHex(8)}` };
  const server = { username: 'esl-server', password: `s-${randomHex(8)}` };
  const dynsec = join(dir, 'dynsec.json');
  execFileSync('mosquitto_ctrl', ['dynsec', 'init', dynsec, admin.username, admin.password], { stdio: 'ignore' });
  const conf = recipeBlock('mosquitto.conf')
    .replace(/^listener 1883$/m, `listener ${port} 127.0.0.1`)
    .replaceAll('/etc/mosquitto/dynsec.json', dynsec);
  // Started as root, Mosquitto would drop to its own user, who cannot read this test's files.
  writeFileSync(join(dir, 'mosquitto.conf'), `${conf}\nuser ${userInfo().username}\n`);
  const child: ChildProcess = spawn('mosquitto', ['-c', join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await listening(port);
  const script = recipeBlock('accounts')
    .replace('-p 1883', `-p ${port}`)
    .replaceAll('ADMIN-PASSWORD', admin.password)
    .replaceAll('SERVER-PASSWORD', server.password);
  execFileSync('sh', ['-e', '-c', script], { stdio: 'pipe' });
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    admin,
    server,
    async stop() {
      if (child.pid && child.exitCode === null) process.kill(child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ServerChild {
  url: string;
  child: ChildProcess;
  /** What it wrote so far (stdout and stderr). */
  output(): string;
}

/** A server process (`main.ts`) with `env`; answers once it listens, rejects if it exits first. */
export function startServer(env: Record<string, string>): Promise<ServerChild> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, LOG_LEVEL: 'warn', SIM: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m?.[1]) resolve({ url: m[1], child, output: () => out });
    });
    child.stderr?.on('data', (d) => {
      out += d;
      if (process.env.CLUSTER_DEBUG) process.stderr.write(d);
    });
    child.once('exit', (code, signal) => reject(new Error(`server exited (${signal ?? code}): ${out.slice(-3000)}`)));
  });
}

/** Runs main.ts to its end (a refusal): exit code and what it wrote. */
export function runServer(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, LOG_LEVEL: 'warn', SIM: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output: out });
    });
  });
}

export function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/** GET /metrics as { 'name{labels}': value }. */
export async function scrape(url: string, token: string): Promise<Map<string, number>> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
  const out = new Map<string, number>();
  for (const line of (await res.text()).split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const cut = line.lastIndexOf(' ');
    out.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return out;
}
