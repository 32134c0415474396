/**
 * Stateful checks of writes (`--allow-writes`): the record a write names is read before and after
 * it, through a read of the contract that returns it: the GET of the same path (any version, its
 * own first), else the list of its collection (`/fulfillment-orders/` for
 * `/fulfillment-orders/{id}/move/`), paged through `next` (its cursor, asked of the base URL).
 * A write answered 2xx must agree with the next read on every field both show; a refused write
 * (any other answer) must leave the record as it was. A write with no such read is not checked.
 */
import type { ApiVersion } from '../contract/index.ts';
import type { Finding } from './checks.ts';
import type { OperationModel } from './operation.ts';
import type { FuzzRequest, Sent } from './request.ts';

export interface Reader {
  path: string;
  version: ApiVersion;
  kind: 'get' | 'list';
  /** The write's path parameter naming the record, and the record's field holding it. */
  key: string;
}

/** Pages of a list read at most, looking for the record. */
const MAX_PAGES = 20;

export function readerOf(write: OperationModel, all: readonly OperationModel[]): Reader | undefined {
  const key = write.pathParams[0]?.name;
  if (!key) return undefined;
  const reads = all
    .filter((m) => m.operation.method === 'get')
    .sort((a, b) => Number(b.version === write.version) - Number(a.version === write.version));
  const same = reads.find((m) => m.operation.path === write.operation.path);
  if (same) return { path: same.operation.path, version: same.version, kind: 'get', key };
  const collection = write.operation.path.slice(0, write.operation.path.indexOf(`{${key}}`));
  const list = reads.find((m) => m.operation.path === collection && m.pathParams.length === 0);
  return list ? { path: list.operation.path, version: list.version, kind: 'list', key } : undefined;
}

export type Send = (request: FuzzRequest) => Promise<Sent>;

/** A read that found the server at fault (a list's `next` that is not a URL): a finding, not a crash. */
export class ReadFinding extends Error {
  constructor(readonly finding: Finding) {
    super(finding.message);
  }
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** The record as the reader shows it now (`undefined`: not found, or not readable). */
export async function readRecord(send: Send, reader: Reader, value: string | number): Promise<unknown> {
  const base = { method: 'get', path: {}, query: [] as [string, string][], version: reader.version, withToken: true };
  if (reader.kind === 'get') {
    const sent = await send({ ...base, template: reader.path, path: { [reader.key]: value } });
    return sent.status === 200 ? parse(sent.text) : undefined;
  }
  let query: [string, string][] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const sent = await send({ ...base, template: reader.path, query });
    const body = sent.status === 200 ? (parse(sent.text) as { results?: unknown[]; next?: unknown }) : undefined;
    const found = body?.results?.find(
      (r) => r && typeof r === 'object' && String((r as Record<string, unknown>)[reader.key]) === String(value),
    );
    if (found || typeof body?.next !== 'string') return found;
    const next = URL.parse(body.next);
    if (!next) {
      const message = `GET ${reader.path} (${reader.version}) answered a next that is not a URL: ${JSON.stringify(body.next.slice(0, 100))}`;
      throw new ReadFinding({ check: 'next', message });
    }
    query = [...next.searchParams];
  }
  return undefined;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The write's answer against the record (keyed `value`) read before and after it. */
export function checkState(
  reader: Reader,
  value: string | number,
  sent: Sent,
  { before, after }: { before: unknown; after: unknown },
): Finding | undefined {
  const accepted = sent.status !== null && sent.status >= 200 && sent.status < 300;
  if (!accepted) {
    return same(before, after)
      ? undefined
      : { check: 'unchanged', message: `the write was refused (${sent.status}), yet the record changed` };
  }
  const answer = parse(sent.text) as Record<string, unknown> | undefined;
  // Only an answer that is the record itself can be compared with it.
  if (!answer || typeof answer !== 'object' || String(answer[reader.key]) !== String(value)) return undefined;
  if (!after || typeof after !== 'object') {
    return { check: 'read-back', message: `the write answered ${sent.status}, but a read of the record found nothing` };
  }
  const read = after as Record<string, unknown>;
  const differ = Object.keys(answer).filter((field) => field in read && !same(answer[field], read[field]));
  if (differ.length === 0) return undefined;
  const shown = differ
    .slice(0, 3)
    .map(
      (f) => `${f}: answered ${JSON.stringify(answer[f])?.slice(0, 60)}, read ${JSON.stringify(read[f])?.slice(0, 60)}`,
    );
  return { check: 'read-back', message: `the next read disagrees with the write's answer: ${shown.join('; ')}` };
}
