/**
 * `npm run conformance`: contract testing of a running server. Against the mock it finds nothing
 * with its defaults: the contract's example keys (subscription 1042, order "100234"...) are
 * records of the mock's store, and with --allow-writes the contract's example bodies are accepted
 * by it (issue #17); against a deliberately wrong server it reports each break (operation,
 * version, field, rule) and exits 1.
 */
import { type AddressInfo, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runConformance } from '../../src/conformance/index.ts';
import { type MockServer, startMock } from '../../src/mock/index.ts';
import { SPEC_OPERATIONS } from '../contract/inventory.ts';
import { CLI, runProcess } from '../helpers/process.ts';
import { DEFECTS, startWrongServer } from './wrong-server.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const runCli = (args: string[]) => runProcess(process.execPath, [...CLI, 'conformance', ...args], { cwd: ROOT });

/** Every (operation, version) pair of the spec inventory: what a run must check or skip, no more. */
const SPEC_CALLS = SPEC_OPERATIONS.flatMap((o) =>
  o.versions.map((version) => ({ operation: o.operationId, version, method: o.method })),
);
const keys = (calls: readonly { operation: string; version: string }[]) =>
  calls.map((c) => `${c.operation} ${c.version}`).sort();

let wrong: Awaited<ReturnType<typeof startWrongServer>>;
let staticMock: MockServer;
beforeAll(async () => {
  wrong = await startWrongServer();
  staticMock = await startMock({ port: 0, static: true });
});
afterAll(async () => {
  await wrong?.close();
  await staticMock?.close();
});

describe('against the mock', () => {
  it('finds no violation in the read-only operations, and skips the writes', async () => {
    const report = await runConformance({ baseUrl: inject('mockUrl'), token: 't' });
    expect(report.violations).toEqual([]);
    const responses = report.checks.filter((c) => c.kind === 'response');
    expect(responses.map((c) => c.method)).toEqual(responses.map(() => 'GET'));
    expect(keys(responses)).toEqual(keys(SPEC_CALLS.filter((c) => c.method === 'get')));
    expect(report.checks.filter((c) => c.kind === 'auth').map((c) => c.status)).toEqual(responses.map(() => 401));
    expect(keys(report.skipped)).toEqual(keys(SPEC_CALLS.filter((c) => c.method !== 'get')));
  });

  it('finds no violation in any operation of the static mock with --allow-writes', async () => {
    const report = await runConformance({ baseUrl: `${staticMock.url}/`, token: 't', allowWrites: true });
    expect(report.violations).toEqual([]);
    expect(keys(report.checks.filter((c) => c.kind === 'response'))).toEqual(keys(SPEC_CALLS));
    expect(report.skipped).toEqual([]);
  });

  it('finds no violation with --allow-writes in the data-backed mock, with the contract’s own examples', async () => {
    const report = await runConformance({
      baseUrl: `${inject('mockUrl')}/`,
      token: 'conformance-writes',
      allowWrites: true,
    });
    expect(keys(report.checks.filter((c) => c.kind === 'response'))).toEqual(keys(SPEC_CALLS));
    expect(report.skipped).toEqual([]);
    expect(report.violations).toEqual([]);
  });

  it('exits 0 from the command line with its defaults, and with --allow-writes twice in a row (issue 27)', async () => {
    const read = await runCli(['--base-url', inject('mockUrl'), '--token', 't']);
    expect(read.code).toBe(0);
    expect(read.stdout).toContain('All responses conform to the contract.');
    expect(read.stdout).not.toContain('state:');
    // The second run finds the records as the first did: each run resets its token's state first
    // (before, five writes answered 422 the second time: retry, move, request, accept, capture).
    for (const run of [1, 2]) {
      const writes = await runCli([
        '--base-url',
        inject('mockUrl'),
        '--token',
        'conformance-cli-writes',
        '--allow-writes',
      ]);
      expect(writes.stderr, `run ${run}`).toBe('');
      expect(writes.stdout, `run ${run}`).toContain('All responses conform to the contract.');
      expect(writes.stdout).toContain('state: the token’s state was reset (POST /__mock/reset)');
      expect(writes.code, `run ${run}`).toBe(0);
    }
  });
});

describe('against a deliberately wrong server', () => {
  it('reports each break with its operation, version, field and rule, and nothing else', async () => {
    const report = await runConformance({ baseUrl: wrong.url, token: 't', allowWrites: true });
    for (const defect of DEFECTS) expect(report.violations).toContainEqual(expect.objectContaining(defect));
    const broken = new Set(DEFECTS.map((d) => `${d.operation} ${d.version}`));
    expect(report.violations.filter((v) => !broken.has(`${v.operation} ${v.version}`))).toEqual([]);
    // Not the mock: its reset is refused, said in the report, and not a violation.
    expect(report.stateReset).toMatchObject({ reset: false, status: 404 });
    expect(report.stateReset?.message).toContain('POST /__mock/reset answered 404 (not the mock?)');
  });

  it('only reads without --allow-writes', async () => {
    wrong.requested.length = 0;
    await runConformance({ baseUrl: wrong.url, token: 't' });
    expect(wrong.requested.length).toBeGreaterThan(0);
    expect(wrong.requested.filter((r) => !r.startsWith('GET '))).toEqual([]);
  });

  it('fills path parameters from --param, per operation or for all', async () => {
    wrong.requested.length = 0;
    const result = await runCli([
      '--base-url',
      wrong.url,
      '--token',
      't',
      '--param',
      'getTicket.id=77',
      '--param',
      'id=5',
    ]);
    expect(wrong.requested).toContain('GET /tickets/77/');
    expect(wrong.requested).toContain('GET /stockrecords/5/');
    expect(result.code).toBe(1);
  });

  it('exits 1 from the command line, printing each violation', async () => {
    const result = await runCli(['--base-url', wrong.url, '--token', 't', '--version', '2024-04-01']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAIL GET\s+\/store\/\s+getStore/);
    expect(result.stdout).toContain('body[0].name: type');
    expect(result.stdout).toContain('header.Authorization: security');
    expect(result.stdout).not.toContain('getTicket');
  });

  it('prints a JSON report with --json', async () => {
    const result = await runCli(['--base-url', wrong.url, '--token', 't', '--json', '--version', 'unstable']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).violations).toEqual([
      expect.objectContaining({ operation: 'getTicket', field: 'status', rule: 'status' }),
    ]);
  });
});

describe('usage', () => {
  it('exits 2 and explains when the base URL or token is missing', async () => {
    const result = await runCli(['--token', 't']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Missing --base-url.');
    expect(result.stderr).toContain('--help');
  });

  // Issue #27: an unreachable server exited 1, "the contract is broken"; the exit-code table says 3.
  it('exits 3 when the server is unreachable, naming it, as fuzz does', async () => {
    // A port just released by a server nobody connected to (no keep-alive socket to reuse).
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const baseUrl = `http://127.0.0.1:${port}`;
    const result = await runCli(['--base-url', baseUrl, '--token', 't']);
    expect(result.stderr).toContain(`Conformance run failed: cannot reach ${baseUrl}: ECONNREFUSED`);
    expect(result.code).toBe(3);
    await expect(runConformance({ baseUrl, token: 't', versions: ['unstable'] })).rejects.toThrow(/ECONNREFUSED/);
  });

  it('exits 3 when calls get no answer and nothing breaks the contract (a dropped connection)', async () => {
    const dropping = await startMock({ port: 0, scenarios: [{ operation: 'getTicket', fail: 'drop' }] });
    try {
      const result = await runCli(['--base-url', dropping.url, '--token', 't']);
      expect(result.stdout).toMatch(/FAIL GET +\/tickets\/\{?\w+\}?\/? +getTicket/);
      expect(result.stderr).toMatch(/Conformance run failed: \d+ call\(s\) got no answer from .*, the first getTicket/);
      expect(result.code).toBe(3);
    } finally {
      await dropping.close();
    }
  });
});
