/**
 * `drift --base-url URL --token T`: the recorded read requests (GET) sent again to a server (the
 * mock serving the recording, typically), each answer's shape compared with the recorded answers of
 * that target (./shapes.ts: shape per the contract, records by key, pages as a whole, one finding
 * per cause). A recorded cursor is not replayed; recorded answers contradicting their own target
 * are the recording's inconsistency, reported once and not sent.
 *
 * Hostile servers and recordings: each target is a path resolved under the base URL and the token
 * goes to the base URL's origin only; each answer has `timeoutMs` to arrive whole and at most
 * `maxResponseBytes` bytes (RecordingError beyond, exit 3).
 */
import { MAX_RESPONSE_BYTES } from '../client/index.ts';
import type { Contract } from '../conformance/index.ts';
import { VERSION_HEADER } from '../contract/index.ts';
import { boundedText } from '../http/index.ts';
import type { RecordedExchange, Recording } from '../proxy/index.ts';
import type { Findings } from './findings.ts';
import { RecordingError } from './recording.ts';
import { compareAnswers, shapedFields } from './shapes.ts';

export { diffShapes, shapeOf } from './shapes.ts';

/** The contract's pagination parameter (`#/components/parameters/Cursor`). */
const CURSOR = 'cursor';

/** Default of {@link ReplayOptions.timeoutMs}: time an answer has to arrive whole. */
export const REPLAY_TIMEOUT_MS = 30_000;

export interface ReplayOptions {
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
  /** Time each answer has to arrive whole, in ms. Default {@link REPLAY_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Largest answer read, in bytes. Default the client's MAX_RESPONSE_BYTES (50 MiB). */
  maxResponseBytes?: number;
}

/**
 * The URL of a recorded target under the base URL: its path appended to the base's path, its query
 * kept but a cursor. A target that is not a path (`:6299/x`, `//host/x`, `http://host/x`) would leave the base's
 * origin with the token: refused.
 */
export function replayUrl(base: URL, target: string): URL {
  const url = new URL(base.href);
  const at = target.indexOf('?');
  const path = at === -1 ? target : target.slice(0, at);
  if (!path.startsWith('/') || path.startsWith('//'))
    throw new RecordingError(`recorded target "${target.slice(0, 200)}" is not a path (/…): not replayed`);
  url.pathname = `${base.pathname.replace(/\/+$/, '')}${path}`;
  // A recorded cursor is the recorded server's opaque token: another server's first page instead.
  const query = at === -1 ? [] : target.slice(at + 1).split('&');
  const kept = query.filter((pair) => pair !== '' && pair.split('=')[0] !== CURSOR);
  url.search = kept.length > 0 ? `?${kept.join('&')}` : '';
  url.hash = '';
  if (url.origin !== base.origin)
    throw new RecordingError(`recorded target "${target.slice(0, 200)}" leaves ${base.origin}: not replayed`);
  return url;
}

/** One recorded GET sent again: its status and text, bounded in time and size. */
async function replayOne(
  exchange: RecordedExchange,
  base: URL,
  options: ReplayOptions,
): Promise<{ status: number; text: string }> {
  const url = replayUrl(base, exchange.target);
  const what = `cannot replay GET ${url.pathname} against ${base.origin}`;
  const timeoutMs = options.timeoutMs ?? REPLAY_TIMEOUT_MS;
  // A controller and a timer held here (not AbortSignal.timeout): the deadline covers the body too.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await (options.fetch ?? fetch)(url, {
      headers: {
        Authorization: `Bearer ${options.token}`,
        [VERSION_HEADER]: exchange.version,
        Accept: 'application/json',
      },
      redirect: 'manual',
      signal: controller.signal,
    });
    const max = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
    const text = await boundedText(response, max);
    if (typeof text !== 'string') {
      throw new RecordingError(
        text.declared === undefined
          ? `${what}: answered more than ${max} bytes, the bound`
          : `${what}: answered ${text.declared} bytes, over the bound of ${max}`,
      );
    }
    return { status: response.status, text };
  } catch (error) {
    if (error instanceof RecordingError) throw error;
    if (controller.signal.aborted) throw new RecordingError(`${what}: no whole answer within ${timeoutMs} ms`);
    const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
    throw new RecordingError(`${what}: ${cause}`);
  } finally {
    clearTimeout(timer);
  }
}

/** The records of a recorded answer: a page's `results[]`, an array's elements, else the body. */
function recordsIn(body: unknown): Record<string, unknown>[] {
  const results = (body as { results?: unknown } | null)?.results;
  const all = Array.isArray(body) ? body : Array.isArray(results) ? results : [body];
  return all.filter((r): r is Record<string, unknown> => Boolean(r) && typeof r === 'object' && !Array.isArray(r));
}

/**
 * Where recorded answers contradict their own target (`GET /tickets/31/` answered with ticket
 * 1499297074; `/orders/{number}/fulfillments/` with fulfillments of another `order_number`;
 * `/subscriptions/{id}/transactions/` with transactions of another `subscription.id`): the path
 * parameter and what the answers hold instead. A path's last parameter is the record's own key; one
 * before a sub-collection is the parent's, named `<parent>_<param>` or `<parent>.<param>`.
 */
export function contradiction(template: string, target: string, bodies: unknown[]): string | undefined {
  const names = template.split('/');
  const values = (target.split('?')[0] ?? '').split('/');
  if (names.length !== values.length) return undefined;
  const last = names.length - (names[names.length - 1] === '' ? 2 : 1);
  for (const [i, name] of names.entries()) {
    const param = /^\{(.+)\}$/.exec(name)?.[1];
    if (!param) continue;
    const value = decodeURIComponent(values[i] ?? '');
    const parent = (names[i - 1] ?? '').replace(/s$/, '').replace(/-/g, '_');
    const read = (r: Record<string, unknown>) =>
      i === last ? r[param] : (r[`${parent}_${param}`] ?? (r[parent] as Record<string, unknown> | null)?.[param]);
    const others = new Set<string>();
    for (const record of bodies.flatMap(recordsIn)) {
      const held = read(record);
      if ((typeof held === 'string' || typeof held === 'number') && String(held) !== value) others.add(String(held));
    }
    if (others.size > 0)
      return `recorded answers of ${param} ${value} hold ${[...others].slice(0, 3).join(', ')}${others.size > 3 ? ', …' : ''}: not replayed`;
  }
  return undefined;
}

/** The recorded reads (GET) by version and target, in recorded order. */
function readsOf(recording: Recording): RecordedExchange[][] {
  const reads = new Map<string, RecordedExchange[]>();
  for (const exchange of recording.$recording.exchanges as RecordedExchange[]) {
    if (exchange.method !== 'GET') continue;
    const key = `${exchange.version} ${exchange.target}`;
    reads.set(key, [...(reads.get(key) ?? []), exchange]);
  }
  return [...reads.values()];
}

/**
 * Replays every distinct recorded GET (a recording contradicting its own target is reported once
 * and not replayed); resolves with the number of requests sent. With the contract, the keys of
 * free-form objects are data, not shape.
 */
export async function replayReads(
  recording: Recording,
  options: ReplayOptions,
  findings: Findings,
  contract?: Contract,
): Promise<number> {
  const base = new URL(options.baseUrl);
  let sent = 0;
  for (const exchanges of readsOf(recording)) {
    const first = exchanges[0] as RecordedExchange;
    const { operation, version } = first;
    const answers = exchanges.filter((e) => e.status === first.status);
    const template = contract?.find(version, operation)?.path;
    const contradicts =
      template &&
      contradiction(
        template,
        first.target,
        answers.map((e) => e.body),
      );
    if (contradicts) {
      findings.add('replay-inconsistent', first, `GET ${first.target}`, contradicts);
      continue;
    }
    const { status, text } = await replayOne(first, base, options);
    sent++;
    if (status !== first.status) {
      findings.add('replay-status', first, 'status', `recorded ${first.status}, answered ${status}`);
      continue;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      findings.add('replay-type', first, 'body', 'answered a body that is not JSON');
      continue;
    }
    const shaped = (at: RecordedExchange, value: unknown) => contract && shapedFields(contract, at, value);
    compareAnswers(
      answers.map((e) => ({ body: e.body, shaped: shaped(e, e.body) })),
      { body, shaped: shaped(first, body) },
      (kind, field, detail) => findings.add(kind, first, field, detail),
    );
  }
  return sent;
}
