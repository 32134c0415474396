/**
 * What the client refuses from a server (issue #13): it never follows a redirect to another origin,
 * nor one that would re-send a body, and it reads no success body that is not JSON and no body
 * above `maxResponseBytes`. Only web platform APIs (Request, Response, URL, TransformStream).
 */
import { AdminClientError, type AdminClientErrorCode, requestOf } from './errors.ts';

export type Fetch = (request: Request) => Promise<Response>;

/** Default of `maxResponseBytes`: 50 MiB. */
export const MAX_RESPONSE_BYTES = 50 * 1024 * 1024;
/** Same-origin redirects followed in a row before the client gives up. */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

/** A request and the response it got. */
export interface Exchange {
  request: Request;
  response: Response;
}

/** The AdminClientError about `response` (of `request`): `the <status> <what>`. */
export function responseError(
  code: AdminClientErrorCode,
  what: string,
  { request, response }: Exchange,
  details?: { limit?: number; location?: string },
): AdminClientError {
  const { method, url } = request;
  const { status } = response;
  const contentType = response.headers.get('Content-Type') ?? '';
  return new AdminClientError(code, `${method} ${url}: the ${status || 'hidden'} ${what}`, {
    method,
    url,
    status,
    contentType,
    ...details,
  });
}

/**
 * Lets go of a response's body without waiting: a cancel may never settle (msw/node's does not,
 * issue #27), and nothing is to be read from it.
 */
export function discard(response: Response): void {
  response.body?.cancel().catch(() => {});
}

/**
 * The redirect `response` of `request` (openapi-fetch's requests carry `redirect: 'manual'`): a
 * same-origin redirect of a GET or HEAD is followed, at most MAX_REDIRECTS times; any other
 * (another origin, another method, a browser's hidden `opaqueredirect`) rejects with an
 * AdminClientError `redirect`, and nothing is sent to its target. Other statuses pass as they are.
 */
export async function followRedirects(fetch: Fetch, request: Request, response: Response): Promise<Response> {
  for (let hop = 1; response.type === 'opaqueredirect' || REDIRECT_STATUSES.includes(response.status); hop++) {
    const location = response.headers.get('Location') ?? '';
    if (response.status && !location) break;
    discard(response);
    let target: URL | undefined;
    try {
      if (location) target = new URL(location, request.url); // none: a browser's opaque redirect
    } catch {}
    const { method } = request;
    if (
      !(method === 'GET' || method === 'HEAD') ||
      target?.origin !== new URL(request.url).origin ||
      hop > MAX_REDIRECTS
    ) {
      throw responseError(
        'redirect',
        `redirect to ${location || '(hidden)'} is not followed (same-origin GET and HEAD only, ${MAX_REDIRECTS} at most)`,
        { request, response },
        { location },
      );
    }
    request = new Request(target, { method, headers: request.headers, signal: request.signal, redirect: 'manual' });
    response = await fetch(request);
  }
  return response;
}

/**
 * The final response of a call, checked before openapi-fetch reads it: a success body must be JSON
 * (by its `Content-Type`, when it has one) and no body may exceed `max` bytes (by its
 * `Content-Length` when it is not encoded, else counted while it is read).
 */
export function checkedResponse(response: Response, request: Request, max: number): Response {
  const { body, headers, status } = response;
  if (body !== null) {
    const type = headers.get('Content-Type');
    const length = headers.get('Content-Length');
    if (response.ok && length !== '0' && type && !/^application\/([\w.-]+\+)?json\s*(;|$)/i.test(type)) {
      throw refuse({ request, response }, 'not-json', `response is not JSON (${type})`);
    }
    if (length === null || headers.has('Content-Encoding')) {
      // Unknown size, or the size on the wire only: count the bytes as they are read (decoded).
      let read = 0;
      const counted = body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            read += chunk.byteLength;
            if (read > max) controller.error(tooLarge(response, request, max));
            else controller.enqueue(chunk);
          },
        }),
      );
      response = new Response(counted, { status, statusText: response.statusText, headers });
    } else if (Number(length) > max) {
      throw tooLarge(response, request, max);
    }
  }
  if (!response.ok) requestOf.set(response, { method: request.method, url: request.url }); // for AdminApiError
  return response;
}

/** The error of a response the client does not read; its body is cancelled. */
function refuse(
  exchange: Exchange,
  code: AdminClientErrorCode,
  what: string,
  details?: { limit: number },
): AdminClientError {
  discard(exchange.response);
  return responseError(code, what, exchange, details);
}

const tooLarge = (response: Response, request: Request, max: number) =>
  refuse({ request, response }, 'too-large', `response is larger than maxResponseBytes (${max})`, { limit: max });
