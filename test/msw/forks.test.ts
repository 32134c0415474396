/**
 * Forks with the MSW handlers (docs/msw.md "Forks"): the docs' sample, run: a worker prepares once
 * and saves a global snapshot, each test forks it with `handlers.fork()` under a new token and
 * sees the prepared store plus its own writes only, through the package's client.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAdminClient } from '../../src/client/index.ts';
import { createHandlers } from '../../src/msw/index.ts';

const BASE = 'http://forks.test/admin';
const handlers = createHandlers({ baseUrl: BASE });
const server = setupServer(...handlers);
let token: string;

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  // Once per worker: prepare under a token of its own, save it as a global snapshot.
  const setup = createAdminClient({ baseUrl: BASE, token: 'setup', retry: false });
  await setup.PATCH('/tickets/{id}/', { params: { path: { id: 1 } }, body: { subject: 'Prepared' } });
  await handlers.snapshot('prepared', 'setup', { global: true });
});
// Before each test: a fork of it, under a new token, for that test alone.
beforeEach(async () => {
  token = await handlers.fork('prepared');
});
afterAll(() => server.close());

describe('handlers.fork', () => {
  for (const n of [1, 2]) {
    it(`test ${n} starts from the prepared store and sees only its own write`, async () => {
      const client = createAdminClient({ baseUrl: BASE, token, retry: false });
      const before = await client.GET('/tickets/{id}/', { params: { path: { id: 1 } } });
      expect(before.data?.subject).toBe('Prepared');
      await client.PATCH('/tickets/{id}/', { params: { path: { id: 1 } }, body: { subject: `test ${n}` } });
      const after = await client.GET('/tickets/{id}/', { params: { path: { id: 1 } } });
      expect(after.data?.subject).toBe(`test ${n}`);
      expect(token).toMatch(/^fork-/);
    });
  }

  it('rejects a fork of a snapshot that does not exist, naming it', async () => {
    await expect(handlers.fork('missing')).rejects.toThrow('No global snapshot named "missing"');
  });
});
