import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The deployment artefacts (issue 26 items 6 and 9, docs/DEPLOY.md): what each must say, checked
// without a container daemon or registry (CI builds what the Dockerfile builds with
// scripts/build-image.sh in a clean folder, .ci/run). Cheap: files read, one systemd-analyze.
const root = new URL('..', import.meta.url).pathname;
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as { engines: { node: string }; scripts: Record<string, string> };

/** The Node.js majors `engines` names: 20 still works (our machines), 22 and 24 are the LTS ones. */
const engineMajors = [...pkg.engines.node.matchAll(/\^(\d+)\.|>=(\d+)/g)].map((m) => Number(m[1] ?? m[2]));

describe('the Dockerfile', () => {
  const docker = read('Dockerfile');
  const stages = [...docker.matchAll(/^FROM (\S+)(?: AS (\w+))?$/gm)];

  it('builds in one stage on a maintained Node.js LTS and runs in another, production dependencies only', () => {
    const version = Number(/^ARG NODE_VERSION=(\d+)$/m.exec(docker)?.[1]);
    expect([22, 24]).toContain(version);
    expect(engineMajors).toContain(version);
    expect(stages.map((s) => s[1])).toEqual([
      expect.stringMatching(/^node:\$\{NODE_VERSION\}-bookworm$/),
      expect.stringMatching(/^node:\$\{NODE_VERSION\}-bookworm-slim$/),
    ]);
    // The build stage runs the script CI runs (native modules compiled, dev dependencies pruned).
    expect(docker).toMatch(/^RUN bash scripts\/build-image\.sh$/m);
    expect(read('scripts/build-image.sh')).toMatch(/npm prune --omit=dev/);
    // Every folder the run stage copies from the build exists there (the build writes the dist ones).
    for (const [, from] of docker.matchAll(/^COPY --from=build (\S+)/gm)) {
      const path = from.replace(/^\/app\/?/, '');
      const built = ['apps/server/dist', 'apps/web/dist', 'node_modules'].includes(path);
      expect(built || existsSync(join(root, path)), path).toBe(true);
    }
    expect(docker).toContain('COPY --from=build /app/apps/server/dist');
    expect(read('scripts/build-server.mjs')).toContain("'apps/server/dist'");
  });

  it('runs as a user of its own, with a health check on /readyz, starting the built server', () => {
    const run = docker.slice(stages[1]?.index ?? 0);
    expect(run).toMatch(/^USER node$/m);
    expect(run).toMatch(/^HEALTHCHECK .*\n?.*\/readyz/m);
    expect(run).toMatch(/^CMD \["node", "--max-semi-space-size=32", "apps\/server\/dist\/main\.js"\]$/m);
    expect(pkg.scripts.start).toBe('node --max-semi-space-size=32 apps/server/dist/main.js');
    // Nothing the image needs is left out of the build context.
    const ignored = read('.dockerignore').split('\n');
    for (const needed of ['scripts', 'apps', 'packages', 'package-lock.json']) expect(ignored).not.toContain(needed);
  });
});

describe("the server's node flags", () => {
  // A young generation of 32 MB a half (V8's default is 16): at 1,000 stations × 2,000 tags the
  // server spent ~8 % of a core in the collector's threads; with 32 MB its CPU fell from 58–62 % to
  // ~50 % of a core (docs/performance-log.md, "The gateway under 50 % of a core"). Every way of starting the
  // server gives the same flags, and the benches start it with them (bench/server-process.ts).
  const FLAGS = '--max-semi-space-size=32';
  it('are the same for npm start, npm run demo, the image, the systemd unit and the benches', async () => {
    expect(pkg.scripts.start).toBe(`node ${FLAGS} apps/server/dist/main.js`);
    expect(pkg.scripts.demo).toContain(`node ${FLAGS} --import tsx apps/server/src/main.ts --demo`);
    const server = JSON.parse(read('apps/server/package.json')) as { scripts: Record<string, string> };
    expect(server.scripts.start).toBe(`node ${FLAGS} dist/main.js`);
    expect(read('Dockerfile')).toContain(`CMD ["node", "${FLAGS}", "apps/server/dist/main.js"]`);
    expect(read('deploy/esl-server.service')).toMatch(
      new RegExp(`^ExecStart=/usr/bin/node ${FLAGS} /opt/esl/apps/server/dist/main\\.js$`, 'm'),
    );
    const { serverNodeFlags } = await import('../bench/server-process');
    expect(serverNodeFlags()).toEqual([FLAGS]);
  });
});

describe('compose.yaml', () => {
  const compose = read('compose.yaml');

  it('runs two servers behind the proxy they trust, on PostgreSQL and Mosquitto', () => {
    for (const service of ['db', 'broker', 'esl-1', 'esl-2', 'proxy'])
      expect(compose, service).toMatch(new RegExp(`^  ${service}:$`, 'm'));
    expect(compose).toMatch(/image: postgres:\d+/);
    expect(compose).toMatch(/image: eclipse-mosquitto:2/);
    const proxy = /ipv4_address: (\S+) \}/.exec(compose)?.[1];
    expect(compose).toContain(`TRUST_PROXY: ${proxy}`);
    expect(compose).toContain('INSTANCE_ID: esl-1');
    expect(compose).toContain('INSTANCE_ID: esl-2');
    const caddy = read('deploy/Caddyfile');
    expect(caddy).toMatch(/reverse_proxy esl-1:8080 esl-2:8080/);
    expect(caddy).toMatch(/health_uri \/readyz/);
    // Every file it mounts is in the repository.
    for (const [, file] of compose.matchAll(/- \.\/(\S+?):/g)) expect(existsSync(join(root, file)), file).toBe(true);
    // Docker's kill comes after the server's own shutdown limit.
    const grace = Number(/stop_grace_period: (\d+)s/.exec(compose)?.[1]) * 1000;
    const limit = Number(/SHUTDOWN_TIMEOUT_MS:-(\d+)/.exec(compose)?.[1]);
    expect(grace).toBeGreaterThan(limit);
  });

  it('gives the broker the servers account the documented way', () => {
    const init = read('deploy/mosquitto-init.sh');
    const documented = [...read('docs/DEPLOY.md').matchAll(/^\$C (.+)$/gm)].map((m) => m[1]);
    expect(documented.length).toBeGreaterThan(3);
    for (const line of documented) {
      const asInit = (line ?? '').replace('SERVER-PASSWORD', '"$MQTT_SERVER_PASSWORD"');
      expect(init, line).toContain(`$C ${asInit}`);
    }
  });
});

describe('.env.example', () => {
  it('names every variable the server reads, and only those', () => {
    const example = new Set([...read('.env.example').matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));
    const sources = ['apps/server/src/infra/config.ts', 'apps/server/src/main.ts'].map(read).join('\n');
    const readByServer = new Set(
      [...sources.matchAll(/env\.([A-Z][A-Z0-9_]+)|env, '([A-Z][A-Z0-9_]+)'/g)].map((m) => m[1] ?? m[2]),
    );
    // Development aids of the demo (simulated stations, their wall) are in docs/SERVER.md instead.
    for (const demoOnly of ['SIM', 'SIM_HTTP']) readByServer.delete(demoOnly);
    const composeOnly = ['POSTGRES_PASSWORD', 'MQTT_SERVER_PASSWORD'];
    expect([...readByServer].filter((v) => !example.has(v as string)).sort()).toEqual([]);
    expect([...example].filter((v) => !readByServer.has(v) && !composeOnly.includes(v as string)).sort()).toEqual([]);
  });
});

describe('the systemd unit', () => {
  const unit = read('deploy/esl-server.service');
  it('starts the built server, stops on SIGTERM after the server’s own limit', () => {
    expect(unit).toMatch(
      /^ExecStart=\/usr\/bin\/node --max-semi-space-size=32 \/opt\/esl\/apps\/server\/dist\/main\.js$/m,
    );
    expect(unit).toMatch(/^User=esl$/m);
    const stop = Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)?.[1]);
    expect(stop * 1000).toBeGreaterThan(10_000);
  });

  const analyze = spawnSync('systemd-analyze', ['--version']).status === 0;
  it.runIf(analyze)('passes systemd-analyze verify', () => {
    // Throws (failing the test) with the tool's complaint on a bad unit.
    execFileSync('systemd-analyze', ['verify', join(root, 'deploy/esl-server.service')], { stdio: 'pipe' });
  });
});
