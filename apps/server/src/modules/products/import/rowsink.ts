import type { SheetRow } from './csv';
import { LimitError, type ReadLimits } from './limits';

/**
 * Collects the rows a reader finds, stopping the read as soon as the rows or the cells of all rows
 * pass their limit: the row after the last allowed one is never parsed.
 */
export class RowSink {
  readonly rows: SheetRow[] = [];
  private cells = 0;

  constructor(private readonly limits: ReadLimits) {}

  add(row: SheetRow): void {
    // The title row plus `limits.rows` product rows.
    if (this.rows.length > this.limits.rows) {
      throw new LimitError('rows', String(this.limits.rows), this.rows[0]?.line ?? row.line);
    }
    this.cells += row.cells.length;
    if (this.cells > this.limits.cells) throw new LimitError('cells', String(this.limits.cells), row.line);
    this.rows.push(row);
  }
}
