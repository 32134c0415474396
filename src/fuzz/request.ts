/**
 * One request of the fuzzer as data (so fast-check can draw and shrink it), how it is sent, and how
 * it is printed for a human to replay: a curl command whose token is `$TOKEN`, never the real one.
 */
import { type BundleOperation, VERSION_HEADER } from '../contract/index.ts';

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
}

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
  try {
    const response = await doFetch(urlOf(baseUrl, request), {
      method: request.method.toUpperCase(),
      headers: headersOf(request, token),
      ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const message = cause?.code ? `${cause.code}: ${cause.message ?? ''}`.trim() : (error as Error).message;
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
