/**
 * One request of the fuzzer as data (so fast-check can draw and shrink it), how it is sent, and how
 * it is printed for a human to replay: a curl command whose token is `$TOKEN`, never the real one.
 * Sending follows no redirect (a 3xx is the answer; ./checks.ts reports one to another origin, so
 * a write never lands on a host the fuzzer was not given) and reads at most
 * {@link FUZZ_MAX_ANSWER_BYTES} of an answer (more is `tooLarge`, the rest left unread).
 */
import { type BundleOperation, VERSION_HEADER } from '../contract/index.ts';
import { boundedText } from '../http/index.ts';

export interface FuzzRequest {
  method: string;
  /** The operation's path template, e.g. `/tickets/{id}/`. */
  template: string;
  /** Path parameter values by name. */
  path: Record<string, string | number>;
  /** Query pairs in order (an exploded array is several pairs). */
  query: [string, string][];
  /** The version header's value (`null`: not sent). */
  version: string | null;
  /** `false`: sent without `Authorization`. */
  withToken: boolean;
  /** The JSON body (`undefined`: none). */
  body?: unknown;
}

export interface Sent {
  /** `null` after a network error (then `error` says what). */
  status: number | null;
  headers: Headers;
  text: string;
  error?: string;
  /** The answer was larger than the bound: `text` is empty, the rest was not read. */
  tooLarge?: true;
  /** A redirect's target on another origin than the base URL's (not followed). */
  offOrigin?: string;
}

/** A 3xx's `Location`, resolved against the request's URL, when it leaves the request's origin. */
function offOriginOf(url: string, response: Response): string | undefined {
  const location = response.headers.get('location');
  if (response.status < 300 || response.status > 399 || location === null) return undefined;
  const target = URL.parse(location, url);
  // A Location that is not even a URL leads nowhere the fuzzer would go: named as is.
  if (!target) return location;
  return target.origin === new URL(url).origin ? undefined : target.href;
}

/** Bytes of one answer read at most (a page of the largest lists is far below). */
export const FUZZ_MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** The request's URL: the template filled in (each value one encoded segment), then the query. */
export function urlOf(baseUrl: string, request: FuzzRequest): string {
  const path = request.template.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(request.path[name] ?? '')),
  );
  const query = new URLSearchParams(request.query).toString();
  return `${baseUrl}${path}${query ? `?${query}` : ''}`;
}

export function headersOf(request: FuzzRequest, token: string): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (request.version !== null) headers[VERSION_HEADER] = request.version;
  if (request.withToken) headers.Authorization = `Bearer ${token}`;
  if (request.body !== undefined) headers['Content-Type'] = 'application/json';
  return headers;
}

/** Where and how the fuzzer's requests go: the server, its token, the fetch and a timeout per request. */
export interface Target {
  doFetch: typeof fetch;
  baseUrl: string;
  token: string;
  timeoutMs: number;
}

export async function send({ doFetch, baseUrl, token, timeoutMs }: Target, request: FuzzRequest): Promise<Sent> {
  const url = urlOf(baseUrl, request);
  try {
    const response = await doFetch(url, {
      method: request.method.toUpperCase(),
      headers: headersOf(request, token),
      ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
      // Never to another host: a redirect is the answer, judged as such.
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const offOrigin = offOriginOf(url, response);
    const read = await boundedText(response, FUZZ_MAX_ANSWER_BYTES);
    const text = typeof read === 'string' ? read : 'too-large';
    return {
      status: response.status,
      headers: response.headers,
      text: text === 'too-large' ? '' : text,
      ...(text === 'too-large' && { tooLarge: true as const }),
      ...(offOrigin !== undefined && { offOrigin }),
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    // Node's message already names the code (`connect ECONNREFUSED 127.0.0.1:1`): not said twice.
    const named = cause?.code && !cause.message?.includes(cause.code) ? `${cause.code}: ` : '';
    const message = cause?.code ? `${named}${cause.message ?? ''}`.trim() : (error as Error).message;
    return { status: null, headers: new Headers(), text: '', error: message };
  }
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The request as a curl command; the token is written `$TOKEN` so a report never holds it. */
export function curlOf(baseUrl: string, request: FuzzRequest): string {
  const parts = ['curl -i', `-X ${request.method.toUpperCase()}`, quote(urlOf(baseUrl, request))];
  for (const [name, value] of Object.entries(headersOf(request, '$TOKEN'))) {
    parts.push(name === 'Authorization' ? `-H "Authorization: Bearer $TOKEN"` : `-H ${quote(`${name}: ${value}`)}`);
  }
  if (request.body !== undefined) parts.push(`--data-raw ${quote(JSON.stringify(request.body))}`);
  return parts.join(' ');
}

/** `PATCH /tickets/{id}/` */
export const labelOf = (operation: BundleOperation) => `${operation.method.toUpperCase()} ${operation.path}`;
