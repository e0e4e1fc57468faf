// `npm run bridge -- …`: one of our stations upward, OpenEPaperLink access points downward.
import { readFileSync } from 'node:fs';
import { parseCli, USAGE } from './args';
import { startBridge } from './bridge';

async function main(): Promise<void> {
  const parsed = parseCli(process.argv.slice(2));
  if (parsed === 'help') {
    console.log(USAGE);
    return;
  }
  const { caFile, ...options } = parsed.options;
  const bridge = await startBridge({
    ...options,
    ...(caFile ? { ca: readFileSync(caFile) } : {}),
    log: parsed.quiet ? undefined : (line) => console.log(line),
  });
  if (!bridge.link.isConnected) {
    console.error(`[${bridge.link.username}] not connected: ${bridge.link.lastError ?? 'no answer'} (retrying)`);
  }
  const stop = () => void bridge.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  console.error(`\n${USAGE}`);
  process.exit(2);
});
