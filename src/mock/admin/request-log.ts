/**
 * The last requests the mock answered, for the inspector (`GET /__mock/requests`): a ring of at most
 * {@link REQUEST_LOG_SIZE} entries (the oldest is overwritten), request and response bodies cut at
 * {@link BODY_LIMIT} characters, so the log's memory is bounded whatever the traffic.
 */

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

/** One answered request as the log is given it (bodies whole; cut when added). */
export interface Exchange extends Pick<LoggedRequest, 'method' | 'path' | 'version' | 'status' | 'ms' | 'state'> {
  requestType: string | undefined;
  requestBody: string;
  responseType: string | undefined;
  responseBody: string;
}

export class RequestLog {
  private readonly ring: (LoggedRequest | undefined)[];
  private next = 0;
  private count = 0;

  constructor(readonly size = REQUEST_LOG_SIZE) {
    this.ring = new Array(size);
  }

  add(exchange: Exchange): void {
    this.count++;
    const problem = problemOf(exchange.status, exchange.responseBody);
    this.ring[this.next] = {
      id: this.count,
      at: new Date().toISOString(),
      method: exchange.method,
      path: exchange.path,
      version: exchange.version,
      status: exchange.status,
      ms: Math.round(exchange.ms * 10) / 10,
      state: exchange.state,
      ...(problem && { problem }),
      request: { contentType: exchange.requestType ?? null, ...cut(exchange.requestBody) },
      response: { contentType: exchange.responseType ?? null, ...cut(exchange.responseBody) },
    };
    this.next = (this.next + 1) % this.size;
  }

  /** The last `limit` requests, newest first. */
  list(limit = this.size): LoggedRequest[] {
    const out: LoggedRequest[] = [];
    for (let i = 1; i <= Math.min(limit, this.size); i++) {
      const entry = this.ring[(this.next - i + this.size) % this.size];
      if (!entry) break;
      out.push(entry);
    }
    return out;
  }
}

/** What {@link logExchange} needs of a request and its answer (the engine's raw shapes). */
interface RawExchange {
  request: { method: string; target: string; header(name: string): string | undefined };
  response: { status: number; headers: Record<string, string>; body: string; version: string };
  requestBody: Uint8Array | 'too-large' | undefined;
  ms: number;
  state: string | null;
}

/** Adds one answered request to the log (bodies decoded, cut at {@link BODY_LIMIT}). */
export function logExchange(log: RequestLog, exchange: RawExchange): void {
  const { request, response, requestBody } = exchange;
  const headerOf = (headers: Record<string, string>) =>
    Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  log.add({
    method: request.method.toUpperCase(),
    path: request.target,
    version: response.version,
    status: response.status,
    ms: exchange.ms,
    state: exchange.state,
    requestType: request.header('content-type'),
    requestBody:
      requestBody === undefined
        ? ''
        : requestBody === 'too-large'
          ? '(over the body limit, not read)'
          : new TextDecoder().decode(requestBody.subarray(0, BODY_LIMIT * 4)),
    responseType: headerOf(response.headers),
    responseBody: response.body.slice(0, BODY_LIMIT + 1),
  });
}
