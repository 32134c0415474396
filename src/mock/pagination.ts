/**
 * Cursor pagination of the mock's lists. A cursor is opaque to clients: base64url of `n:<key>`
 * (the page after the record with that key) or `p:<key>` (the page before it). Lists are ordered by
 * key (id, ascending), so a cursor stays valid when records are added. A cursor the mock never
 * issued does not decode and is refused (400 naming `query.cursor`).
 */

export type Cursor = { direction: 'n' | 'p'; key: number };

const toBase64Url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

export function encodeCursor(cursor: Cursor): string {
  return toBase64Url(`${cursor.direction}:${cursor.key}`);
}

export function decodeCursor(text: string): Cursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(text)) return undefined;
  let decoded: string;
  try {
    decoded = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return undefined;
  }
  const match = /^([np]):(-?\d{1,15})$/.exec(decoded);
  if (!match || encodeCursor({ direction: match[1] as 'n' | 'p', key: Number(match[2]) }) !== text) return undefined;
  return { direction: match[1] as 'n' | 'p', key: Number(match[2]) };
}

export interface Page<T> {
  items: T[];
  next?: Cursor;
  previous?: Cursor;
}

/** Index of the first record whose key is above `key` (`orEqual`: at or above), by binary search. */
export function search<T>(records: T[], keyOf: (record: T) => number, key: number, orEqual: boolean): number {
  let low = 0;
  let high = records.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const value = keyOf(records[middle] as T);
    if (value > key || (orEqual && value === key)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** One page of `records` (sorted by ascending key); the cursor's position by binary search. */
export function pageOf<T>(records: T[], keyOf: (record: T) => number, size: number, cursor?: Cursor): Page<T> {
  let start = 0;
  let end = Math.min(size, records.length);
  if (cursor?.direction === 'n') {
    start = search(records, keyOf, cursor.key, false);
    end = Math.min(start + size, records.length);
  } else if (cursor?.direction === 'p') {
    end = search(records, keyOf, cursor.key, true);
    start = Math.max(0, end - size);
  }
  const items = records.slice(start, end);
  const first = items[0];
  const last = items[items.length - 1];
  return {
    items,
    ...(last !== undefined && end < records.length && { next: { direction: 'n', key: keyOf(last) } }),
    ...(first !== undefined && start > 0 && { previous: { direction: 'p', key: keyOf(first) } }),
  };
}
