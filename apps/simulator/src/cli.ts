// `npm run sim -- …`: simulated stations and tags against a broker (apps/simulator/README.md).
import { readFileSync, writeFileSync } from 'node:fs';
import { parseCli, USAGE } from './args';
import { VirtualClock } from './clock';
import { emuTags, oeplWallStation, startOeplAp } from './oepl';
import { provision } from './provision';
import { Random } from './random';
import { startSimulator } from './simulator';
import { startWall } from './wall';

async function main(): Promise<void> {
  const parsed = parseCli(process.argv.slice(2), (path) => readFileSync(path, 'utf8'), process.env);
  if (parsed === 'help') {
    console.log(USAGE);
    return;
  }
  const log = parsed.quiet ? undefined : (line: string) => console.log(line);
  if (parsed.provision) {
    const got = await provision({
      ...parsed.provision,
      rng: new Random(`${parsed.sim.seed}:provision`),
      log: console.log,
    });
    parsed.sim.stations = got.stations;
  }
  const oepl = parsed.oepl;
  const ap = oepl
    ? await startOeplAp({
        clock: new VirtualClock({ speed: parsed.sim.speed ?? 1 }),
        seed: parsed.sim.seed,
        tags: emuTags(oepl.tags, oepl.hwTypes),
        maxsleep: oepl.maxsleep,
        port: oepl.port,
        host: oepl.host,
      })
    : null;
  if (ap) console.log(`emulated OpenEPaperLink AP: ${ap.url} (${oepl?.tags} tags; npm run bridge -- --ap ${ap.url} …)`);
  if (parsed.sim.stations.length === 0 && !parsed.provision) {
    const apWall =
      ap && parsed.httpPort !== null
        ? await startWall([oeplWallStation(ap.ap)], { port: parsed.httpPort, host: parsed.httpHost })
        : null;
    if (apWall) console.log(`store wall: ${apWall.url}`);
    const stop = () => void Promise.all([ap?.stop(), apWall?.close()]).then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return;
  }
  const sim = await startSimulator({ ...parsed.sim, log });
  for (const s of sim.stations) {
    if (!s.isConnected) console.error(`[${s.username}] not connected: ${s.lastError ?? 'no answer'} (retrying)`);
  }
  const tags = sim.stations.reduce((n, s) => n + s.tags.size, 0);
  console.log(
    `simulating ${sim.stations.length} station(s), ${tags} tag(s), speed ×${sim.clock.speed}, seed ${parsed.sim.seed}`,
  );

  const wall =
    parsed.httpPort === null
      ? null
      : await startWall([...sim.stations, ...(ap ? [oeplWallStation(ap.ap)] : [])], {
          port: parsed.httpPort,
          host: parsed.httpHost,
        });
  if (wall) console.log(`store wall: ${wall.url}`);

  let stopping = false;
  const finish = async () => {
    if (stopping) return;
    stopping = true;
    const report = sim.report();
    await wall?.close();
    await ap?.stop();
    await sim.stop();
    if (parsed.reportFile) writeFileSync(parsed.reportFile, `${JSON.stringify(report, null, 2)}\n`);
    for (const s of report.stations) {
      const r = s.stats;
      console.log(
        `${s.tenantId}.${s.sn}: ch ${s.channel}, ${s.tags} tags, ${r.connects} connects, ${r.checkIns} check-ins, ` +
          `${r.transfers} transfers, busy ${s.busyPct} %, results ${JSON.stringify(r.results)}`,
      );
    }
  };
  process.once('SIGINT', () => void finish().then(() => process.exit(0)));
  process.once('SIGTERM', () => void finish().then(() => process.exit(0)));
  if (parsed.durationMs !== null) {
    await sim.clock.sleep(parsed.durationMs);
    await finish();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  console.error(`\n${USAGE}`);
  process.exit(2);
});
