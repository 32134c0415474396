/**
 * Reads a file's lines by chunks (node only), so that opening a state file never holds more than a
 * chunk and one line: a line longer than `maxBytes` is reported without its text (`text`
 * undefined) rather than read into memory.
 */
import { readSync } from 'node:fs';

export interface Line {
  offset: number;
  /** Bytes with the newline. */
  length: number;
  /** The line without its newline; undefined when longer than `maxBytes`. */
  text: string | undefined;
  /** False for a last line that runs to the end of the file without a newline. */
  terminated: boolean;
}

const CHUNK = 1024 * 1024;

export function* linesOf(fd: number, start: number, end: number, maxBytes: number): Generator<Line> {
  const chunk = Buffer.alloc(CHUNK);
  let parts: Buffer[] = [];
  let held = 0;
  let lineStart = start;
  let length = 0;
  for (let position = start; position < end; ) {
    const read = readSync(fd, chunk, 0, Math.min(CHUNK, end - position), position);
    if (read === 0) break;
    let from = 0;
    while (from < read) {
      const newline = chunk.indexOf(10, from);
      const until = newline === -1 || newline >= read ? read : newline;
      length += until - from;
      if (held + until - from <= maxBytes) {
        parts.push(Buffer.from(chunk.subarray(from, until)));
        held += until - from;
      } else {
        parts = [];
        held = Number.POSITIVE_INFINITY; // too long: its bytes are counted, not kept
      }
      if (until === read) break;
      const text = held === Number.POSITIVE_INFINITY ? undefined : Buffer.concat(parts).toString('utf8');
      yield { offset: lineStart, length: length + 1, text, terminated: true };
      lineStart += length + 1;
      length = 0;
      parts = [];
      held = 0;
      from = until + 1;
    }
    position += read;
  }
  if (length > 0) {
    const text = held === Number.POSITIVE_INFINITY ? undefined : Buffer.concat(parts).toString('utf8');
    yield { offset: lineStart, length, text, terminated: false };
  }
}
