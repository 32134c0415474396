// Recording details: the file is replaced atomically (a reader never sees half a file), and the
// redacted set is the one asked for.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Recording, startProxy } from '../../src/proxy/index.ts';
import { type StandIn, startStandIn } from './stand-in.ts';

const dir = mkdtempSync(join(tmpdir(), 'proxy-record-'));
const HEADERS = { Authorization: 'Bearer rec', 'X-Service-API-Version': '2024-04-01' };
let upstream: StandIn;

beforeAll(async () => {
  upstream = await startStandIn();
});
afterAll(() => upstream.close());

it('rewrites the file atomically: read while the proxy records, it always parses', async () => {
  const file = join(dir, 'atomic.json');
  const proxy = await startProxy({ upstream: upstream.url, port: 0, record: file });
  let reads = 0;
  let done = false;
  const reader = (async () => {
    while (!done) {
      JSON.parse(readFileSync(file, 'utf8')); // throws on a torn file
      reads++;
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  let listed = 0;
  for (const status of ['active', 'paused', 'canceled', 'past_due', 'retrying']) {
    const page = await fetch(`${proxy.url}/subscriptions/?status=${status}`, { headers: HEADERS });
    listed += ((await page.json()) as { results: unknown[] }).results.length;
    await new Promise((resolve) => setTimeout(resolve, 60)); // past the write delay: one write each
  }
  await proxy.close();
  done = true;
  await reader;
  expect(reads).toBeGreaterThan(10);
  expect((JSON.parse(readFileSync(file, 'utf8')) as Recording).subscriptions).toHaveLength(listed - 1); // one trialing: skipped
});

it('redacts the fields asked for, and nothing with an empty set', async () => {
  const redacted = join(dir, 'names.json');
  const plain = join(dir, 'plain.json');
  for (const [file, redact] of [
    [redacted, ['first_name']],
    [plain, []],
  ] as const) {
    const proxy = await startProxy({ upstream: upstream.url, port: 0, record: file, redact });
    await fetch(`${proxy.url}/subscriptions/?status=active`, { headers: HEADERS });
    await proxy.close();
  }
  const names = (JSON.parse(readFileSync(redacted, 'utf8')) as Recording).subscriptions ?? [];
  const real = (JSON.parse(readFileSync(plain, 'utf8')) as Recording).subscriptions ?? [];
  expect(real[0]?.user?.first_name).toMatch(/^[A-Z][a-z]+$/);
  expect(names[0]?.user?.first_name).toMatch(/^redacted-[0-9a-f]{12}$/);
  expect(names[0]?.user?.email).toBe(real[0]?.user?.email); // not in the set: kept
  // Same input, same fake; another input, another fake.
  const byReal = new Map(real.map((s, i) => [s.user?.first_name, names[i]?.user?.first_name]));
  for (const [i, s] of real.entries()) expect(names[i]?.user?.first_name).toBe(byReal.get(s.user?.first_name));
  expect(new Set(byReal.values()).size).toBe(byReal.size);
});
