/**
 * `--record FILE`: every 2xx JSON exchange, normalized into the store's collections (./records.ts;
 * latest wins by key) and kept as an exchange for `drift`, written as one JSON file the mock loads as
 * is (`--data FILE`, `createHandlers({ data })`): the collections at the top, the exchanges under
 * `$recording` (a `$`-key, which the mock's fixture loader skips). A record that breaks the contract
 * is not put into a collection (the mock would refuse the file); its exchange stays, for `drift`.
 * No header value is ever recorded; redacted fields are faked (./redact.ts). Writes are atomic (a
 * temporary file renamed over the target); the recording is bounded by `limit` (exchanges, and
 * records per collection) and by `maxBytes` (the answers' bytes it holds, in memory and in the file).
 * An existing recording is never overwritten silently: {@link Recorder.claim} refuses it unless asked.
 */
import { rename, stat, writeFile } from 'node:fs/promises';
import type { MockFixtures } from '../mock/index.ts';
import { type Collection, type RecordModel, valuesAt } from './records.ts';
import type { Redactor } from './redact.ts';

/** `--record-limit` when not given: exchanges kept, and records kept per collection. */
export const DEFAULT_RECORD_LIMIT = 1000;
/**
 * `--record-max-bytes` when not given: the bytes of the answers a recording holds (64 MiB). Past it an
 * exchange is dropped whole (its records too, counted in `dropped`): the proxy's memory and the file
 * stay bounded however large the answers are (the file is about this size plus its indentation).
 */
export const DEFAULT_RECORD_MAX_BYTES = 64 * 1024 * 1024;
export const RECORDING_FORMAT = 1;

/** One recorded exchange: no header, the query redacted. */
export interface RecordedExchange {
  operation: string;
  version: string;
  method: string;
  /** Path and query as the client sent them (under the proxy's root). */
  target: string;
  status: number;
  body: unknown;
}

export interface RecordingMeta {
  format: number;
  upstream: string;
  recordedAt: string;
  limit: number;
  /** The bound on the answers' bytes held. */
  maxBytes: number;
  /** Exchanges and records not kept because a limit was reached. */
  dropped: number;
  /** Records kept out of the collections because they break the contract (their exchanges stay). */
  skipped: number;
  redacted: string[];
  exchanges: RecordedExchange[];
}

/**
 * A recording file: `--data` fixtures (each record checked against its collection's schema before
 * it was kept, so typed as the mock's fixtures) plus the exchanges.
 */
export type Recording = MockFixtures & { $recording: RecordingMeta };

export interface RecorderOptions {
  file: string;
  upstream: string;
  limit?: number;
  maxBytes?: number;
  redactor: Redactor;
  model: RecordModel;
  /** Told when a background write fails (the proxy logs it). */
  onError?: (error: Error) => void;
}

export class Recorder {
  private readonly collections = new Map<Collection, Map<string, Record<string, unknown>>>();
  private readonly exchanges: RecordedExchange[] = [];
  private dropped = 0;
  private skipped = 0;
  private writing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private sequence = 0;
  private bytes = 0;
  readonly limit: number;
  readonly maxBytes: number;

  constructor(private readonly options: RecorderOptions) {
    this.limit = options.limit ?? DEFAULT_RECORD_LIMIT;
    this.maxBytes = options.maxBytes ?? DEFAULT_RECORD_MAX_BYTES;
  }

  /**
   * Refuses to replace a recording already in the file (not empty) unless `overwrite`: a restart
   * with the same `--record` must not lose the previous one. Throws an EEXIST error naming the file.
   */
  async claim(overwrite: boolean): Promise<void> {
    if (overwrite) return;
    const size = await stat(this.options.file).then(
      (found) => found.size,
      () => 0,
    );
    if (size === 0) return;
    const message = `${this.options.file} already holds a recording (${size} bytes)`;
    throw Object.assign(new Error(message), { code: 'EEXIST', path: this.options.file });
  }

  /**
   * Records one 2xx JSON exchange (already parsed; `bytes` the size of its answer); the file is
   * written shortly after. Past `maxBytes` it is dropped whole.
   */
  add(exchange: RecordedExchange, bytes: number): void {
    if (this.bytes + bytes > this.maxBytes) {
      this.dropped++;
      return;
    }
    this.bytes += bytes;
    const { redactor, model } = this.options;
    const body = redactor.value(exchange.body);
    if (this.exchanges.length < this.limit) {
      this.exchanges.push({ ...exchange, target: redactor.target(exchange.target), body });
    } else {
      this.dropped++;
    }
    for (const site of model.sitesOf(exchange.version, exchange.operation)) {
      for (const record of valuesAt(body, site.path)) this.put(site.collection, record);
    }
    this.schedule();
  }

  private put(collection: Collection, record: Record<string, unknown>): void {
    const { model } = this.options;
    const violations = model.check(collection, record);
    if (violations === undefined) return;
    if (violations.length > 0) {
      this.skipped++;
      return;
    }
    let records = this.collections.get(collection);
    if (!records) {
      records = new Map();
      this.collections.set(collection, records);
    }
    const key = String(record[model.keyOf(collection)] ?? '');
    if (!records.has(key) && records.size >= this.limit) {
      this.dropped++;
      return;
    }
    records.set(key, record);
  }

  stats(): { file: string; records: number; exchanges: number; bytes: number; dropped: number; skipped: number } {
    const records = [...this.collections.values()].reduce((sum, c) => sum + c.size, 0);
    return {
      file: this.options.file,
      records,
      exchanges: this.exchanges.length,
      bytes: this.bytes,
      dropped: this.dropped,
      skipped: this.skipped,
    };
  }

  recording(): Recording {
    const out: Recording = {
      $recording: {
        format: RECORDING_FORMAT,
        upstream: this.options.upstream,
        recordedAt: new Date().toISOString(),
        limit: this.limit,
        maxBytes: this.maxBytes,
        dropped: this.dropped,
        skipped: this.skipped,
        redacted: [...this.options.redactor.fields],
        exchanges: this.exchanges,
      },
    };
    for (const [collection, records] of [...this.collections].sort(([a], [b]) => a.localeCompare(b))) {
      // Key order, as the mock keeps its collections.
      (out as Record<Collection, unknown>)[collection] = [...records.entries()]
        .sort(([a], [b]) => Number(a) - Number(b) || a.localeCompare(b))
        .map(([, record]) => record);
    }
    return out;
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.write().catch((error: Error) => this.options.onError?.(error));
    }, 50);
  }

  /** Writes the file now (after any write in progress). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.write();
  }

  private write(): Promise<void> {
    // A failed write does not stop the next one; flush() reports its own failure.
    this.writing = this.writing
      .catch(() => undefined)
      .then(async () => {
        const temporary = `${this.options.file}.${process.pid}.${++this.sequence}.tmp`;
        try {
          await writeFile(temporary, `${JSON.stringify(this.recording(), null, 2)}\n`);
          await rename(temporary, this.options.file);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
          throw Object.assign(new Error(`cannot write the recording ${this.options.file} (${code})`), {
            code,
            path: this.options.file,
          });
        }
      });
    return this.writing;
  }
}
