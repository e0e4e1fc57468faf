import { AVATAR_MAX_BYTES } from '@esl/contract';
import type {} from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { CallContext } from '../../api/context';
import { badFile } from '../../api/errors';
import type { Database } from '../../infra/db/schema';
import { findAvatar } from './repository';

export const AVATAR_PATH = '/uploads/avatars';

/** Avatars are shown at most 40–100 px; this keeps them sharp on high-density screens. */
export const AVATAR_SIDE = 256;

/** The uploaded file (field `file`, multipart) within the avatar size limit. */
export async function readUpload(ctx: CallContext): Promise<Buffer> {
  if (!ctx.request.isMultipart()) throw badFile('fileMissing');
  const part = await ctx.request.file({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1 } });
  if (part?.fieldname !== 'file') throw badFile('fileMissing');
  try {
    return await part.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw badFile('fileSize');
    throw err;
  }
}

/** GET /uploads/avatars/:key — public, like any image URL; keys are random and change per upload. */
export function registerAvatarRoute(app: FastifyInstance, db: Kysely<Database>): void {
  app.get<{ Params: { key: string } }>(`${AVATAR_PATH}/:key`, async (request, reply) => {
    const { key } = request.params;
    const row = /^[0-9a-f]{32}$/.test(key) ? await findAvatar(db, key) : undefined;
    if (!row) return reply.code(404).type('text/plain').send('Not found');
    return reply
      .type(row.mime)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(Buffer.from(row.bytes));
  });
}
