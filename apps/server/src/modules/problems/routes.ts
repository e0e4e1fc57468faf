import { defineHandlers } from '../../api/handlers';
import { exportProblems } from './export';
import * as problems from './service';

/** Problems to act on (`/mgr/problems/*`, docs/PROBLEMS.md). */
export const problemHandlers = defineHandlers({
  problemsList: (ctx, body) => problems.list(ctx, body),
  problemsSummary: (ctx) => problems.summary(ctx),
  problemsChain: (ctx) => problems.chain(ctx),
  problemsExport: (ctx, filter) => exportProblems(ctx, filter),
});
