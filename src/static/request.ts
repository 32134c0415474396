/** Reading a request for Prism: the body (JSON parsed, size-limited), the query, the headers. */
import type { IncomingMessage } from 'node:http';
import { MAX_BODY_BYTES, PROBLEM_TYPES, type Problem, problem } from '../mock/browser.ts';

export type ReadBody = { ok: true; body: unknown; malformed?: Problem } | { ok: false; problem: Problem };

/**
 * Reads the body. A JSON body that does not parse is kept as text and reported in `malformed`: the
 * request still goes through Prism's security check first, so a request without a token gets 401
 * whatever its body.
 */
export async function readBody(request: IncomingMessage): Promise<ReadBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      return {
        ok: false,
        problem: problem(
          413,
          PROBLEM_TYPES.tooLarge,
          'Payload too large',
          `The mock accepts bodies up to ${MAX_BODY_BYTES} bytes.`,
        ),
      };
    }
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return { ok: true, body: undefined };
  const text = Buffer.concat(chunks).toString('utf8');
  const contentType = request.headers['content-type'];
  // JSON when declared so, or when undeclared (the API speaks only JSON); anything else goes to Prism
  // as text, which it refuses against the declared `application/json` body.
  if (contentType !== undefined && !/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
    return { ok: true, body: text };
  }
  try {
    return { ok: true, body: JSON.parse(text) };
  } catch (error) {
    const message = `Malformed JSON body: ${(error as Error).message}`;
    return {
      ok: true,
      body: text,
      malformed: problem(400, PROBLEM_TYPES.malformedJson, 'Malformed JSON', 'The request body is not valid JSON.', [
        { field: 'body', rule: 'json', message, location: ['body'] },
      ]),
    };
  }
}

export function queryOf(searchParams: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(searchParams.keys())) {
    const values = searchParams.getAll(key);
    query[key] = values.length === 1 ? (values[0] as string) : values;
  }
  return query;
}

export function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/**
 * The request URL, or `undefined` when its path has a malformed percent-escape (`/tickets/%E0/`).
 * Origin-form targets (`/path?query`) are appended to a dummy origin, so that `//store/` stays a path.
 */
export function requestUrl(request: IncomingMessage): URL | undefined {
  const target = request.url ?? '/';
  const url = target.startsWith('/') ? new URL(`http://mock.invalid${target}`) : new URL(target);
  try {
    decodeURIComponent(url.pathname);
    return url;
  } catch {
    return undefined;
  }
}
