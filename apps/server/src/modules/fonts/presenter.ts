import type { BrandFont } from '@esl/contract';
import type { FontRow } from './repository';

export function presentFont(row: FontRow, templates: readonly string[]): BrandFont {
  return {
    id: row.id,
    family: row.family,
    weight: Number(row.weight),
    format: row.format as BrandFont['format'],
    name: row.name,
    size: Number(row.size),
    hash: row.hash,
    createdAt: Number(row.created_at),
    templates: [...templates],
  };
}
