// Where a page ends in a list paged by keyset on an instant and an id (the board's columns by
// created_at, My tasks by due or done time): the last row's instant and id, so the next page starts
// just after it whatever was added or removed meanwhile. Carried in URLs and the API as
// `2026-12-03T08:00:00.000Z_123`.

export type KeysetCursor = { at: string; id: number };

/** An instant exactly as the app stores them (`toISOString()`), then `_` and the row's id. */
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)_([1-9]\d{0,14})$/;

/**
 * The cursor in `raw`, or null when it is not one: a real instant written as stored (the columns are
 * compared as text, so no other spelling of the same time), a positive safe id.
 */
export function parseKeysetCursor(raw: string | null | undefined): KeysetCursor | null {
  const match = raw && raw.length <= 40 ? CURSOR.exec(raw) : null;
  if (!match) return null;
  const [, at = "", digits = ""] = match;
  const time = Date.parse(at);
  const id = Number(digits);
  if (Number.isNaN(time) || new Date(time).toISOString() !== at || !Number.isSafeInteger(id)) return null;
  return { at, id };
}

export function formatKeysetCursor(cursor: KeysetCursor): string {
  return `${cursor.at}_${cursor.id}`;
}
