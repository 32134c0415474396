/**
 * The state file behind `--state FILE` (node only): an append-only journal of JSON lines, a header
 * line first, then one entry per acknowledged change (./entries.ts). Appends are grouped: the entries
 * appended in one tick (or while two flushes run) form one batch, written with one write and one
 * fdatasync, and each append's promise resolves only once its batch is on disk (the engine answers
 * a write after that). A token's state is rebuilt on demand from its entries' byte
 * ranges (an index of offsets is all that stays in memory), so an evicted state can be reloaded.
 *
 * Opening: a missing or empty file is created; a file that does not start with the header is not a
 * state file ({@link StateFileError}, exit 2); a line that is not a complete entry (a torn tail after
 * a kill) ends the valid prefix: the file is cut there and a warning names the byte offset.
 * Compaction rewrites the file from the live images (to a temporary file, fsync, rename) when it
 * grows past twice its last compacted size, so its size stays proportional to the live state.
 */
import {
  closeSync,
  fdatasync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { applyEntry, type Entry, emptyImage, entriesOf, isEntry, type TokenImage } from './entries.ts';
import { StateFileError } from './state-file-error.ts';

export { StateFileError };

export const STATE_FORMAT = 'store-admin-mock-state';
export const STATE_FORMAT_VERSION = 1;
const HEADER = `${JSON.stringify({ format: STATE_FORMAT, version: STATE_FORMAT_VERSION })}\n`;
/** Compaction never runs below this size (a small file is cheap to replay). */
export const MIN_COMPACT_BYTES = 8 * 1024 * 1024;

export interface JournalOptions {
  /** Receives the torn-tail warning. Default: console.warn. */
  warn?: (message: string) => void;
  /** Size below which the file is never compacted. Default {@link MIN_COMPACT_BYTES}. */
  minCompactBytes?: number;
}

/** Byte ranges of one token's entries: offset, length, offset, length... */
type Ranges = number[];
type Waiter = { resolve(): void; reject(error: Error): void };
/** fdatasyncs that may run at once: a batch is written while the previous one is being flushed. */
const MAX_SYNCS = 2;

export class Journal {
  readonly path: string;
  private fd: number;
  /** Token -> byte ranges of its entries (a reset of every token is listed under each). */
  private index = new Map<string, Ranges>();
  /** Bytes written to the file (in the page cache; durable once a later fdatasync returned). */
  private written: number;
  /** Lines queued for the next batch, and the appends waiting on them. */
  private pending: string[] = [];
  private pendingBytes = 0;
  private waiters: Waiter[] = [];
  private scheduled = false;
  /** fdatasyncs running (at most {@link MAX_SYNCS}); the next batch is written meanwhile. */
  private syncing = 0;
  private idle: (() => void)[] = [];
  private broken: Error | undefined;
  private compactedSize: number;
  private readonly minCompactBytes: number;
  /** Number of entries in the file (after the header), for the start banner. */
  entries = 0;

  private constructor(path: string, fd: number, size: number, minCompactBytes: number) {
    this.path = path;
    this.fd = fd;
    this.written = size;
    this.compactedSize = size;
    this.minCompactBytes = minCompactBytes;
  }

  /** Opens (or creates) a state file and indexes its entries. */
  static open(path: string, options: JournalOptions = {}): Journal {
    const fd = openOrCreate(path);
    const size = fstatSync(fd).size;
    const bytes = Buffer.alloc(size);
    if (size > 0) readSync(fd, bytes, 0, size, 0);
    const journal = new Journal(path, fd, size, options.minCompactBytes ?? MIN_COMPACT_BYTES);
    const valid = journal.indexAll(bytes);
    if (valid < size) {
      ftruncateSync(fd, valid);
      fsyncSync(fd);
      journal.written = valid;
      (options.warn ?? console.warn)(
        `${path}: torn tail at byte ${valid} (${size - valid} bytes dropped, not a complete entry); loaded the ${journal.entries} entries before it`,
      );
    }
    journal.compactedSize = journal.written;
    return journal;
  }

  /** Indexes every complete entry; returns the byte offset where the valid prefix ends. */
  private indexAll(bytes: Buffer): number {
    const headerEnd = bytes.indexOf(10);
    const header = headerEnd === -1 ? undefined : parseLine(bytes.toString('utf8', 0, headerEnd));
    const ok = header && header.format === STATE_FORMAT;
    if (!ok) {
      throw new StateFileError(
        `${this.path}: not a mock state file (it does not start with {"format":"${STATE_FORMAT}",...}); give --state a new file or one the mock wrote`,
      );
    }
    if (header.version !== STATE_FORMAT_VERSION) {
      throw new StateFileError(
        `${this.path}: state file format version ${String(header.version)}, this mock reads version ${STATE_FORMAT_VERSION}`,
      );
    }
    let start = headerEnd + 1;
    while (start < bytes.length) {
      const end = bytes.indexOf(10, start);
      if (end === -1) break;
      const entry = parseLine(bytes.toString('utf8', start, end));
      if (!isEntry(entry)) break;
      this.note(entry, start, end + 1 - start);
      start = end + 1;
    }
    return start;
  }

  private note(entry: Entry, offset: number, length: number): void {
    this.entries++;
    if ('all' in entry) {
      for (const ranges of this.index.values()) ranges.push(offset, length);
      return;
    }
    const ranges = this.index.get(entry.token) ?? [];
    if (ranges.length === 0) this.index.set(entry.token, ranges);
    ranges.push(offset, length);
  }

  /** Tokens with entries in the file. */
  tokens(): string[] {
    return [...this.index.keys()];
  }

  has(token: string): boolean {
    return this.index.has(token);
  }

  /** A token's image as its entries (written or still queued) leave it; undefined without entries. */
  load(token: string): TokenImage | undefined {
    const ranges = this.index.get(token);
    if (!ranges) return undefined;
    const first = ranges[0] as number;
    const end = (ranges.at(-2) as number) + (ranges.at(-1) as number);
    const span = this.read(first, end - first);
    const image = emptyImage();
    for (let i = 0; i < ranges.length; i += 2) {
      const at = (ranges[i] as number) - first;
      applyEntry(image, JSON.parse(span.toString('utf8', at, at + (ranges[i + 1] as number))) as Entry);
    }
    return image;
  }

  /** Bytes from the file, or from the queue for what is not written yet. */
  private read(offset: number, length: number): Buffer {
    const out = Buffer.alloc(length);
    const fromFile = Math.max(0, Math.min(length, this.written - offset));
    if (fromFile > 0) readSync(this.fd, out, 0, fromFile, offset);
    if (fromFile < length) Buffer.from(this.pending.join('')).copy(out, fromFile, offset + fromFile - this.written);
    return out;
  }

  /** Queues an entry; resolves once it is on disk (fdatasync), rejects if the file cannot be written. */
  append(entry: Entry): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
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
    if (this.pending.length === 0 || this.syncing >= MAX_SYNCS || this.broken) return;
    const waiters = this.waiters;
    const batch = Buffer.from(this.pending.join(''));
    this.pending = [];
    this.pendingBytes = 0;
    this.waiters = [];
    try {
      for (let done = 0; done < batch.length; ) {
        done += writeSync(this.fd, batch, done, batch.length - done, this.written + done);
      }
    } catch (error) {
      this.fail(error, waiters);
      return;
    }
    this.written += batch.length;
    this.syncing++;
    fdatasync(this.fd, (error) => {
      this.syncing--;
      if (error) {
        this.fail(error, waiters);
        return;
      }
      for (const waiter of waiters) waiter.resolve();
      if (this.pending.length > 0) {
        this.flush();
        return;
      }
      if (this.syncing > 0) return;
      // Nothing queued, nothing in flight: the moment to compact, then to let close() go on.
      if (this.written > Math.max(this.minCompactBytes, 2 * this.compactedSize)) this.compact();
      for (const done of this.idle.splice(0)) done();
    });
  }

  /** The file cannot be written: this batch and every later append are refused. */
  private fail(error: unknown, waiters: Waiter[]): void {
    // No path in the message: it reaches answers (the server's log names the file).
    this.broken = new Error(`cannot write the state file (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    for (const waiter of [...waiters, ...this.waiters.splice(0)]) waiter.reject(this.broken);
    for (const done of this.idle.splice(0)) done();
  }

  /** Rewrites the file as the fewest entries that rebuild every token (sync: nothing appends meanwhile). */
  compact(): void {
    const temporary = `${this.path}.compact`;
    const fd = openSync(temporary, 'w');
    const index = new Map<string, Ranges>();
    let position = writeSync(fd, HEADER);
    let entries = 0;
    let chunk: string[] = [];
    const drain = () => {
      if (chunk.length > 0) writeSync(fd, chunk.join(''));
      chunk = [];
    };
    for (const token of this.index.keys()) {
      const ranges: Ranges = [];
      for (const entry of entriesOf(token, this.load(token) ?? emptyImage())) {
        const line = `${JSON.stringify(entry)}\n`;
        const length = Buffer.byteLength(line);
        ranges.push(position, length);
        position += length;
        entries++;
        chunk.push(line);
        if (chunk.length >= 1000) drain();
      }
      if (ranges.length > 0) index.set(token, ranges);
    }
    drain();
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temporary, this.path);
    syncDirectory(this.path);
    closeSync(this.fd);
    this.fd = openSync(this.path, 'r+');
    this.index = index;
    this.written = position;
    this.compactedSize = position;
    this.entries = entries;
  }

  /** Bytes in the file now (written, queued excluded). */
  get size(): number {
    return this.written;
  }

  /** Waits for every queued entry to be on disk, then closes the file. */
  async close(): Promise<void> {
    if (!this.broken && (this.syncing > 0 || this.pending.length > 0)) {
      await new Promise<void>((resolve) => this.idle.push(resolve));
    }
    closeSync(this.fd);
  }
}

function parseLine(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Opens the file for reading and writing; a missing or empty one (or a torn header) gets the header. */
function openOrCreate(path: string): number {
  let fd: number;
  try {
    fd = openSync(path, 'r+');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new StateFileError(`${path}: cannot open the state file (${(error as NodeJS.ErrnoException).code})`);
    }
    fd = openSync(path, 'w+');
  }
  const size = fstatSync(fd).size;
  const head = Buffer.alloc(Math.min(size, HEADER.length));
  if (size > 0) readSync(fd, head, 0, head.length, 0);
  // Created, or killed while the header was being written: the header is (re)written.
  if (size < HEADER.length && HEADER.startsWith(head.toString('utf8'))) {
    ftruncateSync(fd, 0);
    writeSync(fd, HEADER, 0);
    fsyncSync(fd);
    syncDirectory(path);
  }
  return fd;
}

/** Makes a created or renamed file's directory entry durable. */
function syncDirectory(path: string): void {
  const fd = openSync(dirname(path), 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
