import type { ParsedBodyOf } from '@esl/contract';
import { decodeTagImage, indexToPng } from '@esl/labels';
import { nodeDeflate } from '@esl/labels/node';
import type { CallContext } from '../../api/context';
import { notFound } from '../../api/errors';
import type { FileReply } from '../../api/handlers';
import { currentStore } from '../stores/service';
import * as repo from './repository';

/**
 * A tag's screen (/mgr/tag/screen) as a palette PNG of exactly the tag's inks, in the panel's
 * orientation: the stored bytes the tag was (or is to be) sent, decoded as the tag decodes them
 * — never drawn again from the template, so the picture is what reached the shelf, stale or not.
 */
export async function tagScreen(ctx: CallContext, { id, which }: ParsedBodyOf<'tagScreen'>): Promise<FileReply> {
  const at = await currentStore(ctx);
  const found = await repo.screenBytes(ctx.services.db, at, id, which);
  if (!found) throw notFound();
  if (!found.bytes) {
    throw notFound({ kind: which === 'shown' ? 'shownScreen' : 'desiredScreen', value: found.hardwareId });
  }
  const png = indexToPng(decodeTagImage(found.bytes), { deflate: nodeDeflate });
  return {
    body: Buffer.from(png.buffer, png.byteOffset, png.byteLength),
    filename: `${found.hardwareId}-${which}.png`,
  };
}
