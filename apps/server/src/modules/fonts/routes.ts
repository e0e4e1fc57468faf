import { defineHandlers } from '../../api/handlers';
import * as fonts from './service';

/** A tenant's brand fonts (/mgr/templ/font*, beyond SPEC; docs/LABELS.md "Fonts a retailer brings"). */
export const fontHandlers = defineHandlers({
  fontList: async (ctx) => {
    const rows = await fonts.list(ctx);
    return { rows, count: rows.length };
  },
  uploadFont: (ctx) => fonts.upload(ctx),
  delFont: (ctx, { id }) => fonts.remove(ctx, id),
  fontFile: (ctx, { id }) => fonts.file(ctx, id),
});
