/**
 * What the client refuses from a server (issue #13): it never follows a redirect to another origin,
 * nor one that would re-send a body, and it reads no success body that is not JSON and no body
 * above `maxResponseBytes`. Only web platform APIs (Request, Response, URL, TransformStream).
 */
import { AdminClientError, requestOf } from './errors.ts';
import type { Fetch } from './retry.ts';

/** Default of `maxResponseBytes`: 50 MiB. */
export const MAX_RESPONSE_BYTES = 50 * 1024 * 1024;
/** Same-origin redirects followed in a row before the client gives up. */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = [301, 302, 303, 307, 308];
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/**
 * The redirect `response` of `request` (openapi-fetch's requests carry `redirect: 'manual'`): a
 * same-origin redirect of a GET or HEAD is followed, at most MAX_REDIRECTS times; any other
 * (another origin, another method, a browser's hidden `opaqueredirect`) rejects with an
 * AdminClientError `redirect`, and nothing is sent to its target. Other statuses pass as they are.
 */
export async function followRedirects(fetch: Fetch, request: Request, response: Response): Promise<Response> {
  for (let hop = 1; response.type === 'opaqueredirect' || REDIRECT_STATUSES.includes(response.status); hop++) {
    const location = response.headers.get('Location') ?? '';
    if (response.type !== 'opaqueredirect' && !location) break;
    await response.body?.cancel();
    let target: URL | undefined;
    try {
      target = new URL(location, request.url);
    } catch {}
    const safe = request.method === 'GET' || request.method === 'HEAD';
    if (!target || !safe || target.origin !== new URL(request.url).origin || hop > MAX_REDIRECTS) {
      throw new AdminClientError(
        'redirect',
        `${request.method} ${request.url}: not following the ${response.status || 'hidden'} redirect to ${location || '(hidden)'} (only same-origin GET and HEAD redirects are followed, at most ${MAX_REDIRECTS})`,
        { method: request.method, url: request.url, status: response.status, location },
      );
    }
    request = new Request(target, {
      method: request.method,
      headers: request.headers,
      signal: request.signal,
      redirect: 'manual',
    });
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
  const meta = { method: request.method, url: request.url };
  if (!response.ok) requestOf.set(response, meta); // for AdminApiError
  const { body, headers, status } = response;
  if (body === null) return response;
  const contentType = headers.get('Content-Type') ?? '';
  const length = headers.get('Content-Length');
  const refuse = (code: 'not-json' | 'too-large', message: string) => {
    void body.cancel().catch(() => {});
    return new AdminClientError(code, `${meta.method} ${meta.url}: ${message}`, {
      ...meta,
      status,
      contentType,
      ...(code === 'too-large' ? { limit: max } : {}),
    });
  };
  if (response.ok && length !== '0' && contentType && !JSON_TYPE.test(contentType)) {
    throw refuse('not-json', `the ${status} response is not JSON (Content-Type ${contentType})`);
  }
  const tooLarge = `the ${status} response is larger than maxResponseBytes (${max} bytes)`;
  if (length !== null && !headers.has('Content-Encoding')) {
    if (Number(length) > max) throw refuse('too-large', tooLarge);
    return response;
  }
  let read = 0;
  const counted = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        read += chunk.byteLength;
        if (read > max) controller.error(refuse('too-large', tooLarge));
        else controller.enqueue(chunk);
      },
    }),
  );
  const limited = new Response(counted, { status, statusText: response.statusText, headers });
  if (!limited.ok) requestOf.set(limited, meta);
  return limited;
}

/** The AdminClientError of a success body that claimed to be JSON but did not parse. */
export function invalidJson(response: Response, request: Request): AdminClientError {
  const contentType = response.headers.get('Content-Type') ?? '';
  return new AdminClientError(
    'not-json',
    `${request.method} ${request.url}: the ${response.status} response is not valid JSON (Content-Type ${contentType || 'none'})`,
    { method: request.method, url: request.url, status: response.status, contentType },
  );
}
