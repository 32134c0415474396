/**
 * The client's errors:
 *   - AdminApiError: a response with a non-2xx status, thrown by `unwrap` (the opt-in throwing style:
 *     `unwrap(await client.GET(…))` returns the data of a 2xx response). The `{ data, error, response }`
 *     result of openapi-fetch stays available for callers who branch on it themselves.
 *   - AdminClientError: the client refused to go on (a call rejects with it): a path parameter that
 *     would change the path, a redirect it does not follow, a success body that is not JSON, a
 *     response above `maxResponseBytes`, a walk above `maxPages` or looping on a cursor.
 */

/** Headers that may carry the server's id of a request, first match wins. */
const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-correlation-id'];

/** The request behind each response of the client (recorded by its fetch). */
export interface RequestMeta {
  method: string;
  url: string;
}
/** The request of each non-2xx response, recorded by the client's fetch for AdminApiError. */
export const requestOf = new WeakMap<Response, RequestMeta>();

/** A non-2xx response of the store admin API. */
export class AdminApiError extends Error {
  override name = 'AdminApiError';
  /** The HTTP status, e.g. 401. */
  declare readonly status: number;
  /** The response body: parsed JSON when it was JSON, else its text (undefined when empty). */
  declare readonly body: unknown;
  /** The request method, e.g. `GET`. */
  declare readonly method: string;
  /** The request path, e.g. `/subscriptions/42/renew/` (query string excluded). */
  declare readonly path: string;
  /** The full request URL. */
  declare readonly url: string;
  /** The server's request id (`X-Request-Id`, `Request-Id` or `X-Correlation-Id`), if it sent one. */
  declare readonly requestId: string | undefined;
  /** The response itself (its body has been read). */
  declare readonly response: Response;

  constructor(
    response: Response,
    body: unknown,
    request: RequestMeta = requestOf.get(response) ?? { method: '', url: response.url },
  ) {
    const path = new URL(request.url, 'http://x').pathname;
    const requestId = REQUEST_ID_HEADERS.map((name) => response.headers.get(name)).find((value) => value) ?? undefined;
    const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    super(
      `${request.method || 'request'} ${path} failed with ${status}${requestId ? ` (request id ${requestId})` : ''}`,
    );
    this.status = response.status;
    this.body = body;
    this.method = request.method;
    this.path = path;
    this.url = request.url;
    this.requestId = requestId;
    this.response = response;
  }
}

/** Why the client refused to go on. */
export type AdminClientErrorCode =
  | 'path-parameter'
  | 'redirect'
  | 'not-json'
  | 'too-large'
  | 'too-many-pages'
  | 'cursor-loop';

/** Details of an AdminClientError; which are set depends on the code. */
export interface AdminClientErrorDetails {
  /** The request method, e.g. `GET`. */
  method: string;
  /** The request URL, or the operation's path (`/tickets/{id}/`) when refused before any URL was built. */
  url: string;
  /** The response status (`not-json`, `too-large`, `redirect`). */
  status?: number;
  /** The response's `Content-Type` (`not-json`, `too-large`; empty when absent). */
  contentType?: string;
  /** The redirect's target (`redirect`; empty when the platform hides it, as browsers do). */
  location?: string;
  /** The limit that was hit (`too-large`: bytes, `too-many-pages`: pages). */
  limit?: number;
}

/** The client refused a request or a response; nothing further was sent. */
export class AdminClientError extends Error implements AdminClientErrorDetails {
  override name = 'AdminClientError';
  declare readonly code: AdminClientErrorCode;
  declare readonly method: string;
  declare readonly url: string;
  declare readonly status?: number;
  declare readonly contentType?: string;
  declare readonly location?: string;
  declare readonly limit?: number;

  constructor(code: AdminClientErrorCode, message: string, details: AdminClientErrorDetails) {
    super(message);
    Object.assign(this, details);
    this.code = code;
  }
}

/** The result shape of every openapi-fetch call. */
export interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** The data of a successful result; throws an AdminApiError for a non-2xx response. */
export function unwrap<R extends FetchResult>(result: R): Exclude<R['data'], undefined> {
  if (!result.response.ok) throw new AdminApiError(result.response, result.error);
  return result.data as Exclude<R['data'], undefined>;
}
