/**
 * The last requests the mock answered, for the inspector (`GET /__mock/requests`): a ring of at most
 * {@link REQUEST_LOG_SIZE} entries (the oldest is overwritten), request and response bodies cut at
 * {@link BODY_LIMIT} characters, so the log's memory is bounded whatever the traffic.
 */
import { bodyText, UNKNOWN_QUERY_HEADER } from '../../http/index.ts';
import { shortHash } from '../tokens/hash.ts';

export const REQUEST_LOG_SIZE = 500;
/** Characters of a request or response body kept in the log. */
export const BODY_LIMIT = 4096;

export interface LoggedRequest {
  /** Increasing number of the request, from 1 at start. */
  id: number;
  at: string;
  method: string;
  path: string;
  version: string;
  status: number;
  ms: number;
  /** The token's short id (the state's id in `GET /__mock/states`), or null without a token. */
  state: string | null;
  /** For a refusal: the problem's type, title, detail and fields. */
  problem?: { type: unknown; title: unknown; detail: unknown; fields: string[] };
  /** What the mock noticed but let pass: query parameters the operation does not declare (a misspelled filter). */
  warnings?: string[];
  request: { contentType: string | null; body: string; truncated: boolean };
  response: { contentType: string | null; body: string; truncated: boolean };
}

const cut = (text: string) => ({ body: text.slice(0, BODY_LIMIT), truncated: text.length > BODY_LIMIT });

/** The problem's fields, when a refusal's body is one. */
function problemOf(status: number, body: string): LoggedRequest['problem'] {
  if (status < 400 || !body.startsWith('{')) return undefined;
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const validation = Array.isArray(parsed.validation) ? parsed.validation : [];
    const fields = validation.map((v) => String((v as { field?: unknown }).field));
    return { type: parsed.type, title: parsed.title, detail: parsed.detail, fields };
  } catch {
    return undefined;
  }
}

/**
 * One answered request as the log keeps it: the raw pieces, turned into a {@link LoggedRequest}
 * only when the log is read (the inspector reads rarely; the mock answers thousands a second).
 * A body longer than the limit is kept cut (copied, so the whole one is not held).
 */
interface Entry {
  id: number;
  at: number;
  method: string;
  path: string;
  version: string;
  status: number;
  ms: number;
  /** The state's key (`keyOf` the token), or null without a token. */
  stateKey: string | null;
  requestType: string | undefined;
  /** Bytes when the request's were, short and in a buffer of their own (decoded when listed). */
  requestBody: string | Uint8Array;
  responseType: string | undefined;
  /** Bytes when the answer's were, and short (decoded when listed). */
  responseBody: string | Uint8Array;
  /** The query parameters the operation does not declare (the answer's {@link UNKNOWN_QUERY_HEADER}). */
  unknownQuery?: string | undefined;
}

/**
 * A body as kept: whole up to one character over the limit (to know it was cut when listed), else
 * that much copied, so that the whole body is free to go: a slice alone would hold it (V8 slices
 * point into their parent); slicing a concatenation makes V8 flatten it into a string of its own
 * (0.5 µs for 4 Ki characters; a TextEncoder round trip took 3 µs).
 */
const kept = (text: string): string =>
  text.length <= BODY_LIMIT + 1 ? text : ` ${text.slice(0, BODY_LIMIT + 1)}`.slice(1);

/**
 * A body given as bytes, kept: whole when it is at most BODY_LIMIT + 1 bytes (decoded when listed),
 * else decoded to text as far as it is listed, once per bytes object (a page answered again from
 * the same bytes, ../view-cache.ts, shares its text: decoding it per request put 4 KB a request in
 * the old generation). The first BODY_LIMIT + 1 bytes decode to that many characters when they are
 * ASCII (a cut character at the end is one more, past the limit); else 3 bytes a character (a
 * UTF-16 unit takes at most 3 UTF-8 bytes) are decoded. No copy of a page's bytes is kept.
 */
const keptBytes = (body: string | Uint8Array): string | Uint8Array => {
  if (typeof body === 'string') return kept(body);
  if (body.byteLength <= BODY_LIMIT + 1) return body;
  let text = heads.get(body);
  if (text === undefined) {
    const head = bodyText(body.subarray(0, BODY_LIMIT + 1));
    text = head.length > BODY_LIMIT ? head : kept(bodyText(body.subarray(0, (BODY_LIMIT + 1) * 3)));
    heads.set(body, text);
  }
  return text;
};

/**
 * A request body as kept: its bytes when they are short and fill a buffer of their own (a write's
 * body, decoded only if listed: not per request), else its text as far as it is listed (a slice
 * of a shared buffer, e.g. node's pool, would hold all of it).
 */
const keptRequest = (body: Uint8Array): string | Uint8Array =>
  body.byteLength <= BODY_LIMIT + 1 && body.byteLength === body.buffer.byteLength
    ? body
    : bodyText(body.subarray(0, BODY_LIMIT * 4));

/** The listed text of a long body's bytes, while those bytes live. */
const heads = new WeakMap<Uint8Array, string>();

export class RequestLog {
  private readonly ring: (Entry | undefined)[];
  private next = 0;
  private count = 0;

  constructor(readonly size = REQUEST_LOG_SIZE) {
    this.ring = new Array(size);
  }

  add(exchange: Omit<Entry, 'id' | 'at'>): void {
    this.count++;
    this.ring[this.next] = {
      id: this.count,
      at: Date.now(),
      method: exchange.method,
      path: exchange.path,
      version: exchange.version,
      status: exchange.status,
      ms: exchange.ms,
      stateKey: exchange.stateKey,
      requestType: exchange.requestType,
      requestBody: typeof exchange.requestBody === 'string' ? kept(exchange.requestBody) : exchange.requestBody,
      responseType: exchange.responseType,
      responseBody: keptBytes(exchange.responseBody),
      unknownQuery: exchange.unknownQuery,
    };
    this.next = this.next + 1 === this.size ? 0 : this.next + 1;
  }

  /** The last `limit` requests, newest first. */
  list(limit = this.size): LoggedRequest[] {
    const out: LoggedRequest[] = [];
    for (let i = 1; i <= Math.min(limit, this.size); i++) {
      const entry = this.ring[(this.next - i + this.size) % this.size];
      if (!entry) break;
      out.push(loggedOf(entry));
    }
    return out;
  }
}

function loggedOf(entry: Entry): LoggedRequest {
  const responseBody = bodyText(entry.responseBody);
  const problem = problemOf(entry.status, responseBody);
  return {
    id: entry.id,
    at: new Date(entry.at).toISOString(),
    method: entry.method,
    path: entry.path,
    version: entry.version,
    status: entry.status,
    ms: Math.round(entry.ms * 10) / 10,
    state: entry.stateKey === null ? null : shortHash(entry.stateKey),
    ...(problem && { problem }),
    ...(entry.unknownQuery !== undefined && {
      warnings: [`unknown query parameters, ignored: ${entry.unknownQuery}`],
    }),
    request: { contentType: entry.requestType ?? null, ...cut(bodyText(entry.requestBody)) },
    response: { contentType: entry.responseType ?? null, ...cut(responseBody) },
  };
}

/** What {@link logExchange} needs of a request and its answer (the engine's raw shapes). */
interface RawExchange {
  request: { method: string; target: string; header(name: string): string | undefined };
  response: { status: number; headers: Record<string, string>; body: string | Uint8Array; version: string };
  requestBody: Uint8Array | 'too-large' | undefined;
  ms: number;
  stateKey: string | null;
}

/** The Content-Type of an answer's headers (the engine writes it `Content-Type`; any case is read). */
function contentTypeOf(headers: Record<string, string>): string | undefined {
  const exact = headers['Content-Type'];
  if (exact !== undefined) return exact;
  return Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
}

/** Adds one answered request to the log (a request body decoded, bodies cut at {@link BODY_LIMIT}). */
export function logExchange(log: RequestLog, exchange: RawExchange): void {
  const { request, response, requestBody } = exchange;
  log.add({
    method: request.method.toUpperCase(),
    path: request.target,
    version: response.version,
    status: response.status,
    ms: exchange.ms,
    stateKey: exchange.stateKey,
    requestType: request.header('content-type'),
    requestBody:
      requestBody === undefined
        ? ''
        : requestBody === 'too-large'
          ? '(over the body limit, not read)'
          : keptRequest(requestBody),
    responseType: contentTypeOf(response.headers),
    responseBody: response.body,
    unknownQuery: response.headers[UNKNOWN_QUERY_HEADER],
  });
}
