import type { CallbackSettings } from '@esl/contract';
import { type CallContext, requireTenant } from '../../api/context';
import { invalidField } from '../../api/errors';
import { CallbackUrlError, checkCallbackUrl } from '../../infra/lib/address';
import * as outbox from './repository';

/** The console's and the signed API's way to the callback URL (the caller's tenant only). */

const DETAIL = {
  format: 'callbackUrl',
  scheme: 'callbackUrl',
  credentials: 'callbackCredentials',
  unresolved: 'callbackUnresolved',
  address: 'callbackAddress',
} as const;

export async function getSettings(ctx: CallContext): Promise<CallbackSettings> {
  return outbox.getSettings(ctx.services.db, requireTenant(ctx).tenantId);
}

/**
 * Checks the URL (form, then every address its host resolves to) and saves it; '' stops callbacks.
 * The minutes before `price.wrong` are saved when given, kept otherwise.
 */
export async function setSettings(
  ctx: CallContext,
  { url, priceWrongMinutes }: { url: string; priceWrongMinutes?: number },
): Promise<CallbackSettings> {
  const { tenantId } = requireTenant(ctx);
  const { config } = ctx.services;
  let checked = '';
  if (url !== '') {
    try {
      checked = await checkCallbackUrl(url, config.callbacks, undefined, config.publicUrl ? [config.publicUrl] : []);
    } catch (err) {
      if (err instanceof CallbackUrlError) throw invalidField('url', DETAIL[err.reason]);
      throw err;
    }
  }
  await outbox.setUrl(ctx.services.db, tenantId, checked, config.now(), priceWrongMinutes);
  return outbox.getSettings(ctx.services.db, tenantId);
}

/**
 * Puts the tenant's given-up events back in line (the console's button, the API's
 * /callback/resend); answers how many. Refused without a callback URL: they would be dropped.
 */
export async function resendFailed(ctx: CallContext): Promise<{ resent: number }> {
  const { tenantId } = requireTenant(ctx);
  const { db, config } = ctx.services;
  if ((await outbox.getUrl(db, tenantId)) === '') throw invalidField('url', 'callbackNone');
  return { resent: await outbox.resendFailed(db, tenantId, config.now()) };
}
