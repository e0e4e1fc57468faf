import { requireTenant } from '../../api/context';
import { defineHandlers } from '../../api/handlers';
import * as templates from '../templates/service';
import * as fonts from './service';

/** A tenant's brand fonts (/mgr/templ/font*, beyond SPEC; docs/LABELS.md "Fonts a retailer brings"). */
export const fontHandlers = defineHandlers({
  fontList: async (ctx) => {
    const rows = await fonts.list(ctx);
    return { rows, count: rows.length };
  },
  uploadFont: async (ctx) => {
    const font = await fonts.upload(ctx);
    // Templates that already named the family get thumbnails drawn with it (their tags are
    // re-labelled by the upload itself).
    const using = await fonts.templatesUsing(ctx.services.db, requireTenant(ctx).tenantId, font.family);
    if (using.length > 0) await templates.redrawThumbnails(ctx, using);
    return font;
  },
  delFont: (ctx, { id }) => fonts.remove(ctx, id),
  fontFile: (ctx, { id }) => fonts.file(ctx, id),
});
