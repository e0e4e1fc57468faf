// The server's Content-Security-Policy allows no eval (apps/server/src/web/headers.ts). Zod
// probes for it with `new Function` when it defines an object schema; the probe is caught, but
// the browser still reports a policy violation. With `jitless` zod skips the probe and parses the
// same, through its interpreter. The setting must exist before zod's first schema, and zod's
// chunk loads lazily after this entry runs, so it goes where zod looks for its shared settings
// (the object `z.config()` writes to) instead of importing zod here and pulling it into /login.
// e2e/shell/csp.e2e.ts fails if a violation comes back.
const shared = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
shared.__zod_globalConfig = { ...shared.__zod_globalConfig, jitless: true };

export {};
