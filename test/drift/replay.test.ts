// `drift --base-url` (issue 26 item 4): the recorded reads replayed against a server, shapes compared.
// Against the mock serving the shared staging recording: zero shape findings (on main before: 5
// replay-status, 6 replay-missing, 40 replay-extra, 14 replay-type; free-form keys compared as
// shape, pages compared position by position, the recording's own contradictions and a recorded
// cursor replayed as the server's failures). Against a server that really differs: each difference
// found exactly once.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/index.ts';
import { type DriftReport, INFORMATION, runDrift } from '../../src/drift/index.ts';
import { type MockServer, startMock } from '../../src/mock/index.ts';
import { SHARED_RECORDING, withoutSharedRecording } from '../helpers/shared-recording.ts';

const SHARED = SHARED_RECORDING;
const SHAPE = ['replay-status', 'replay-missing', 'replay-extra', 'replay-type'];

/** runCli with its output captured. */
async function cli(args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
  try {
    return { code: await runCli(args), out: lines.join('\n') };
  } finally {
    log.mockRestore();
  }
}

describe.skipIf(withoutSharedRecording)('drift --base-url against the mock serving the shared recording', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMock({ port: 0, dataFile: SHARED, warn: () => {} });
  });
  afterAll(() => mock?.close());

  it('finds no shape difference and no status failure; the recording contradicting its targets is information', async () => {
    const run = await cli(['drift', '--recording', SHARED, '--base-url', mock.url, '--token', 't', '--json']);
    const report = JSON.parse(run.out) as DriftReport;
    const replay = report.findings.filter((f) => f.kind.startsWith('replay'));
    expect(replay.filter((f) => SHAPE.includes(f.kind))).toEqual([]);
    expect(replay.every((f) => INFORMATION.has(f.kind))).toBe(true);
    expect(
      replay
        .filter((f) => f.kind === 'replay-inconsistent')
        .map((f) => f.field)
        .sort(),
    ).toEqual([
      'GET /orders/100123/fulfillments/',
      'GET /stockrecords/5/',
      'GET /subscriptions/12/transactions/',
      'GET /tickets/31/',
    ]);
    // The 9 distinct reads less the 4 contradicting their target; the cursor read is replayed too.
    expect(report.replayed?.requests).toBe(5);
    // Exit code as documented: 1 when a finding is not information (the recording's own drift), else 0.
    expect(run.code).toBe(report.findings.some((f) => !INFORMATION.has(f.kind)) ? 1 : 0);
  });
});

describe('drift --base-url against a server that really differs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'drift-differs-'));
  const received: string[] = [];
  let server: Server;
  let base: string;
  const ticket = {
    assignee: 7,
    channel: 'email',
    comments: [],
    created_at: '2024-01-01T00:00:00Z',
    from_email: null,
    id: 1,
    order: '100',
    priority: 'high',
    products: [],
    requester: 3,
    status: 'open',
    subject: 'Where is my order?',
    ticket_type: 'question',
    updated_at: '2024-01-02T00:00:00Z',
  };
  const subscription = (id: number, details: Record<string, unknown>) => ({
    id,
    status: 'active',
    currency: 'USD',
    payment_details: details,
    user: { email: `u${id}@example.com`, ip: null },
  });
  const page = (...results: unknown[]) => ({ next: null, previous: null, results });
  // The server: `subject` gone, `tags` (declared, not recorded) added, `assignee` a string; ticket 2
  // gone; subscriptions on a page in another order, with other free-form payment details.
  const answers: Record<string, [number, unknown]> = {
    '/tickets/1/': [200, { ...ticket, subject: undefined, assignee: '7', tags: ['vip'] }],
    '/tickets/2/': [404, { detail: 'Not found.' }],
    '/subscriptions/?status=active': [
      200,
      page(subscription(5, { brand: 'visa' }), subscription(4, {}), subscription(3, { last4: '4242', exp: 12 })),
    ],
  };

  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = (request.url ?? '').replace(/^\/api/, '');
      received.push(path);
      const [status, body] = answers[path] ?? [500, {}];
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  afterAll(() => new Promise((done) => server.close(done)));

  it('finds a field missing, a declared field extra, a type changed and a status, each once', async () => {
    const read = (operation: string, version: string, target: string, body: unknown) => ({
      operation,
      version,
      method: 'GET',
      target,
      status: 200,
      body,
    });
    const exchanges = [
      read('getTicket', 'unstable', '/tickets/1/', { ...ticket, tags: undefined }),
      read('getTicket', 'unstable', '/tickets/1/', { ...ticket, tags: undefined, assignee: null }),
      read('getTicket', 'unstable', '/tickets/2/', { ...ticket, id: 2 }),
      // Contradicts its own target (ticket 1 recorded as the answer for ticket 9): not sent.
      read('getTicket', 'unstable', '/tickets/9/', ticket),
      // A recorded cursor is not replayed; free-form keys and page positions are not shape.
      read(
        'listSubscriptions',
        '2024-04-01',
        '/subscriptions/?status=active&cursor=cD0yMDI0',
        page(subscription(3, { token: 'x', bin: 4 }), subscription(9, { other: true })),
      ),
    ];
    const meta = { format: 1, upstream: 'http://x', recordedAt: '', limit: 1, dropped: 0, skipped: 0, redacted: [] };
    const file = join(dir, 'differs.json');
    writeFileSync(file, JSON.stringify({ $recording: { ...meta, maxBytes: 1, exchanges } }));
    const report = await runDrift({ recording: file, replay: { baseUrl: base, token: 't' } });
    const replay = report.findings.filter((f) => f.kind.startsWith('replay'));
    expect(replay.map((f) => `${f.kind} ${f.operation} ${f.field} ${f.count} ${f.detail}`).sort()).toEqual([
      'replay-extra getTicket body.tags 1 ',
      'replay-inconsistent getTicket GET /tickets/9/ 1 recorded answers of id 9 hold 1: not replayed',
      'replay-missing getTicket body.subject 1 ',
      'replay-status getTicket status 1 recorded 200, answered 404',
      'replay-type getTicket body.assignee 1 recorded integer|null, answered string',
    ]);
    expect(received.sort()).toEqual(['/subscriptions/?status=active', '/tickets/1/', '/tickets/2/']);
  });
});
