import { defineHandlers } from '../../api/handlers';
import { exportProof } from './export';
import * as proof from './service';

export const proofHandlers = defineHandlers({
  proofList: (ctx, body) => proof.list(ctx, body),
  proofSummary: (ctx) => proof.summary(ctx),
  proofExport: (ctx, filter) => exportProof(ctx, filter),
});
