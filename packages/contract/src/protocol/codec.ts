import { fastTagsMsg } from './fast';
import { LIMITS, PROTOCOL_VERSION } from './limits';
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

function fail(error: DecodeError, detail: string): { ok: false; error: DecodeError; detail: string } {
  return { ok: false, error, detail };
}

const encoder = new TextEncoder();

function sizeForLimit(s: string): number {
  // Exact only when it matters: a string this short is within the limit whatever it holds.
  if (s.length * 3 <= LIMITS.maxMessageBytes) return s.length;
  return encoder.encode(s).byteLength;
}
