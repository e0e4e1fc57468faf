import { randomUUID } from 'node:crypto';
import { type StationKey, stationRoot, stationUsername } from '@esl/contract/protocol';
import mqtt, { type MqttClient } from 'mqtt';
import type { StationAccounts } from '../api/station-accounts';

/*
 * Station accounts on Mosquitto's dynamic-security plugin (docs/MOSQUITTO.md): a client
 * `{tid}.{sn}` whose client id must be the same, with the station's secret, and a role holding
 * exactly the station's topic rules (publish its `up/#` and `status`, subscribe its `down/#`).
 * The server keeps only a hash of a secret, so an account is written when the secret is issued.
 */

const CONTROL = '$CONTROL/dynamic-security/v1';

export interface DynsecCommand {
  command: string;
  [field: string]: unknown;
}

export interface DynsecResponse {
  command: string;
  error?: string;
  data?: unknown;
  correlationData?: string;
}

export interface Dynsec extends StationAccounts {
  /** Runs commands in one request; answers their responses in order (an `error` field says why one failed). */
  run(commands: DynsecCommand[]): Promise<DynsecResponse[]>;
  close(): Promise<void>;
}

export const stationRole = (key: StationKey) => `esl-station-${stationUsername(key)}`;

/** The role's rules: the same as the embedded broker's ACL (broker/acl.ts), retain aside. */
export function stationAcls(key: StationKey) {
  const root = stationRoot(key);
  return [
    { acltype: 'publishClientSend', topic: `${root}/up/#`, priority: 0, allow: true },
    { acltype: 'publishClientSend', topic: `${root}/status`, priority: 0, allow: true },
    { acltype: 'subscribePattern', topic: `${root}/down/#`, priority: 0, allow: true },
    { acltype: 'publishClientReceive', topic: `${root}/down/#`, priority: 0, allow: true },
  ];
}

export async function connectDynsec(options: {
  url: string;
  username: string;
  password: string;
  clientId: string;
  timeoutMs?: number;
}): Promise<Dynsec> {
  const client: MqttClient = await mqtt.connectAsync(options.url, {
    clientId: options.clientId,
    username: options.username,
    password: options.password,
    clean: true,
    reconnectPeriod: 1000,
    protocolVersion: 4,
  });
  const waiting = new Map<string, { resolve: (r: DynsecResponse[]) => void; reject: (e: Error) => void }>();
  client.on('message', (topic, payload) => {
    if (topic !== `${CONTROL}/response`) return;
    try {
      const { responses } = JSON.parse(payload.toString('utf8')) as { responses: DynsecResponse[] };
      const id = responses.find((r) => r.correlationData)?.correlationData;
      const w = id ? waiting.get(id) : undefined;
      if (!w || !id) return;
      waiting.delete(id);
      w.resolve(responses);
    } catch {
      // not ours to understand
    }
  });
  await client.subscribeAsync(`${CONTROL}/response`, { qos: 1 });
  const timeoutMs = options.timeoutMs ?? 10_000;

  const run = async (commands: DynsecCommand[]): Promise<DynsecResponse[]> => {
    const id = randomUUID();
    const answered = new Promise<DynsecResponse[]>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      setTimeout(() => {
        if (waiting.delete(id)) reject(new Error('Mosquitto dynamic security did not answer'));
      }, timeoutMs).unref();
    });
    await client.publishAsync(
      CONTROL,
      JSON.stringify({ commands: commands.map((c) => ({ ...c, correlationData: id })) }),
      { qos: 1 },
    );
    return answered;
  };
  const check = (responses: DynsecResponse[], tolerated: RegExp) => {
    for (const r of responses) {
      if (r.error && !tolerated.test(r.error)) throw new Error(`dynamic security ${r.command}: ${r.error}`);
    }
  };

  return {
    run,
    async secretIssued(key, secret) {
      const username = stationUsername(key);
      const rolename = stationRole(key);
      // Deleting the client also ends a session made with the old secret.
      check(
        await run([
          { command: 'deleteClient', username },
          { command: 'createRole', rolename, acls: stationAcls(key) },
        ]),
        /not found|already exists/i,
      );
      check(
        await run([{ command: 'createClient', username, password: secret, clientid: username, roles: [{ rolename }] }]),
        /^$/,
      );
    },
    async removed(key) {
      check(
        await run([
          { command: 'deleteClient', username: stationUsername(key) },
          { command: 'deleteRole', rolename: stationRole(key) },
        ]),
        /not found/i,
      );
    },
    async close() {
      for (const w of waiting.values()) w.reject(new Error('closed'));
      waiting.clear();
      await client.endAsync();
    },
  };
}
