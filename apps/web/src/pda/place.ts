/** A tag's place as the handheld's Place tab edits it (docs/SHELF.md). */
export interface PlaceFields {
  aisle: string;
  bay: string;
  shelf: string;
  position: string;
}

/**
 * A shelf's code, as printed on a shelf-edge strip and scanned: `aisle-bay-shelf` or
 * `aisle-bay-shelf-position`, split by `-`, `/`, `.` or spaces (e.g. `A3-2-4-7`, `A3/2/4`). null when
 * the code is not of that shape (fewer than three parts, a position that is not a number, a part
 * longer than 16 characters).
 */
export function parsePlaceCode(code: string): PlaceFields | null {
  const parts = code
    .trim()
    .split(/[-/.\s]+/)
    .filter(Boolean);
  if (parts.length < 3 || parts.length > 4 || parts.some((p) => p.length > 16)) return null;
  const [aisle = '', bay = '', shelf = '', position = ''] = parts;
  if (position !== '' && !/^[1-9][0-9]{0,3}$/.test(position)) return null;
  return { aisle, bay, shelf, position };
}

/** The place to offer for the next tag on the same shelf: the position after this one. */
export function nextPlace(p: PlaceFields): PlaceFields {
  const n = Number(p.position);
  return { ...p, position: Number.isInteger(n) && n > 0 && n < 9999 ? String(n + 1) : p.position };
}
