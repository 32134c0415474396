/**
 * The state file behind `--state FILE` (node only): an append-only journal of JSON lines, a header
 * line first, then one entry per acknowledged change (./entries.ts). Appends are grouped: the entries
 * appended in one tick (or while two flushes run) form one batch, written with one write and one
 * fdatasync, and each append's promise resolves only once its batch is on disk (the engine answers
 * a write after that). A token's state is rebuilt on demand from its entries' byte ranges (an index
 * of offsets is all that stays in memory; a reset of a state without snapshots drops the ranges
 * before it), so an evicted state can be reloaded. docs/mock.md "The journal's guarantees".
 *
 * Opening: the file's lock is taken first (./lock.ts: a second mock refuses to start); a symbolic
 * link is followed (the journal is its target); a missing or empty file is created, mode 0600; a
 * file that does not start with the header is not a state file ({@link StateFileError}, exit 2).
 * Only a last line without its newline is a torn tail (a kill during a write): the file is cut there.
 * A complete line that is not an entry (a corrupt byte, a hand edit), or longer than
 * {@link MAX_LINE_BYTES}, is skipped with a warning naming its byte offset, and the lines after it
 * load. Compaction (./compaction.ts) runs beside the answers once the file doubled. The global
 * snapshots' definitions are indexed apart (by id, and the current one by name): a fork's state is
 * rebuilt over the definition its `fork` line names, even after that snapshot was replaced or deleted.
 */
import {
  closeSync,
  constants,
  fdatasync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  writeSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import { applyEntry, type Entry, type EntryCheck, emptyImage, isEntry, type TokenImage } from './entries.ts';
import { linesOf } from './lines.ts';
import { acquireLock } from './lock.ts';
import { StateFileError } from './state-file-error.ts';

export { StateFileError };

export const STATE_FORMAT = 'store-admin-mock-state';
export const STATE_FORMAT_VERSION = 1;
export const HEADER = `${JSON.stringify({ format: STATE_FORMAT, version: STATE_FORMAT_VERSION })}\n`;
/** Compaction never runs below this size (a small file is cheap to replay). */
export const MIN_COMPACT_BYTES = 8 * 1024 * 1024;
/** The longest line read (the mock writes lines of at most about a MiB); a longer one is skipped. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface JournalOptions {
  /** Receives the warnings (a torn tail, a skipped line, a failed compaction). Default: console.warn. */
  warn?: (message: string) => void;
  /** Size below which the file is never compacted. Default {@link MIN_COMPACT_BYTES}. */
  minCompactBytes?: number;
}

/** Byte ranges of one token's entries: offset, length, offset, length... */
export type Ranges = number[];
type Waiter = { resolve(): void; reject(error: Error): void };
/** A batch written and being flushed; `dead` once a failure cut the file before its end. */
interface Batch {
  fd: number;
  start: number;
  waiters: Waiter[];
  dead: boolean;
}
/** Skipped lines named one by one; beyond, one line says there are more. */
const MAX_WARNINGS = 20;
/** fdatasyncs that may run at once: a batch is written while the previous one is being flushed. */
const MAX_SYNCS = 2;

export class Journal {
  /** The path as given (messages name it). */
  readonly path: string;
  /** The file written: `path`, or the target of the link `path` is. */
  readonly file: string;
  fd: number;
  /** Token -> byte ranges of its entries (a reset of every token is listed under each). */
  index = new Map<string, Ranges>();
  /** Snapshot names per token, as its entries leave them (a reset drops earlier ranges only without). */
  private names = new Map<string, Set<string>>();
  /** Tokens that were forked: a reset keeps their ranges (the `fork` line says what they go back to). */
  private forked = new Set<string>();
  /** Global snapshot definitions: id -> the byte range of its `global` line. */
  definitions = new Map<string, [offset: number, length: number]>();
  /** The current global snapshots: name -> definition id. */
  globalNames = new Map<string, string>();
  /** Bytes written to the file (in the page cache; durable once a later fdatasync returned). */
  written: number;
  /** Lines queued for the next batch, and the appends waiting on them. */
  private pending: string[] = [];
  pendingBytes = 0;
  private waiters: Waiter[] = [];
  private scheduled = false;
  /** Batches whose fdatasync runs (at most {@link MAX_SYNCS}); the next batch is written meanwhile. */
  private inflight = new Set<Batch>();
  private idle: (() => void)[] = [];
  /** Bumped by each write failure: a compaction that started before it is abandoned. */
  epoch = 0;
  /** Bumped by each compaction's swap: the offsets start over in the new file. */
  private generation = 0;
  compactedSize: number;
  readonly minCompactBytes: number;
  compacting: Promise<void> | undefined;
  readonly warn: (message: string) => void;
  /** Why an entry is skipped when a token loads (given by the token store: schemas, limits). */
  check: EntryCheck | undefined;
  private readonly skipped = new Set<number>();
  private readonly release: () => void;
  /** Number of entries in the file (after the header), for the start banner. */
  entries = 0;

  /** `path` as given, `file` the real file it names, `fd` open on it, `release` letting go of its lock. */
  private constructor(
    opened: { path: string; file: string; fd: number; release: () => void },
    options: JournalOptions,
  ) {
    const { path, file, fd, release } = opened;
    this.path = path;
    this.file = file;
    this.fd = fd;
    this.written = fstatSync(fd).size;
    this.compactedSize = this.written;
    this.minCompactBytes = options.minCompactBytes ?? MIN_COMPACT_BYTES;
    this.warn = options.warn ?? console.warn;
    this.release = release;
  }

  /** Opens (or creates) a state file, takes its lock and indexes its entries. */
  static open(path: string, options: JournalOptions = {}): Journal {
    const file = realFile(path);
    const release = acquireLock(file, path);
    try {
      const journal = new Journal({ path, file, fd: openOrCreate(file, path), release }, options);
      journal.indexAll();
      journal.compactedSize = journal.written;
      return journal;
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Indexes every entry line; skips (and names) a bad line, cuts a torn tail. */
  private indexAll(): void {
    const lines = linesOf(this.fd, 0, this.written, MAX_LINE_BYTES);
    const header = lines.next().value;
    const parsed = header?.terminated && header.text !== undefined ? parseLine(header.text) : undefined;
    if (!parsed || parsed.format !== STATE_FORMAT) {
      throw new StateFileError(
        `${this.path}: not a mock state file (it does not start with {"format":"${STATE_FORMAT}",...}); give --state a new file or one the mock wrote`,
      );
    }
    if (parsed.version !== STATE_FORMAT_VERSION) {
      throw new StateFileError(
        `${this.path}: state file format version ${String(parsed.version)}, this mock reads version ${STATE_FORMAT_VERSION}`,
      );
    }
    for (const line of lines) {
      if (!line.terminated) {
        this.cutTornTail(line.offset);
        return;
      }
      const entry = line.text === undefined ? undefined : parseLine(line.text);
      if (isEntry(entry)) this.note(entry, line.offset, line.length);
      else {
        const why = line.text === undefined ? `longer than ${MAX_LINE_BYTES} bytes` : 'not a complete entry';
        this.skip(line.offset, `${line.length} bytes, ${why}`);
      }
    }
  }

  private cutTornTail(at: number): void {
    const dropped = this.written - at;
    ftruncateSync(this.fd, at);
    fsyncSync(this.fd);
    this.written = at;
    this.warn(
      `${this.path}: torn tail at byte ${at} (${dropped} bytes dropped, a last line without its newline); loaded the ${this.entries} entries before it`,
    );
  }

  /** Warns once about a line left out (it stays in the file until the next compaction); the first {@link MAX_WARNINGS} by name. */
  private skip(offset: number, why: string): void {
    if (this.skipped.has(offset)) return;
    this.skipped.add(offset);
    if (this.skipped.size < MAX_WARNINGS)
      this.warn(`${this.path}: line at byte ${offset} skipped (${why}); the lines after it are loaded`);
    else if (this.skipped.size === MAX_WARNINGS)
      this.warn(`${this.path}: more lines skipped, not named one by one (the next compaction leaves them out)`);
  }

  note(entry: Entry, offset: number, length: number): void {
    this.entries++;
    if (entry.op === 'global' || entry.op === 'unglobal') {
      this.noteGlobal(entry, offset, length);
      return;
    }
    if (entry.op === 'fork') {
      this.forked.add(entry.token);
      // A fork replaces the live state: a state without snapshots needs none of its earlier lines.
      if (!this.names.get(entry.token)?.size) this.index.delete(entry.token);
    }
    if ('all' in entry) {
      for (const token of [...this.index.keys()]) this.noteReset(token, offset, length);
      return;
    }
    if (entry.op === 'reset') {
      this.noteReset(entry.token, offset, length);
      return;
    }
    if (entry.op === 'snapshot' || entry.op === 'drop') {
      const names = this.names.get(entry.token) ?? new Set();
      this.names.set(entry.token, names);
      if (entry.op === 'snapshot') names.add(entry.name);
      else names.delete(entry.name);
    }
    const ranges = this.index.get(entry.token) ?? [];
    if (ranges.length === 0) this.index.set(entry.token, ranges);
    ranges.push(offset, length);
  }

  /** A reset: a state without snapshots, never forked, needs none of its earlier entries (nor this one). */
  private noteReset(token: string, offset: number, length: number): void {
    const ranges = this.index.get(token);
    if (!this.names.get(token)?.size && !this.forked.has(token)) this.index.delete(token);
    else ranges?.push(offset, length);
  }

  private noteGlobal(entry: Extract<Entry, { op: 'global' | 'unglobal' }>, offset: number, length: number): void {
    if (entry.op === 'unglobal') {
      this.globalNames.delete(entry.name);
      return;
    }
    this.definitions.set(entry.id, [offset, length]);
    this.globalNames.set(entry.name, entry.id);
  }

  /**
   * A global snapshot's definition by id (written or still queued); undefined when the file has
   * none, or when its records fail the load check (skipped with the warning naming its offset).
   */
  definition(id: string): Extract<Entry, { op: 'global' }> | undefined {
    const range = this.definitions.get(id);
    if (!range) return undefined;
    const entry = parseLine(this.read(range[0], range[1]).toString('utf8'));
    if (!isEntry(entry) || entry.op !== 'global') return undefined;
    const why = this.check?.({ op: 'put', token: '', changes: entry.changes }, emptyImage());
    if (why) this.skip(range[0], why);
    return why ? undefined : entry;
  }

  /** Tokens with entries in the file. */
  tokens(): string[] {
    return [...this.index.keys()];
  }

  has(token: string): boolean {
    return this.index.has(token);
  }

  /**
   * Changes whenever a token's entries do (the token store keeps its summary until then): a new
   * line of it has a greater offset than its last, unless a compaction renumbered the lines or a
   * failed write cut them (then the next line may land at a refused line's offset).
   */
  stamp(token: string): string | undefined {
    const ranges = this.index.get(token);
    return ranges && `${this.generation}.${this.epoch}.${ranges.at(-2)}`;
  }

  /** A token's image as its entries (written or still queued) leave it; undefined without entries. */
  load(token: string): TokenImage | undefined {
    const ranges = this.index.get(token);
    return ranges ? this.imageOf(ranges) : undefined;
  }

  /** The image of these ranges: adjacent ones read at once; an entry the check refuses is skipped. */
  imageOf(ranges: Ranges): TokenImage {
    const image = emptyImage();
    for (let i = 0; i < ranges.length; ) {
      const first = ranges[i] as number;
      let end = first + (ranges[i + 1] as number);
      let j = i + 2;
      while (j < ranges.length && ranges[j] === end) {
        end += ranges[j + 1] as number;
        j += 2;
      }
      const span = this.read(first, end - first);
      for (; i < j; i += 2) {
        const at = (ranges[i] as number) - first;
        const entry = JSON.parse(span.toString('utf8', at, at + (ranges[i + 1] as number))) as Entry;
        const why = this.check?.(entry, image);
        if (why) this.skip(ranges[i] as number, why);
        else applyEntry(image, entry);
      }
    }
    return image;
  }

  /** Bytes from the file, or from the queue for what is not written yet. */
  read(offset: number, length: number): Buffer {
    const out = Buffer.alloc(length);
    const fromFile = Math.max(0, Math.min(length, this.written - offset));
    if (fromFile > 0) readSync(this.fd, out, 0, fromFile, offset);
    if (fromFile < length) Buffer.from(this.pending.join('')).copy(out, fromFile, offset + fromFile - this.written);
    return out;
  }

  /** Queues an entry; resolves once it is on disk (fdatasync), rejects if the file cannot be written. */
  append(entry: Entry): Promise<void> {
    const line = `${JSON.stringify(entry)}\n`;
    const length = Buffer.byteLength(line);
    this.note(entry, this.written + this.pendingBytes, length);
    this.pending.push(line);
    this.pendingBytes += length;
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(() => this.flush()); // the appends of this tick join the batch
    }
    return done;
  }

  /**
   * Writes the queued lines as one batch (a synchronous write: a copy to the page cache) and starts
   * its fdatasync; its appends resolve when that returns. A fdatasync covers every byte written
   * before it started, so batches may overlap: the next is written while this one is flushed.
   */
  private flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0 || this.inflight.size >= MAX_SYNCS) return;
    const batch: Batch = { fd: this.fd, start: this.written, waiters: this.waiters, dead: false };
    const bytes = Buffer.from(this.pending.join(''));
    this.pending = [];
    this.pendingBytes = 0;
    this.waiters = [];
    this.inflight.add(batch);
    try {
      for (let done = 0; done < bytes.length; ) {
        done += writeSync(this.fd, bytes, done, bytes.length - done, this.written + done);
      }
    } catch (error) {
      this.fail(error, batch);
      return;
    }
    this.written += bytes.length;
    fdatasync(batch.fd, (error) => this.synced(batch, error));
  }

  private synced(batch: Batch, error: Error | null): void {
    if (batch.dead) {
      this.inflight.delete(batch);
      this.settle(batch.fd);
      return;
    }
    // A failed flush of a file compaction replaced is moot: its bytes were copied and synced.
    if (error && batch.fd === this.fd) {
      this.fail(error, batch);
      this.settle(batch.fd);
      return;
    }
    this.inflight.delete(batch);
    for (const waiter of batch.waiters) waiter.resolve();
    this.settle(batch.fd);
    if (this.pending.length > 0) this.flush();
    // Grown to twice its compacted size: compacted beside the answers (./compaction.ts).
    if (!this.compacting && this.written > Math.max(this.minCompactBytes, 2 * this.compactedSize)) {
      void this.startCompaction();
    }
  }

  /** After a batch's fdatasync: closes a file compaction replaced, wakes close() when all is on disk. */
  private settle(fd: number): void {
    if (fd !== this.fd && ![...this.inflight].some((b) => b.fd === fd)) closeSync(fd);
    if (this.inflight.size === 0 && this.pending.length === 0) for (const done of this.idle.splice(0)) done();
  }

  /**
   * The file could not be written (a full disk): the changes from this batch on are refused (the
   * engine answers 503), the file is cut back to before them, and later appends try again.
   */
  private fail(error: unknown, batch: Batch): void {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    // No path in the message: it reaches answers (the warning names the file).
    const refused = new Error(`cannot write the state file (${code})`);
    const at = batch.start;
    for (const other of this.inflight) {
      if (other.start < at || other.dead) continue;
      other.dead = true;
      for (const waiter of other.waiters) waiter.reject(refused);
    }
    this.inflight.delete(batch);
    for (const waiter of this.waiters.splice(0)) waiter.reject(refused);
    this.pending = [];
    this.pendingBytes = 0;
    this.epoch++;
    try {
      ftruncateSync(this.fd, at);
    } catch {}
    this.written = at;
    for (const [token, ranges] of this.index) {
      while (ranges.length > 0 && (ranges.at(-2) as number) >= at) ranges.length -= 2;
      if (ranges.length === 0) this.index.delete(token);
    }
    for (const [id, [offset]] of this.definitions) if (offset >= at) this.definitions.delete(id);
    for (const [name, id] of this.globalNames) if (!this.definitions.has(id)) this.globalNames.delete(name);
    this.warn(
      `${this.path}: cannot write (${code}); the changes since byte ${at} were refused, later ones will try again`,
    );
    if (this.inflight.size === 0) for (const done of this.idle.splice(0)) done();
  }

  /** Rewrites the file as the fewest entries that rebuild every token, beside the answers. */
  startCompaction(): Promise<void> {
    this.compacting ??= import('./compaction.ts')
      .then(({ compact }) => compact(this))
      .finally(() => {
        this.compacting = undefined;
      });
    return this.compacting;
  }

  /** Switches to the compacted file (./compaction.ts, synchronously after its rename). */
  swap(
    fd: number,
    indexes: { index: Map<string, Ranges>; definitions: Journal['definitions'] },
    written: number,
    entries: number,
  ): void {
    const old = this.fd;
    this.fd = fd;
    this.index = indexes.index;
    this.definitions = indexes.definitions;
    this.generation++;
    this.written = written;
    this.compactedSize = written;
    this.entries = entries;
    this.skipped.clear();
    if (![...this.inflight].some((b) => b.fd === old)) closeSync(old);
  }

  /** Bytes in the file now (written, queued excluded). */
  get size(): number {
    return this.written;
  }

  /** Waits for a compaction under way and every queued entry to be on disk, closes the file, frees its lock. */
  async close(): Promise<void> {
    await this.compacting?.catch(() => undefined);
    if (this.inflight.size > 0 || this.pending.length > 0) {
      await new Promise<void>((resolve) => this.idle.push(resolve));
    }
    closeSync(this.fd);
    this.release();
  }
}

export function parseLine(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The file a state path names: itself, or the target of the symbolic link it is (followed on
 * purpose, so that compaction replaces the target and the link stays; a dangling link's target is
 * created).
 */
function realFile(path: string): string {
  try {
    if (!lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) return path;
    return realpathSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return resolve(dirname(path), readlinkSync(path));
    throw new StateFileError(`${path}: cannot read the state file's path (${code})`, 'unavailable');
  }
}

/** Opens the file for reading and writing; a missing one is created 0600, a missing or torn header written. */
function openOrCreate(file: string, shown: string): number {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDWR | constants.O_CREAT, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EACCES' ? 'permission denied' : code;
    throw new StateFileError(`${shown}: cannot open or create the state file (${why})`, 'unavailable');
  }
  const size = fstatSync(fd).size;
  const head = Buffer.alloc(Math.min(size, HEADER.length));
  if (size > 0) readSync(fd, head, 0, head.length, 0);
  // Created, or killed while the header was being written: the header is (re)written.
  if (size < HEADER.length && HEADER.startsWith(head.toString('utf8'))) {
    ftruncateSync(fd, 0);
    writeSync(fd, HEADER, 0);
    fsyncSync(fd);
    syncDirectory(file);
  }
  return fd;
}

/** Makes a created or renamed file's directory entry durable. */
export function syncDirectory(path: string): void {
  const fd = openSync(dirname(path), 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
