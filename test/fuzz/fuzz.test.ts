/**
 * The contract fuzzer (src/fuzz, the `fuzz` command) against three servers: the data-backed mock
 * over HTTP and the MSW handlers (msw/node), which must give 0 failures over every operation of
 * every version, writes included; and a deliberately wrong server (./wrong-server.ts), where it must
 * find each planted fault and report nothing else. Seeds are fixed: a run is repeatable.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { EXIT, runCli } from '../../src/cli/index.ts';
import { loadBundles } from '../../src/contract/index.ts';
import { type FuzzReport, runFuzz } from '../../src/fuzz/index.ts';
import { createHandlers } from '../../src/msw/index.ts';
import { ROOT } from '../helpers/bundles.ts';
import { type MockProcess, spawnMock } from '../helpers/mock-process.ts';
import { CLI, runProcess } from '../helpers/process.ts';
import { FAULTS, startWrongFuzzServer } from './wrong-server.ts';

const EVERY_OPERATION = loadBundles()
  .flatMap((b) => b.operations.map((o) => `${b.version} ${o.operationId}`))
  .sort();
const CASES = 120;

/** The operations a report covered, each with its valid requests and at least one rule broken. */
const covered = (report: FuzzReport) =>
  [...new Set(report.properties.map((p) => `${p.version} ${p.operation}`))]
    .filter((key) => report.properties.some((p) => `${p.version} ${p.operation}` === key && p.kind !== 'valid'))
    .sort();

const failuresOf = (report: FuzzReport) =>
  report.failures.map(
    (f) => `${f.operation} (${f.version}) ${f.kind} ${f.field ?? ''}: ${f.check}: ${f.message}\n  ${f.curl}`,
  );

describe('the fuzzer against the conformant servers: 0 failures', () => {
  it('the data-backed mock over HTTP, writes included', async () => {
    const report = await runFuzz({
      baseUrl: inject('mockUrl'),
      token: `fuzz-${process.pid}`,
      seed: 21,
      cases: CASES,
      allowWrites: true,
    });
    expect(failuresOf(report)).toEqual([]);
    expect(covered(report)).toEqual(EVERY_OPERATION);
    expect(report.cases).toBeGreaterThanOrEqual(CASES * 0.8);
    // Valid requests the mock refuses by its store's state are counted, never failures.
    expect(report.refused.every((r) => r.status >= 400 && r.status < 500)).toBe(true);
    // Per operation: the valid requests sent, accepted and refused (issue 27), and those below the floor.
    expect(report.operations.map((c) => `${c.version} ${c.operation}`).sort()).toEqual(EVERY_OPERATION);
    for (const c of report.operations) expect(c.accepted + c.refused, c.operation).toBe(c.sent);
    expect(report.minAccepted).toBe(1);
    expect(report.underExercised).toEqual(report.operations.filter((c) => c.accepted < 1));
  });

  it('the MSW handlers under msw/node', async () => {
    const base = 'http://fuzz.msw.test/api';
    const server = setupServer(...createHandlers({ baseUrl: base }));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const report = await runFuzz({ baseUrl: base, token: 'fuzz-msw', seed: 21, cases: CASES / 2, allowWrites: true });
      expect(failuresOf(report)).toEqual([]);
      expect(covered(report)).toEqual(EVERY_OPERATION);
    } finally {
      server.close();
    }
  });
});

describe('the fuzzer against a deliberately wrong server', () => {
  let wrong: Awaited<ReturnType<typeof startWrongFuzzServer>>;
  let report: FuzzReport;
  beforeAll(async () => {
    wrong = await startWrongFuzzServer();
    report = await runFuzz({ baseUrl: wrong.url, token: 'fuzz', seed: 21, cases: 300, allowWrites: true });
  });
  afterAll(() => wrong.close());

  it.each(Object.entries(FAULTS))('finds the planted fault "%s"', (_, fault) => {
    expect(report.failures).toContainEqual(expect.objectContaining(fault));
  });

  it('reports nothing but the planted faults', () => {
    const planted = Object.values(FAULTS).map((f) => `${f.operation} ${f.version} ${f.check}`);
    const found = report.failures.map((f) => `${f.operation} ${f.version} ${f.check}`);
    expect(found.filter((f) => !planted.includes(f))).toEqual([]);
  });

  it('shrinks a failure to a minimal request, printed as curl without the token', () => {
    const crash = report.failures.find((f) => f.check === '5xx' && f.kind === 'valid');
    expect(crash?.request.query).toEqual([['status', 'paused']]);
    expect(crash?.curl).toBe(
      `curl -i -X GET '${wrong.url}/subscriptions/?status=paused' -H 'Accept: application/json' -H 'X-Service-API-Version: 2024-04-01' -H "Authorization: Bearer $TOKEN"`,
    );
    const enumFault = report.failures.find((f) => f.kind === 'enum');
    expect(enumFault).toMatchObject({ field: 'query.status', check: 'accepted' });
    expect(enumFault?.request.query).toEqual([['status', 'zz-not-in-enum']]);
  });

  it('is deterministic: the same seed sends the same requests, another seed others', async () => {
    const sent = async (seed: number, token: string) => {
      const requests: string[] = [];
      const recording: typeof fetch = (input, init) => {
        requests.push(`${init?.method} ${input} ${init?.body ?? ''}`);
        return fetch(input, init);
      };
      await runFuzz({ baseUrl: wrong.url, token, seed, cases: 40, versions: ['2023-02-10'], fetch: recording });
      return requests;
    };
    const first = await sent(5, 'fuzz-a');
    expect(await sent(5, 'fuzz-b')).toEqual(first);
    expect(await sent(6, 'fuzz-c')).not.toEqual(first);
  });
});

describe('the fuzz command', () => {
  let wrong: Awaited<ReturnType<typeof startWrongFuzzServer>>;
  beforeAll(async () => {
    wrong = await startWrongFuzzServer();
  });
  afterAll(() => wrong.close());

  async function run(args: string[]) {
    const out: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line) => out.push(String(line)));
    const error = vi.spyOn(console, 'error').mockImplementation((line) => out.push(String(line)));
    try {
      return { code: await runCli(['fuzz', ...args]), output: out.join('\n') };
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
  }

  it.each([
    {
      args: ['--base-url', '{wrong}', '--token', 't', '--seed', '21', '--cases', '150'],
      code: 1,
      output: [
        'FAIL getStore (2024-04-01), a valid request: schema',
        "curl -i -X GET '{wrong}/store/'",
        'replay with --seed 21',
      ],
    },
    {
      args: ['--base-url', '{mock}', '--token', 't', '--seed', '7', '--cases', '60', '--version', 'unstable'],
      code: 0,
      output: ['No failure in'],
    },
    { args: ['--token', 't'], code: 2, output: ['Missing --base-url.'] },
    {
      args: ['--base-url', '{mock}', '--token', 't', '--cases', 'many'],
      code: 2,
      output: ['--cases "many" is not a whole number'],
    },
    { args: ['--base-url', '{mock}', '--token', 't', '--nope'], code: 2, output: ["Unknown option '--nope'"] },
    {
      args: ['--base-url', '{mock}', '--token', 't', '--min-accepted', 'some'],
      code: 2,
      output: ['--min-accepted "some" is not a whole number'],
    },
    {
      args: ['--base-url', 'http://127.0.0.1:1', '--token', 't'],
      code: 3,
      output: ['Fuzz run failed: cannot reach http://127.0.0.1:1'],
    },
  ])('fuzz $args → exit $code', async ({ args, code, output }) => {
    const fill = (text: string) => text.replaceAll('{wrong}', wrong.url).replaceAll('{mock}', inject('mockUrl'));
    const result = await run(args.map(fill));
    for (const text of output) expect(result.output).toContain(fill(text));
    expect(result.code, result.output).toBe(code);
  });

  it('says an unreachable server’s error code once (issue 27: "ECONNREFUSED: connect ECONNREFUSED")', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const result = await run(['--base-url', `http://127.0.0.1:${port}`, '--token', 't']);
    expect(result.code).toBe(3);
    expect(result.output).toContain(`cannot reach http://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`);
  });

  it('--json prints the report', async () => {
    const result = await run(['--base-url', wrong.url, '--token', 't', '--seed', '3', '--cases', '30', '--json']);
    const report = JSON.parse(result.output) as FuzzReport;
    expect(report.seed).toBe(3);
    expect(report.failures.length).toBeGreaterThan(0);
    expect(result.code).toBe(1);
  });
});

describe('the fuzz command reports how each operation’s success path was exercised (issue 27)', () => {
  const fuzzProcess = (args: string[]) =>
    runProcess(process.execPath, [...CLI, 'fuzz', '--base-url', inject('mockUrl'), '--token', 't', ...args], {
      cwd: ROOT,
      timeoutMs: 60_000,
    });

  it('prints per operation the valid requests sent, accepted and refused; at the floor it exits 0', async () => {
    const result = await fuzzProcess(['--seed', '7', '--cases', '40', '--version', 'unstable']);
    expect(result.code, result.stderr).toBe(0);
    const line = /ok getTicket \(unstable\): (\d+) valid sent, (\d+) accepted, (\d+) refused/.exec(result.stdout);
    expect(line, result.stdout).not.toBeNull();
    const [sent, accepted, refused] = (line ?? []).slice(1).map(Number) as [number, number, number];
    expect(accepted).toBeGreaterThanOrEqual(1);
    expect(accepted + refused).toBe(sent);
    expect(result.stdout).toContain('No failure in');
  });

  it('below --min-accepted an operation is "not exercised" and the run exits 3 (not 1: no contract break)', async () => {
    const result = await fuzzProcess([
      '--seed',
      '7',
      '--cases',
      '40',
      '--version',
      'unstable',
      '--min-accepted',
      '1000',
    ]);
    expect(result.code, result.stdout + result.stderr).toBe(EXIT.internal);
    expect(result.stdout).toMatch(/NOT EXERCISED getTicket \(unstable\): \d+ valid sent, \d+ accepted/);
    expect(result.stderr).toMatch(
      /Not exercised: valid requests accepted fewer than --min-accepted 1000 times: getTicket \(unstable\) \d+ of \d+\./,
    );
  });
});

describe('valid requests drawn from the contract’s examples reach the success paths of a server holding them', () => {
  let mock: MockProcess;
  beforeAll(async () => {
    mock = await spawnMock([]);
  });
  afterAll(() => mock.kill());

  it('`fuzz --allow-writes` against a fresh mock process: every operation accepted at least once, exit 0', async () => {
    // Before: moveFulfillmentOrder 0 accepted (a drawn new_location_id never named one of the mock's locations), exit 3.
    const result = await runProcess(
      process.execPath,
      [...CLI, 'fuzz', '--base-url', mock.url, '--token', 't', '--allow-writes', '--seed', '42', '--cases', '200'],
      { cwd: ROOT, timeoutMs: 60_000 },
    );
    expect(result.code, result.stdout + result.stderr).toBe(EXIT.ok);
    const counts = [
      ...result.stdout.matchAll(/^ {2}(ok|NOT EXERCISED) (\w+) \(([\w-]+)\): \d+ valid sent, (\d+) accepted/gm),
    ];
    expect(counts.map(([, , operation, version]) => `${version} ${operation}`).sort()).toEqual(EVERY_OPERATION);
    expect(counts.filter(([, mark, , , accepted]) => mark !== 'ok' || Number(accepted) < 1)).toEqual([]);
    expect(result.stderr).not.toContain('Not exercised');
    expect(result.stdout).toContain('No failure in');
  });

  it('draws about half the requests (valid ones, bases of invalid ones) from the examples, path and body together; the rest from the schemas', async () => {
    const moves: { path: string; body: { new_location_id?: unknown } }[] = [];
    const recording: typeof fetch = (input, init) => {
      const url = new URL(String(input));
      if (init?.method === 'POST' && url.pathname.endsWith('/move/') && init.headers) {
        const headers = init.headers as Record<string, string>;
        if (headers.Authorization && headers['X-Service-API-Version'] === '2024-04-01') {
          moves.push({ path: url.pathname, body: JSON.parse(String(init.body ?? '{}')) });
        }
      }
      return fetch(input, init);
    };
    const report = await runFuzz({
      baseUrl: mock.url,
      token: 'examples',
      seed: 7,
      cases: 160,
      allowWrites: true,
      versions: ['2024-04-01'],
      fetch: recording,
    });
    expect(failuresOf(report)).toEqual([]);
    // The move example: fulfillment order 1042 (the id parameter's example) to location 14 (the body example's).
    const fromExamples = moves.filter(
      (m) => m.path === '/fulfillment-orders/1042/move/' && m.body.new_location_id === 14,
    );
    const drawn = moves.filter((m) => typeof m.body.new_location_id === 'number' && m.body.new_location_id !== 14);
    expect(fromExamples.length, JSON.stringify(moves)).toBeGreaterThan(moves.length / 5);
    expect(drawn.length, JSON.stringify(moves)).toBeGreaterThan(moves.length / 5);
    const move = report.operations.find((c) => c.operation === 'moveFulfillmentOrder');
    expect(move?.accepted).toBeGreaterThanOrEqual(1);
  });
});
