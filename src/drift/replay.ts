/**
 * `drift --base-url URL --token T`: the recorded read requests (GET) sent again to a server (the
 * mock serving the recording, typically), each answer's shape diffed against the recorded one field
 * by field: the fields (array elements as `[]`) and the JSON types seen at each. One finding per
 * cause: a field missing (or of another type, or extra) hides the fields under it, so a list the
 * server answers empty is one finding, not one per field of its items.
 *
 * Hostile servers and recordings: each target is a path resolved under the base URL and the token
 * goes to the base URL's origin only; each answer has `timeoutMs` to arrive whole and at most
 * `maxResponseBytes` bytes (RecordingError beyond, exit 3).
 */
import { MAX_RESPONSE_BYTES } from '../client/index.ts';
import { VERSION_HEADER } from '../contract/index.ts';
import type { RecordedExchange, Recording } from '../proxy/index.ts';
import type { Findings } from './findings.ts';
import { RecordingError } from './recording.ts';

/** Default of {@link ReplayOptions.timeoutMs}: time an answer has to arrive whole. */
export const REPLAY_TIMEOUT_MS = 30_000;

type Shape = Map<string, Set<string>>;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return Number.isInteger(value) ? 'integer' : typeof value === 'number' ? 'number' : typeof value;
}

/** Field → JSON types seen there, over the whole value. */
export function shapeOf(value: unknown, field = 'body', shape: Shape = new Map()): Shape {
  const types = shape.get(field) ?? new Set<string>();
  types.add(typeOf(value));
  shape.set(field, types);
  if (Array.isArray(value)) for (const item of value) shapeOf(item, `${field}[]`, shape);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) shapeOf(child, `${field}.${key}`, shape);
  }
  return shape;
}

/** The fields a field sits under: `body.results[].id` → `body.results[]`, `body.results`, `body`. */
function ancestors(field: string): string[] {
  const out: string[] = [];
  for (let rest = field; ; ) {
    const cut = rest.endsWith('[]') ? rest.length - 2 : rest.lastIndexOf('.');
    if (cut <= 0) return out;
    rest = rest.slice(0, cut);
    out.push(rest);
  }
}

export function diffShapes(
  recorded: Shape,
  replayed: Shape,
  add: (kind: 'replay-missing' | 'replay-extra' | 'replay-type', field: string, detail: string) => void,
): void {
  // One finding per cause: nothing is reported under a field already reported.
  const causes = new Set<string>();
  const report = (kind: 'replay-missing' | 'replay-extra' | 'replay-type', field: string, detail: string) => {
    if (ancestors(field).some((parent) => causes.has(parent))) return;
    causes.add(field);
    add(kind, field, detail);
  };
  for (const [field, types] of recorded) {
    const other = replayed.get(field);
    if (!other) {
      const list = field.endsWith('[]') ? replayed.get(field.slice(0, -2)) : undefined;
      report('replay-missing', field, list?.has('array') ? 'the server answered an empty list' : '');
    } else if ([...types].sort().join() !== [...other].sort().join()) {
      report('replay-type', field, `recorded ${[...types].sort().join('|')}, answered ${[...other].sort().join('|')}`);
    }
  }
  for (const field of replayed.keys()) if (!recorded.has(field)) report('replay-extra', field, '');
}

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
 * kept. A target that is not a path (`:6299/x`, `//host/x`, `http://host/x`) would leave the base's
 * origin with the token: refused.
 */
export function replayUrl(base: URL, target: string): URL {
  const url = new URL(base.href);
  const at = target.indexOf('?');
  const path = at === -1 ? target : target.slice(0, at);
  if (!path.startsWith('/') || path.startsWith('//'))
    throw new RecordingError(`recorded target "${target.slice(0, 200)}" is not a path (/…): not replayed`);
  url.pathname = `${base.pathname.replace(/\/+$/, '')}${path}`;
  url.search = at === -1 ? '' : target.slice(at);
  url.hash = '';
  if (url.origin !== base.origin)
    throw new RecordingError(`recorded target "${target.slice(0, 200)}" leaves ${base.origin}: not replayed`);
  return url;
}

/** The answer's text, read within `max` bytes (a RecordingError beyond; the rest never read). */
async function boundedText(response: Response, max: number, what: string): Promise<string> {
  const declared = Number(response.headers.get('Content-Length'));
  if (declared > max) {
    await response.body?.cancel();
    throw new RecordingError(`${what}: answered ${declared} bytes, over the bound of ${max}`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new RecordingError(`${what}: answered more than ${max} bytes, the bound`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
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
    const text = await boundedText(response, options.maxResponseBytes ?? MAX_RESPONSE_BYTES, what);
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

/** Replays every distinct recorded GET; resolves with the number of requests sent. */
export async function replayReads(recording: Recording, options: ReplayOptions, findings: Findings): Promise<number> {
  const base = new URL(options.baseUrl);
  const seen = new Set<string>();
  for (const exchange of recording.$recording.exchanges as RecordedExchange[]) {
    const key = `${exchange.version} ${exchange.target}`;
    if (exchange.method !== 'GET' || seen.has(key)) continue;
    seen.add(key);
    const { status, text } = await replayOne(exchange, base, options);
    const { operation, version } = exchange;
    if (status !== exchange.status) {
      findings.add('replay-status', operation, version, 'status', `recorded ${exchange.status}, answered ${status}`);
      continue;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      findings.add('replay-type', operation, version, 'body', 'answered a body that is not JSON');
      continue;
    }
    diffShapes(shapeOf(exchange.body), shapeOf(body), (kind, field, detail) =>
      findings.add(kind, operation, version, field, detail),
    );
  }
  return seen.size;
}
