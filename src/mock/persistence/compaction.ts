/**
 * Compaction of the state file (node only), beside the answers: the journal keeps appending to the
 * old file while the compacted copy is written token by token, yielding to the event loop every
 * {@link SLICE_MS}. The copy holds every token's image as of the moment it started (the `cut`);
 * then, in one synchronous step, the lines appended since are copied after it, the copy is synced
 * and renamed over the file. The copy is created exclusively (`O_EXCL`, a planted link is never
 * followed) with the file's mode. A failure leaves the file as it was, with a warning. A global
 * snapshot's definition is kept while it is current or a fork (or a fork's snapshot) names it.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { type Entry, entriesOf } from './entries.ts';
import { HEADER, type Journal, type Ranges, syncDirectory } from './journal.ts';

/** Work done between two yields to the event loop. */
const SLICE_MS = 8;
/** Bytes of lines gathered before one write. */
const WRITE_BYTES = 1024 * 1024;
// Read and write: the journal goes on with this descriptor once the copy replaced the file.
const EXCLUSIVE = constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

export async function compact(journal: Journal): Promise<void> {
  // Lines still queued lie after the cut: the new file gets them when they are written.
  const cut = journal.written;
  const epoch = journal.epoch;
  const temporary = `${journal.file}.compact`;
  let fd: number | undefined;
  try {
    fd = createExclusive(temporary, fstatSync(journal.fd).mode & 0o777);
    const out = new Output(fd);
    const index = new Map<string, Ranges>();
    out.write(HEADER);
    const named = new Set(journal.globalNames.values());
    let slice = performance.now();
    for (const token of [...journal.index.keys()]) {
      const before = rangesBefore(journal.index.get(token), cut);
      if (before.length === 0) continue;
      const ranges: Ranges = [];
      const image = journal.imageOf(before);
      for (const origin of [image.origin, ...[...image.snapshots.values()].map((s) => s.origin)])
        if (origin) named.add(origin.id);
      for (const entry of entriesOf(token, image)) ranges.push(...out.line(entry));
      if (ranges.length > 0) index.set(token, ranges);
      if (performance.now() - slice > SLICE_MS) {
        out.drain();
        await new Promise((resolve) => setImmediate(resolve));
        slice = performance.now();
        if (journal.epoch !== epoch) throw new Error('a write failed meanwhile');
      }
    }
    const definitions = writeDefinitions(journal, out, named, cut);
    out.drain();
    // From here on synchronous: nothing is appended until the journal uses the new file.
    if (journal.epoch !== epoch || journal.written < cut) throw new Error('a write failed meanwhile');
    const base = out.position;
    out.copy(journal, cut, journal.written);
    fsyncSync(fd);
    renameSync(temporary, journal.file);
    syncDirectory(journal.file);
    for (const [id, [offset, length]] of journal.definitions)
      if (offset >= cut) definitions.set(id, [offset - cut + base, length]);
    const indexes = { index: merged(journal.index, index, cut, base), definitions };
    journal.swap(fd, indexes, out.position, out.entries + tailEntries(journal, cut));
    fd = undefined;
  } catch (error) {
    journal.compactedSize = journal.written; // tried again once the file doubles again
    if (fd !== undefined) {
      closeSync(fd);
      unlinkSync(temporary);
    }
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    journal.warn(`${journal.path}: compaction failed (${code}); the file stays as it is`);
  }
}

/**
 * The `global` lines to keep (definitions written before the cut that are current or named by a
 * fork), each with its new range; the current ones last, so that replaying the file names them,
 * and a deleted one's name deleted again after it.
 */
function writeDefinitions(journal: Journal, out: Output, keep: Set<string>, cut: number): Journal['definitions'] {
  const definitions: Journal['definitions'] = new Map();
  const current = new Set(journal.globalNames.values());
  const ids = [...keep].sort((a, b) => Number(current.has(a)) - Number(current.has(b)));
  for (const id of ids) {
    const range = journal.definitions.get(id);
    const entry = range && range[0] < cut ? journal.definition(id) : undefined;
    if (!entry) continue;
    definitions.set(id, out.line(entry));
    if (!current.has(id) && !journal.globalNames.has(entry.name)) out.line({ op: 'unglobal', name: entry.name });
  }
  return definitions;
}

/** Creates the compacted copy: exclusively, never through a link; a leftover of a crash is removed first. */
function createExclusive(path: string, mode: number): number {
  let fd: number;
  try {
    fd = openSync(path, EXCLUSIVE, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    unlinkSync(path); // ours by name (the lock is held): a crashed compaction's copy, or a planted link
    fd = openSync(path, EXCLUSIVE, mode);
  }
  fchmodSync(fd, mode); // the umask may have narrowed it
  return fd;
}

/** The ranges before `cut` (the lines appended after it are copied as they are). */
function rangesBefore(ranges: Ranges | undefined, cut: number): Ranges {
  if (!ranges) return [];
  let end = 0;
  while (end < ranges.length && (ranges[end] as number) < cut) end += 2;
  return ranges.slice(0, end);
}

/**
 * The new index: each token's compacted ranges, then its lines after the cut at their new offsets.
 * A token whose ranges no longer reach before the cut was reset meanwhile: its compacted lines
 * are left unindexed (they stay in the file until the next compaction).
 */
function merged(current: Map<string, Ranges>, compacted: Map<string, Ranges>, cut: number, base: number) {
  const index = new Map<string, Ranges>();
  for (const [token, ranges] of current) {
    const kept = (ranges[0] as number) < cut ? [...(compacted.get(token) ?? [])] : [];
    for (let i = 0; i < ranges.length; i += 2) {
      const offset = ranges[i] as number;
      if (offset >= cut) kept.push(offset - cut + base, ranges[i + 1] as number);
    }
    if (kept.length > 0) index.set(token, kept);
  }
  return index;
}

function tailEntries(journal: Journal, cut: number): number {
  let count = 0;
  const bytes = journal.read(cut, journal.written + journal.pendingBytes - cut);
  for (const byte of bytes) if (byte === 10) count++;
  return count;
}

/** The compacted copy's writer: lines gathered and written by the MiB. */
class Output {
  position = 0;
  entries = 0;
  private chunk: string[] = [];
  private chunkBytes = 0;
  constructor(private readonly fd: number) {}
  write(text: string): void {
    this.position += writeSync(this.fd, text, this.position);
  }
  /** Queues an entry's line; returns its range. */
  line(entry: Entry): [number, number] {
    const line = `${JSON.stringify(entry)}\n`;
    const length = Buffer.byteLength(line);
    const offset = this.position + this.chunkBytes;
    this.chunk.push(line);
    this.chunkBytes += length;
    this.entries++;
    if (this.chunkBytes >= WRITE_BYTES) this.drain();
    return [offset, length];
  }
  drain(): void {
    if (this.chunk.length === 0) return;
    const bytes = Buffer.from(this.chunk.join(''));
    for (let done = 0; done < bytes.length; )
      done += writeSync(this.fd, bytes, done, bytes.length - done, this.position + done);
    this.position += bytes.length;
    this.chunk = [];
    this.chunkBytes = 0;
  }
  /** Copies the journal's bytes [from, to) after the compacted lines. */
  copy(journal: Journal, from: number, to: number): void {
    const buffer = Buffer.alloc(WRITE_BYTES);
    for (let at = from; at < to; ) {
      const read = readSync(journal.fd, buffer, 0, Math.min(WRITE_BYTES, to - at), at);
      for (let done = 0; done < read; ) done += writeSync(this.fd, buffer, done, read - done, this.position + done);
      this.position += read;
      at += read;
    }
  }
}
