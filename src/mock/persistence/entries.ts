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
 *   global   global snapshot N defined (definition id I): every record it holds beyond the seeded
 *            data, in the line itself (it owes nothing to the state it was taken from)
 *   unglobal global snapshot N deleted (a definition a fork names stays in the file)
 *   fork     token T's state is now a fork of definition I of global snapshot N: its changes
 *            after this line lie over that definition, not over the seeded data
 *
 * A state is the seeded data, or a global snapshot's definition (its `origin`), plus its changed
 * records (an {@link Image}), so replaying a token's entries needs no seed: the engine lays the
 * image over its own seeded data or over the definition.
 */
import type { AnyRecord } from '../model/index.ts';

/** The key of the shared state (`--shared-state`) in entries; a bearer token is never empty. */
export const SHARED_KEY = '';

/** One changed record: collection, key, the record (records are added or replaced, never removed). */
export type Change = [collection: string, key: string, record: AnyRecord];

export type Entry =
  | { op: 'put'; token: string; changes: Change[] }
  | { op: 'reset'; token: string; plain?: true }
  | { op: 'reset'; all: true }
  | { op: 'snapshot'; token: string; name: string; at: string }
  | { op: 'restore'; token: string; name: string }
  | { op: 'drop'; token: string; name: string }
  | { op: 'global'; name: string; id: string; at: string; changes: Change[] }
  | { op: 'unglobal'; name: string }
  | ({ op: 'fork'; token: string } & Origin);

/** The global snapshot a fork started from: its name and the id of the definition it copied. */
export interface Origin {
  name: string;
  id: string;
  at: string;
}

/** Changed records by collection and key: what a state holds beyond the seeded data. */
export type Image = Map<string, Map<string, AnyRecord>>;

export interface Snapshot<S> {
  at: string;
  state: S;
  /** The global snapshot the state lies over (undefined: the seeded data). */
  origin?: Origin | undefined;
}

/** A token's state as its entries leave it: the live image, what it lies over, its named snapshots. */
export interface TokenImage {
  live: Image;
  /** The global snapshot the live image lies over (a fork's); undefined: the seeded data. */
  origin?: Origin | undefined;
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
        const records = image.live.get(collection) ?? new Map<string, AnyRecord>();
        image.live.set(collection, records);
        records.set(key, record);
      }
      return;
    case 'reset':
      // A fork goes back to its global snapshot; `plain` (written by compaction) to the seeded data.
      image.live = new Map();
      if ('plain' in entry) image.origin = undefined;
      return;
    case 'fork':
      image.live = new Map();
      image.origin = { name: entry.name, id: entry.id, at: entry.at };
      return;
    case 'snapshot':
      image.snapshots.set(entry.name, { at: entry.at, state: copyImage(image.live), origin: image.origin });
      return;
    case 'restore': {
      const snapshot = image.snapshots.get(entry.name);
      if (snapshot) {
        image.live = copyImage(snapshot.state);
        image.origin = snapshot.origin;
      }
      return;
    }
    case 'drop':
      image.snapshots.delete(entry.name);
      return;
    default:
      return; // `global` and `unglobal` belong to no token (./journal.ts indexes them apart)
  }
}

/**
 * The fewest entries that rebuild `image` for `token` (what compaction writes): each snapshot's
 * state as the records that differ from the one before it (a reset first only when it lacks a
 * record the one before had), then the live state the same way; puts chunked. A state over
 * another global snapshot than the one before starts with its `fork` line (a reference, never a
 * copy of the snapshot's records), one over the seeded data after a fork's with a plain reset.
 */
export function entriesOf(token: string, image: TokenImage, chunk = 1000): Entry[] {
  const out: Entry[] = [];
  let previous: Image | undefined;
  let origin: Origin | undefined;
  const puts = (state: Image, over: Origin | undefined) => {
    if (over?.id !== origin?.id) {
      out.push(over ? { op: 'fork', token, ...over } : { op: 'reset', token, plain: true });
      origin = over;
      previous = undefined;
    }
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
    puts(snapshot.state, snapshot.origin);
    out.push({ op: 'snapshot', token, name, at: snapshot.at });
  }
  puts(image.live, image.origin);
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
    case 'fork':
      return named && typeof entry.id === 'string' && typeof entry.at === 'string';
    case 'global':
      return (
        typeof entry.name === 'string' &&
        typeof entry.id === 'string' &&
        typeof entry.at === 'string' &&
        isEntry({ op: 'put', token: '', changes: entry.changes })
      );
    case 'unglobal':
      return typeof entry.name === 'string';
    case 'snapshot':
      return named && typeof entry.at === 'string';
    case 'restore':
    case 'drop':
      return named;
    default:
      return false;
  }
}
