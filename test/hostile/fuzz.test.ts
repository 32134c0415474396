/**
 * Hostile servers against the fuzzer (issue 31 item 22), real node:http servers on loopback, each
 * run bounded in time: an endless answer is read up to the fuzzer's bound and reported as "answer
 * too large" naming the operation (it was read whole: 2.2 GB for a 1 GB answer, then "cannot
 * reach"); a list whose `next` is not a URL is a finding and the run goes on (it aborted the run);
 * a 307 to another host is reported and never followed, writes included (they were followed).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/index.ts';
import { FUZZ_MAX_ANSWER_BYTES, runFuzz } from '../../src/fuzz/index.ts';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const problem = (res: ServerResponse, status: number) => {
  res.writeHead(status, { 'Content-Type': 'application/problem+json' });
  res.end(JSON.stringify({ title: 'no', status }));
};

describe('the fuzzer against hostile servers', () => {
  it('reads an endless answer up to its bound: "answer too large", naming the operation (CLI, exit 1)', async () => {
    let most = 0;
    const CAP = 4 * FUZZ_MAX_ANSWER_BYTES; // the server's own bound, so that the test ends either way
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      let written = 0;
      const pump = () => {
        while (written < CAP && !res.destroyed) {
          written += chunk.length;
          most = Math.max(most, written);
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.write('[');
      pump();
    });
    const out: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line) => out.push(String(line)));
    const error = vi.spyOn(console, 'error').mockImplementation((line) => out.push(String(line)));
    let code: number;
    try {
      code = await runCli([
        'fuzz',
        '--base-url',
        url,
        '--token',
        't',
        '--cases',
        '4',
        '--seed',
        '1',
        '--version',
        'unstable',
      ]);
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
    const output = out.join('\n');
    expect(output).not.toContain('cannot reach');
    expect(output).toMatch(
      /FAIL getTicket \(unstable\), [^\n]*: too-large: answer too large: 200 with more than 16 MiB/,
    );
    expect(code, output).toBe(1);
    // Each answer was cut soon after the bound, not read to its end.
    expect(most).toBeLessThan(CAP);
  }, 60_000);

  it('reports a list whose next is not a URL as a finding and finishes the run', async () => {
    const url = await serve((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (req.method === 'GET' && path === '/fulfillment-orders/') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ next: 'not a url', previous: null, results: [] }));
      } else problem(res, 404);
    });
    const report = await runFuzz({
      baseUrl: url,
      token: 't',
      seed: 3,
      cases: 40,
      allowWrites: true,
      versions: ['2024-04-01'],
      timeoutMs: 5_000,
    });
    const next = report.failures.filter((f) => f.check === 'next');
    expect(next.length).toBeGreaterThan(0);
    expect(next[0]?.message).toBe(
      'GET /fulfillment-orders/ (2024-04-01) answered a next that is not a URL: "not a url"',
    );
    expect(next.map((f) => f.operation)).toContain('moveFulfillmentOrder');
    // The run went on: every operation of the version had its properties run.
    expect(new Set(report.properties.map((p) => p.operation)).size).toBe(13);
  }, 60_000);

  it('never follows a redirect to another origin, writes included, and reports it', async () => {
    const elsewhere: string[] = [];
    const other = await serve((req, res) => {
      elsewhere.push(`${req.method} ${req.url}`);
      problem(res, 404);
    });
    const url = await serve((req, res) => {
      res.writeHead(307, { Location: `${other}${req.url}` });
      res.end();
    });
    const report = await runFuzz({
      baseUrl: url,
      token: 't',
      seed: 5,
      cases: 40,
      allowWrites: true,
      versions: ['2023-02-10'],
      timeoutMs: 5_000,
    });
    expect(elsewhere).toEqual([]);
    const redirects = report.failures.filter((f) => f.check === 'redirect');
    expect(redirects.map((f) => f.operation)).toEqual(expect.arrayContaining(['createGiftCard', 'captureTransaction']));
    expect(redirects[0]?.message).toMatch(new RegExp(`^answered 307 redirecting to another origin \\(${other}/`));
  }, 60_000);
});
