// The server's Content-Security-Policy allows no eval (apps/server/src/infra/web/headers.ts). Zod
// probes for it with `Function('')` when it defines its first object schema; the probe is caught,
// but the browser still reports a policy violation. With `jitless` zod skips the probe and parses
// the same, through its interpreter. The setting must exist before any module of the console runs
// (the contract's schemas are defined as its chunk is evaluated, before the entry's own code), so
// it is this classic script, which the browser runs before any module script, writing where zod
// looks for its shared settings (the object `z.config()` writes to).
// e2e/shell/csp.e2e.ts fails if a violation comes back.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
