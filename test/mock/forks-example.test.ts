/**
 * The vitest example of docs/mock.md "Forks", run: its global setup (./forks-example/global-setup.ts)
 * and its fork helper (./forks-example/fork.ts) are the files quoted in the docs, checked equal
 * here; the tests below are the docs' test file, with `inject` given what the setup provided, and
 * run concurrently as parallel workers would. Each starts from the prepared store and sees only
 * its own writes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/bundles.ts';
import { forkPrepared } from './forks-example/fork.ts';
import setup from './forks-example/global-setup.ts';

const provided: Record<string, string> = {};
const inject = (key: 'preparedMockUrl') => provided[key] as string;
let teardown: () => Promise<void>;

beforeAll(async () => {
  teardown = await setup({ provide: (key, value) => (provided[key] = value as string) });
});
afterAll(() => teardown());

/** The docs' ```ts blocks (after the "Forks" heading) as written, the package's import paths mapped to the sources. */
function docsBlocks(): string[] {
  const text = readFileSync(join(ROOT, 'docs', 'mock.md'), 'utf8');
  const section = text.slice(text.indexOf('## Forks'));
  return [...section.matchAll(/```ts nocheck\n([\s\S]*?)```/g)].map((m) =>
    (m[1] as string).replace("'@store-admin/contract/mock'", "'../../../src/mock/index.ts'"),
  );
}

describe('docs/mock.md "Forks": the vitest example', () => {
  it('quotes the global setup and the fork helper as they are run here', () => {
    const blocks = docsBlocks();
    for (const file of ['global-setup.ts', 'fork.ts']) {
      const code = readFileSync(join(ROOT, 'test', 'mock', 'forks-example', file), 'utf8');
      expect(blocks).toContain(code);
    }
  });

  // The docs' test file, each test in a worker of its own.
  describe.concurrent('each test forks the prepared store', () => {
    for (let worker = 1; worker <= 4; worker++) {
      it(`worker ${worker} writes to its own copy`, async () => {
        const mockUrl = inject('preparedMockUrl');
        const token = await forkPrepared(mockUrl);
        const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
        const ticket = await (await fetch(`${mockUrl}/tickets/1/`, { headers })).json();
        expect(ticket.subject).toBe('Prepared'); // from the global setup, not the seed
        const body = JSON.stringify({ subject: `worker ${worker}` });
        await fetch(`${mockUrl}/tickets/1/`, { method: 'PATCH', headers, body });
        const after = await (await fetch(`${mockUrl}/tickets/1/`, { headers })).json();
        expect(after.subject).toBe(`worker ${worker}`); // no other test's write
        const other = await (await fetch(`${mockUrl}/tickets/2/`, { headers })).json();
        expect(other.subject).toBe('Prepared');
      });
    }
  });
});
