import { fastTagsMsg } from './fast';
import { LIMITS, PROTOCOL_VERSION } from './limits';
import { Job, type JobInput } from './messages';
import { MESSAGES, type Message, type MessageInput, type MessageName } from './registry';

/** Why a payload was refused; the server counts these per station. */
export type DecodeError = 'tooLarge' | 'badJson' | 'badVersion' | 'invalid';

export type Decoded<T> =
  | { readonly ok: true; readonly message: T }
  | { readonly ok: false; readonly error: DecodeError; readonly detail: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A received payload checked against its message's schema. Fields the schema does not know are
 * dropped; anything else wrong refuses the whole message (nothing of it is used).
 */
export function decodeMessage<K extends MessageName>(name: K, payload: Uint8Array | string): Decoded<Message<K>> {
  const size = typeof payload === 'string' ? sizeForLimit(payload) : payload.byteLength;
  if (size > LIMITS.maxMessageBytes) return fail('tooLarge', `${size} bytes`);
  let value: unknown;
  try {
    value = JSON.parse(typeof payload === 'string' ? payload : utf8.decode(payload));
  } catch (err) {
    return fail('badJson', (err as Error).message);
  }
  if (typeof value === 'object' && value !== null && 'v' in value && value.v !== PROTOCOL_VERSION) {
    return fail('badVersion', `v ${JSON.stringify(value.v)}`);
  }
  if (name === 'tags') {
    const fast = fastTagsMsg(value);
    if (fast) return { ok: true, message: fast as Message<K> };
  }
  const parsed = MESSAGES[name].schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail('invalid', `${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  return { ok: true, message: parsed.data as Message<K> };
}

/**
 * A message as its JSON payload, checked first: a sender never puts a malformed message on the
 * wire (throws instead), and fields the schema does not know are left out.
 */
export function encodeMessage<K extends MessageName>(name: K, message: MessageInput<K>): string {
  const json = JSON.stringify(MESSAGES[name].schema.parse(message));
  if (sizeForLimit(json) > LIMITS.maxMessageBytes) {
    throw new RangeError(`${name} message is larger than ${LIMITS.maxMessageBytes} bytes`);
  }
  return json;
}

/**
 * `down/jobs` payloads for any number of jobs: as few messages as both limits allow — at most
 * `maxJobsPerMessage` jobs and `maxMessageBytes` of JSON each. Inline images make jobs of very
 * different sizes (a 2.13" label ~1 KB, a 10.2" one up to `inlineMax` · 4/3), so a count alone
 * is not enough: 64 large labels make a message no station or broker takes. Each job is checked
 * against its schema (and unknown fields left out), as `encodeMessage` does.
 */
export function encodeJobMessages(jobs: readonly JobInput[]): string[] {
  const head = `{"v":${PROTOCOL_VERSION},"jobs":[`;
  const envelope = sizeOf(head) + 2;
  const out: string[] = [];
  let part: string[] = [];
  let bytes = envelope;
  for (const job of jobs) {
    const json = JSON.stringify(Job.parse(job));
    const size = sizeOf(json);
    if (envelope + size > LIMITS.maxMessageBytes) {
      throw new RangeError(`a job of ${size} bytes does not fit a jobs message (${LIMITS.maxMessageBytes} bytes)`);
    }
    // A job after the first adds its comma.
    if (part.length > 0 && (part.length >= LIMITS.maxJobsPerMessage || bytes + 1 + size > LIMITS.maxMessageBytes)) {
      out.push(`${head}${part.join(',')}]}`);
      part = [];
      bytes = envelope;
    }
    bytes += (part.length > 0 ? 1 : 0) + size;
    part.push(json);
  }
  if (part.length > 0) out.push(`${head}${part.join(',')}]}`);
  return out;
}

const sizeOf = (s: string) => encoder.encode(s).byteLength;

function fail(error: DecodeError, detail: string): { ok: false; error: DecodeError; detail: string } {
  return { ok: false, error, detail };
}

const encoder = new TextEncoder();

function sizeForLimit(s: string): number {
  // Exact only when it matters: a string this short is within the limit whatever it holds.
  if (s.length * 3 <= LIMITS.maxMessageBytes) return s.length;
  return encoder.encode(s).byteLength;
}
