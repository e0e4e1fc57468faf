import type { Problem } from '@esl/contract';
import type { ProblemRow } from './repository';

/** One problem as the console and the export show it; `started`: when the sweep saw it start. */
export function presentProblem(row: ProblemRow, started?: number): Problem {
  const since = row.since === null ? (started ?? null) : Number(row.since);
  return {
    kind: row.kind,
    subject: row.subject,
    id: Number(row.id),
    code: row.code,
    name: row.name,
    barcode: row.barcode,
    detail: row.detail,
    otherStore: row.other_store,
    since,
  };
}
