/**
 * No answer of the MSW handlers carries a stack trace or a file path (issue #21): under msw/node, an
 * internal error (the engine failing, an override that throws) becomes the mock's 500 problem,
 * logged once on the console, and a malformed body to an overridden operation is the engine's 400.
 * On main before #21 each row came back as MSW's serialized exception: the error's message, its
 * stack and absolute file paths.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHandlers, override } from '../../src/msw/index.ts';
import { call } from '../mock/http.ts';

const BASE = 'http://leak.test/api';
const SECRET = '/home/dev/secret-project/src/db.ts';
const handlers = createHandlers({
  baseUrl: BASE,
  // The clock of write timestamps fails: an internal error inside the engine, on every write.
  now: () => {
    throw new Error(`clock failed at ${SECRET}:12:7`);
  },
  overrides: [
    override('get', '/store/', () => {
      throw new TypeError(`override failed reading ${SECRET}`);
    }),
    override('put', '/pages/{id}/', ({ body }) => ({ id: 1, ...(body as object) }) as never),
  ],
});
const server = setupServer(...handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => vi.restoreAllMocks());
afterAll(() => server.close());

const LEAK = /\bat .*:\d+:\d+|\/home\/|\/work\/|node_modules|\.ts\b|clock failed|override failed|Error\b/;

describe('internal errors of the MSW handlers', () => {
  it.each([
    ['the engine fails (a write whose clock throws)', 'PATCH', '/tickets/1/', { subject: 'x' }, 500],
    ['an override throws', 'GET', '/store/', undefined, 500],
  ])('%s: the 500 problem, no stack, no path, logged once', async (_, method, path, body, status) => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const response = await call(method, path, { baseUrl: BASE, ...(body !== undefined && { body }) });
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.json).toMatchObject({ status: 500, type: 'urn:store-admin-mock:internal-error' });
    expect(response.text).not.toMatch(LEAK);
    expect(logged).toHaveBeenCalledTimes(1);
  });

  it('a malformed body to an overridden operation is the engine 400 naming the body', async () => {
    const response = await call('PUT', '/pages/1/', { baseUrl: BASE, raw: '{"title": oops' });
    expect(response.status).toBe(400);
    expect(response.json.validation[0]).toMatchObject({ field: 'body', rule: 'json' });
    expect(response.text).not.toMatch(LEAK);
  });
});
