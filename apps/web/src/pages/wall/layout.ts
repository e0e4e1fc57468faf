import type { WallTag } from '@esl/contract';

/** One shelf of the wall: its tags left to right. */
export interface WallShelf {
  shelf: string;
  tags: WallTag[];
}
/** One bay of an aisle: its shelves in the order the server gave. */
export interface WallBay {
  bay: string;
  shelves: WallShelf[];
}
export interface WallAisle {
  aisle: string;
  bays: WallBay[];
}

/**
 * The wall's tags (already in wall order: aisle, bay, shelf, position) grouped into aisles, bays
 * and shelves, keeping that order.
 */
export function groupWall(tags: readonly WallTag[]): WallAisle[] {
  const aisles: WallAisle[] = [];
  for (const tag of tags) {
    let aisle = aisles.at(-1);
    if (aisle?.aisle !== tag.aisle) {
      aisle = { aisle: tag.aisle, bays: [] };
      aisles.push(aisle);
    }
    let bay = aisle.bays.at(-1);
    if (bay?.bay !== tag.bay) {
      bay = { bay: tag.bay, shelves: [] };
      aisle.bays.push(bay);
    }
    let shelf = bay.shelves.at(-1);
    if (shelf?.shelf !== tag.shelf) {
      shelf = { shelf: tag.shelf, tags: [] };
      bay.shelves.push(shelf);
    }
    shelf.tags.push(tag);
  }
  return aisles;
}

/** A row of a position import as the server takes it. */
export interface PositionRow {
  hardwareId: string;
  aisle: string;
  bay: string;
  shelf: string;
  position: string;
}

/**
 * A shelf plan pasted or read from a CSV file: one tag a line, `hardware ID, aisle, bay, shelf,
 * position` split by commas, semicolons or tabs; a first line whose first cell is not a hardware
 * ID is a header and skipped; empty lines are skipped. Answers the rows and the numbers (from 1)
 * of the lines that name no hardware ID.
 */
export function parsePositions(text: string): { rows: PositionRow[]; bad: number[] } {
  const rows: PositionRow[] = [];
  const bad: number[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const cells = line.split(/[,;\t]/).map((c) => c.trim().replace(/^"(.*)"$/, '$1'));
    const [hardwareId = '', aisle = '', bay = '', shelf = '', position = ''] = cells;
    if (!/^[0-9A-Fa-f]{8,16}$/.test(hardwareId)) {
      if (i > 0 || rows.length > 0) bad.push(i + 1);
      return;
    }
    rows.push({ hardwareId: hardwareId.toUpperCase(), aisle, bay, shelf, position });
  });
  return { rows, bad };
}
