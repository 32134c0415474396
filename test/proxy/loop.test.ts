// The loop end to end: the package's client runs a frontend flow through the proxy with --record
// against the diverging stand-in; the mock started on that recording (`--data`) answers the same
// reads with the recorded records, the MSW handlers load it too, and `drift` names each planted
// divergence exactly once (and, replayed against the mock, the field the mock cannot answer).
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/index.ts';
import { createAdminClient, paginate, unwrap } from '../../src/client/index.ts';
import { versionOf } from '../../src/contract/index.ts';
import { type DriftReport, runDrift } from '../../src/drift/index.ts';
import { type MockServer, startMock } from '../../src/mock/index.ts';
import { createHandlers } from '../../src/msw/index.ts';
import { CREDENTIAL, type Recording, startProxy } from '../../src/proxy/index.ts';
import { type StandIn, startStandIn } from './stand-in.ts';

const TOKEN = 'tok-loop-5a4b3c2d1e';
const TAG = 'tag-secret-77';
const dir = mkdtempSync(join(tmpdir(), 'proxy-loop-'));
const FILE = join(dir, 'staging.json');

let upstream: StandIn;
let mock: MockServer;
let recording: Recording;
/** What the client read through the proxy, by label. */
const read: Record<string, unknown> = {};

beforeAll(async () => {
  upstream = await startStandIn();
  const proxy = await startProxy({ upstream: upstream.url, port: 0, record: FILE });
  const client = createAdminClient({ baseUrl: proxy.url, token: TOKEN, headers: { 'X-Request-Tag': TAG } });
  const active = [];
  for await (const s of paginate(client, '/subscriptions/', { params: { query: { status: ['active'] } } }))
    active.push(s);
  read.active = active;
  read.paused = unwrap(await client.GET('/subscriptions/', { params: { query: { status: ['paused'] } } }));
  read.ticket7 = unwrap(await client.GET('/tickets/{id}/', { params: { path: { id: 7 } } }));
  read.ticket1 = unwrap(await client.GET('/tickets/{id}/', { params: { path: { id: 1 } } }));
  read.patched1 = unwrap(
    await client.PATCH('/tickets/{id}/', { params: { path: { id: 1 } }, body: { status: 'solved' } }),
  );
  read.stock3 = unwrap(
    await client.withVersion('2023-02-10').GET('/stockrecords/{id}/', { params: { path: { id: 3 } } }),
  );
  read.stock4 = unwrap(
    await client.withVersion('2023-02-10').GET('/stockrecords/{id}/', { params: { path: { id: 4 } } }),
  );
  read.store = unwrap(await client.GET('/store/'));
  // An open fulfillment order moved to another location (the mock refuses a move to its own).
  const open = unwrap(await client.GET('/fulfillment-orders/', { params: { query: { status: ['open'] } } }));
  const order = open.results?.[0];
  const to = [12, 14, 31, 40].find((location) => location !== order?.assigned_location?.id) as number;
  read.moved = unwrap(
    await client.POST('/fulfillment-orders/{id}/move/', {
      params: { path: { id: order?.id as number } },
      body: { new_location_id: to },
    }),
  );
  await proxy.close();
  recording = JSON.parse(readFileSync(FILE, 'utf8')) as Recording;
  mock = await startMock({ port: 0, dataFile: FILE });
}, 60_000);
afterAll(async () => {
  await mock?.close();
  await upstream?.close();
});

const get = async (base: string, path: string, version: string) => {
  const response = await fetch(`${base}${path}`, {
    headers: { Authorization: 'Bearer dev', 'X-Service-API-Version': version },
  });
  return { status: response.status, body: await response.json() };
};
const without = (record: unknown, field: string) => {
  const { [field]: _, ...rest } = record as Record<string, unknown>;
  return rest;
};

describe('the recording', () => {
  it('holds the collections and the exchanges, written atomically (no temporary file left)', () => {
    expect(Object.keys(recording).sort()).toEqual(['$recording', 'fulfillmentOrders', 'subscriptions', 'tickets']);
    expect(recording.$recording.exchanges.map((e) => `${e.method} ${e.operation}`)).toContain('PATCH updateTicket');
    expect(readdirSync(dir)).toEqual(['staging.json']);
  });

  it('never holds the token nor any request header value; emails, phones and ips are stable fakes', () => {
    const text = readFileSync(FILE, 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(TAG);
    const real = (read.ticket1 as { from_email: string }).from_email;
    expect(real).toMatch(/@/);
    expect(text).not.toContain(real);
    const tickets = recording.tickets as { id: number; from_email: string }[];
    const exchange = recording.$recording.exchanges.find(
      (e) => e.operation === 'getTicket' && e.target === '/tickets/1/',
    );
    const fake = (exchange?.body as { from_email?: string } | undefined)?.from_email;
    expect(fake).toMatch(/^user-[0-9a-f]{12}@example\.invalid$/);
    // The same input, the same fake: the recorded ticket (latest, the PATCH answer) keeps it.
    expect(tickets.find((t) => t.id === 1)?.from_email).toBe(fake);
    const users = (recording.subscriptions as { user: { ip: string; phone_number: string } }[]).map((s) => s.user);
    expect(users[0]?.ip).toMatch(/^10\.\d+\.\d+\.\d+$/);
    expect(users[0]?.phone_number).toMatch(/^\+1555\d{7}$/);
  });

  it('keeps out of the collections the records that break the contract (the mock would refuse them)', () => {
    // The trialing subscription, stock records 3 (a string count) and 4 (beyond int32), and the
    // store named null (a store's name is never null since the staging recording, docs/fidelity.md).
    expect(recording.$recording.skipped).toBe(4);
    expect(recording.stockrecords).toBeUndefined();
    expect(recording.store).toBeUndefined();
  });
});

describe('served as the mock data', () => {
  it('the mock on --data answers the same reads with the recorded records (latest wins by key)', async () => {
    const list = await get(mock.url, '/subscriptions/?status=active', '2024-04-01');
    expect(list.body.results).toEqual(expectRedacted(read.active));
    expect((await get(mock.url, '/tickets/7/', 'unstable')).body).toEqual(
      expectRedacted(without(read.ticket7, 'satisfaction_rating')),
    );
    expect((await get(mock.url, '/tickets/1/', 'unstable')).body).toEqual(expectRedacted(read.patched1));
    const moved = read.moved as { moved_fulfillment_order: { id: number } };
    const movedId = moved.moved_fulfillment_order.id;
    expect(
      (await get(mock.url, `/fulfillment-orders/?fulfillment_order_id=${movedId}`, '2024-04-01')).body.results,
    ).toEqual([expectRedacted(moved.moved_fulfillment_order)]);
  });

  it('the MSW handlers load the same recording', async () => {
    const handlers = createHandlers({ baseUrl: 'http://recorded.test', data: recording });
    const server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const client = createAdminClient({ baseUrl: 'http://recorded.test', token: 'dev' });
      const ticket = unwrap(await client.GET('/tickets/{id}/', { params: { path: { id: 7 } } }));
      expect(ticket).toEqual(expectRedacted(without(read.ticket7, 'satisfaction_rating')));
    } finally {
      server.close();
    }
  });
});

/** A record as the recording has it: the same, its personal fields replaced by fakes of their kind. */
function expectRedacted(value: unknown, key = ''): unknown {
  if (typeof value === 'string') {
    if (/(^|_)email($|_)/.test(key)) return expect.stringMatching(/^user-[0-9a-f]{12}@example\.invalid$/);
    if (/(^|_)ip($|_)/.test(key)) return expect.stringMatching(/^10\.\d+\.\d+\.\d+$/);
    if (/(^|_)phone_number($|_)/.test(key)) return expect.stringMatching(/^\+1555\d{7}$/);
    // Credentials and payment data (always redacted): digits stay digits of the same length.
    if (CREDENTIAL.test(key))
      return expect.stringMatching(
        /^\d+$/.test(value) ? new RegExp(`^\\d{${value.length}}$`) : /^redacted-[0-9a-f]{12}$/,
      );
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => expectRedacted(item, key));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([name, child]) => [name, expectRedacted(child, name)]));
}

const LEARNED = new Set(['never-null', 'closed-set', 'always-present', 'absent']);

describe('drift against the recording', () => {
  let report: DriftReport;
  beforeAll(async () => {
    report = await runDrift({ recording: FILE });
  });

  it('names each planted divergence exactly once, and nothing else as drift', () => {
    // What the statistics teach (never-null, closed-set, presence) is learned, not planted: test/drift/.
    const named = report.findings
      .filter((f) => !LEARNED.has(f.kind))
      .map((f) => `${f.kind} ${f.operation} ${f.version} ${f.field}`);
    expect(named.sort()).toEqual(
      [
        'bounds getStockRecord 2023-02-10 body.num_allocated',
        'enum listSubscriptions 2024-04-01 body.results[].status',
        `null getStore ${versionOf('get', '/store/')} body[].name`,
        'type getStockRecord 2023-02-10 body.num_in_stock',
        'unknown-field getTicket unstable body.satisfaction_rating',
      ].sort(),
    );
    expect(report.findings.find((f) => f.kind === 'enum')?.detail).toBe('value trialing');
    const nulls = report.fields.filter((n) => n.field === 'body[].name' && n.nulls > 0);
    expect(nulls.map(({ operation, version, nulls }) => ({ operation, version, nulls }))).toEqual([
      { operation: 'getStore', version: versionOf('get', '/store/'), nulls: 1 },
    ]);
  });

  it('lists the values seen of fields whose allowed values are not shown', () => {
    const interval = report.fields.find(
      (s) => s.operation === 'listSubscriptions' && s.field === 'body.results[].interval',
    );
    expect(interval?.values).toEqual({ day: expect.any(Number) });
  });

  it('the command: exit 1 with a table, --json for machines, 2 on usage, 3 on an unreadable file', async () => {
    const out: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await runCli(['drift', '--recording', FILE])).toBe(1);
      expect(out.join('\n')).toMatch(/\ngetTicket\n.*\n.*\n\s+unknown-field\s+unstable\s+body\.satisfaction_rating/);
      out.length = 0;
      expect(await runCli(['drift', '--recording', FILE, '--json'])).toBe(1);
      const { findings } = JSON.parse(out.join('\n')) as DriftReport;
      expect(findings.filter((f) => !LEARNED.has(f.kind))).toHaveLength(5);
      expect(await runCli(['drift'])).toBe(2);
      expect(await runCli(['drift', '--recording', FILE, '--write'])).toBe(2); // --write goes with --propose
      expect(await runCli(['drift', '--recording', FILE, '--base-url', 'http://x.test'])).toBe(2);
      expect(await runCli(['drift', '--recording', join(dir, 'missing.json')])).toBe(3);
      expect(errors.mock.calls.at(-1)?.[0]).toMatch(/missing\.json: cannot read the recording \(ENOENT\)/);
    } finally {
      spy.mockRestore();
      errors.mockRestore();
    }
  });

  it('replayed against the mock serving it, the shapes differ only where the mock cannot follow', async () => {
    const replayed = await runDrift({ recording: FILE, replay: { baseUrl: mock.url, token: 'dev' } });
    const replay = replayed.findings.filter((f) => f.kind.startsWith('replay'));
    expect(replay.map((f) => `${f.kind} ${f.operation} ${f.field}`)).toContain(
      'replay-missing getTicket body.satisfaction_rating',
    );
    expect(replayed.replayed?.requests).toBeGreaterThan(0);
  });
});
