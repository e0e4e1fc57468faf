import { defineHandlers } from '../../api/handlers';
import * as fonts from './service';

/**
 * A tenant's brand fonts (/mgr/templ/font*, beyond SPEC; docs/LABELS.md "Fonts a retailer brings").
 * The upload is the templates module's handler (templates/routes.ts): it also redraws the
 * thumbnails of the templates naming the family, and templates may use fonts, not the reverse.
 */
export const fontHandlers = defineHandlers({
  fontList: async (ctx) => {
    const rows = await fonts.list(ctx);
    return { rows, count: rows.length };
  },
  delFont: (ctx, { id }) => fonts.remove(ctx, id),
  fontFile: (ctx, { id }) => fonts.file(ctx, id),
});
