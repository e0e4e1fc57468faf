// What the global setup hands to every browser test file.
declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the real server (built console + API), e.g. http://127.0.0.1:41234. */
    baseUrl: string;
    /** The server's station broker (mqtt://…), for tests that start simulated stations; '' when unknown. */
    mqttUrl: string;
    /** The server's database (`sqlite:<file>`), for tests that seed rows only the server writes; '' when unknown. */
    databaseUrl: string;
    /** Why browser tests cannot run here, or '' when they can. */
    skipReason: string;
  }
}

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const DEMO_PASSWORD = 'demo123';
