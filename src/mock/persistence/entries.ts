/**
 * What the state journal records, and how a token's entries add up to its state (browser-safe: no
 * node: import; ./journal.ts writes and reads them). One entry per acknowledged change, in the order
 * the engine applied them:
 *
 *   put      token T put records R1..Rn (in collections C1..Cn, keys K1..Kn): one write, one line,
 *            so a write is never half-applied on reload
 *   reset    token T (or every token) back to the seeded data; its snapshots stay
 *   snapshot token T saved its state as snapshot N
 *   restore  token T's state is snapshot N again
 *   drop     snapshot N of token T deleted
 *
 * A state is the seeded data plus its changed records (an {@link Image}), so replaying a token's
 * entries needs no seed: the engine lays the image over its own seeded data.
 */
import type { Rec } from '../model/index.ts';

/** The key of the shared state (`--shared-state`) in entries; a bearer token is never empty. */
export const SHARED_KEY = '';

/** One changed record: collection, key, the record (records are added or replaced, never removed). */
export type Change = [collection: string, key: string, record: Rec];

export type Entry =
  | { op: 'put'; token: string; changes: Change[] }
  | { op: 'reset'; token: string }
  | { op: 'reset'; all: true }
  | { op: 'snapshot'; token: string; name: string; at: string }
  | { op: 'restore'; token: string; name: string }
  | { op: 'drop'; token: string; name: string };

/** Changed records by collection and key: what a state holds beyond the seeded data. */
export type Image = Map<string, Map<string, Rec>>;

export interface Snapshot<S> {
  at: string;
  state: S;
}

/** A token's state as its entries leave it: the live image and its named snapshots. */
export interface TokenImage {
  live: Image;
  snapshots: Map<string, Snapshot<Image>>;
}

export const emptyImage = (): TokenImage => ({ live: new Map(), snapshots: new Map() });

/** A copy sharing the records (they are never changed in place). */
export const copyImage = (image: Image): Image => new Map([...image].map(([c, records]) => [c, new Map(records)]));

/** The image's changes, in collection then key order of insertion. */
export function changesOf(image: Image): Change[] {
  const changes: Change[] = [];
  for (const [collection, records] of image)
    for (const [key, record] of records) changes.push([collection, key, record]);
  return changes;
}

/** Applies one entry to a token's image (an entry of another token is the caller's to filter). */
export function applyEntry(image: TokenImage, entry: Entry): void {
  switch (entry.op) {
    case 'put':
      for (const [collection, key, record] of entry.changes) {
        const records = image.live.get(collection) ?? new Map<string, Rec>();
        image.live.set(collection, records);
        records.set(key, record);
      }
      return;
    case 'reset':
      image.live = new Map();
      return;
    case 'snapshot':
      image.snapshots.set(entry.name, { at: entry.at, state: copyImage(image.live) });
      return;
    case 'restore': {
      const snapshot = image.snapshots.get(entry.name);
      if (snapshot) image.live = copyImage(snapshot.state);
      return;
    }
    case 'drop':
      image.snapshots.delete(entry.name);
      return;
  }
}

/**
 * The fewest entries that rebuild `image` for `token` (what compaction writes): each snapshot's
 * state as the records that differ from the one before it (a reset first only when it lacks a
 * record the one before had), then the live state the same way; puts chunked.
 */
export function entriesOf(token: string, image: TokenImage, chunk = 1000): Entry[] {
  const out: Entry[] = [];
  let previous: Image | undefined;
  const puts = (state: Image) => {
    if (previous && !covers(state, previous)) {
      out.push({ op: 'reset', token });
      previous = undefined;
    }
    const before = previous;
    const changes = changesOf(state).filter(([c, key, record]) => before?.get(c)?.get(key) !== record);
    for (let i = 0; i < changes.length; i += chunk)
      out.push({ op: 'put', token, changes: changes.slice(i, i + chunk) });
    previous = state;
  };
  for (const [name, snapshot] of image.snapshots) {
    puts(snapshot.state);
    out.push({ op: 'snapshot', token, name, at: snapshot.at });
  }
  puts(image.live);
  return out;
}

/** True when `state` has a record at every key `previous` has. */
function covers(state: Image, previous: Image): boolean {
  for (const [collection, records] of previous) {
    const now = state.get(collection);
    for (const key of records.keys()) if (!now?.has(key)) return false;
  }
  return true;
}

/** Why an entry cannot be applied to a token's image as loaded so far (its line is skipped), or undefined. */
export type EntryCheck = (entry: Entry, image: TokenImage) => string | undefined;

/** True when `value` has the shape of an entry (a line of a state file is checked with it). */
export function isEntry(value: unknown): value is Entry {
  if (!value || typeof value !== 'object') return false;
  const entry = value as Record<string, unknown>;
  const named = typeof entry.token === 'string' && typeof entry.name === 'string';
  switch (entry.op) {
    case 'put':
      return (
        typeof entry.token === 'string' &&
        Array.isArray(entry.changes) &&
        entry.changes.every(
          (c) =>
            Array.isArray(c) &&
            typeof c[0] === 'string' &&
            typeof c[1] === 'string' &&
            c[2] !== null &&
            typeof c[2] === 'object' &&
            !Array.isArray(c[2]),
        )
      );
    case 'reset':
      return typeof entry.token === 'string' || entry.all === true;
    case 'snapshot':
      return named && typeof entry.at === 'string';
    case 'restore':
    case 'drop':
      return named;
    default:
      return false;
  }
}
