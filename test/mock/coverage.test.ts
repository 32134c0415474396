/**
 * Coverage (issue 30 item 2): the universe is derived from the contract and the model (an
 * operation, a filter's enum value, a state row added adds to it), the recorder counts exactly what
 * a scripted suite did, per process and per token state, through the engine and `GET
 * /__mock/coverage`; the `coverage` command's `--min` gate fails (a real CLI process against a
 * server in this file) and passes (runCli in process).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/index.ts';
import { deref, OPERATIONS, VERSION_HEADER, versionOf } from '../../src/contract/index.ts';
import { statusesOf, universeOf } from '../../src/mock/coverage/universe.ts';
import {
  type CoverageReport,
  formatCoverage,
  type MockServer,
  type RawRequest,
  startMock,
} from '../../src/mock/index.ts';
import { targetsOf } from '../../src/mock/targets.ts';
import { TRANSITIONS } from '../../src/mock/transitions.ts';
import { ROOT } from '../helpers/bundles.ts';
import { CLI, runProcess } from '../helpers/process.ts';
import { bundles, engineOf, send } from './engine.ts';

/**
 * Every item exercised at least once, as `operation dimension name × count` (the version is named
 * only when it is not the operation's default).
 */
const exercised = (report: CoverageReport) =>
  report.operations.flatMap((o) => {
    const version = o.version === versionOf(o.method, o.path) ? '' : ` ${o.version}`;
    return o.items
      .filter((i) => i.count > 0)
      .map((i) => `${o.operation}${version} ${i.dimension} ${i.name} × ${i.count}`);
  });
const observed = (report: CoverageReport, operation: string) =>
  report.operations.find((o) => o.operation === operation)?.observed.map((o) => `${o.name} × ${o.count}`);

describe('the universe, derived from the contract and the model', () => {
  const targets = targetsOf(bundles).map((t) => t.target);
  const universe = universeOf(targets);

  it('has one entry per operation and version the contract serves, and the rows, filters and pages of the model', () => {
    const served = Object.values(OPERATIONS).reduce((sum, versions) => sum + versions.length, 0);
    expect(universe.targets).toHaveLength(served);
    for (const row of TRANSITIONS) {
      const entries = universe.targets.filter((t) => t.operation === row.operationId);
      expect(entries.length).toBeGreaterThan(0);
      for (const entry of entries)
        expect(entry.items.filter((i) => i.dimension === 'state').map((i) => i.name)).toEqual(['accepted', 'refused']);
    }
    const fo = universe.targets.find((t) => t.operation === 'listFulfillmentOrders');
    const names = fo?.items.filter((i) => i.dimension === 'filter').map((i) => i.name) ?? [];
    // An array filter with an enum: one value, several values, each value (the contract's enum).
    expect(names).toEqual(
      expect.arrayContaining([
        'status: one value',
        'status: several values',
        'status=open',
        'status=canceled',
        'request_status=cancel_accepted',
      ]),
    );
    expect(names).not.toContain('cursor: one value');
    expect(fo?.items.filter((i) => i.dimension === 'cursor').map((i) => i.name)).toEqual(['first', 'middle', 'last']);
    // A scalar enum: its values only.
    const assigned = universe.targets.find((t) => t.operation === 'listAssignedFulfillmentOrders');
    expect(assigned?.items.map((i) => i.name)).toContain('assignment_status=fulfillment_requested');
    expect(assigned?.items.map((i) => i.name)).not.toContain('assignment_status: one value');
    // Slots are distinct and dense.
    const slots = universe.targets.flatMap((t) => t.items.map((i) => i.slot));
    expect(new Set(slots).size).toBe(slots.length);
    expect(Math.max(...slots)).toBe(universe.size - 1);
  });

  it('statuses: declared ones, then the refusals the stages can give there', () => {
    const of = (id: string) =>
      statusesOf(targets.find((t) => t.operation.operationId === id) as (typeof targets)[number]);
    // No key, no query, no body: nothing to refuse with 404 or 422.
    expect(of('getStore')).toEqual([200, 400, 401, 403, 413, 429, 500, 503]);
    expect(of('getTicket')).toEqual([200, 400, 401, 403, 404, 413, 422, 429, 500, 503]);
    // Its path parameter is a string with no constraint: a 404, never a 422.
    expect(of('getOrderFulfillments')).toEqual([200, 400, 401, 403, 404, 413, 429, 500, 503]);
    // A write without a body: 415 for one sent, 422 of its state row.
    expect(of('renewSubscription')).toEqual([200, 400, 401, 403, 404, 413, 415, 422, 429, 500, 503]);
    expect(of('createGiftCard')).toEqual([200, 201, 400, 401, 403, 413, 415, 422, 429, 500, 503]);
  });

  it('a state row or an operation added to the model adds to it', () => {
    const ticketWrite = targets.find((t) => t.operation.operationId === 'updateTicket') as (typeof targets)[number];
    expect(ticketWrite.decl.kind === 'write' && ticketWrite.decl.state).toBeFalsy();
    const row = { accepts: 'any ticket', refuses: () => undefined };
    const withRow = { ...ticketWrite, decl: { ...ticketWrite.decl, state: row } } as typeof ticketWrite;
    const grown = universeOf([...targets.filter((t) => t !== ticketWrite), withRow]);
    expect(grown.size).toBe(universe.size + 2);
    expect(universeOf([...targets, ticketWrite]).size).toBe(
      universe.size + (universe.byTarget.get(ticketWrite)?.items.length ?? 0),
    );
  });
});

type Target = ReturnType<typeof targetsOf>[number]['target'];

/** A raw request to `target`'s operation (its path parameters all `key`). */
function rawTo(target: Target, key: string, headers: Record<string, string>, body = '', query = ''): RawRequest {
  const lower: Record<string, string> = {
    authorization: 'Bearer reach',
    [VERSION_HEADER.toLowerCase()]: target.version,
  };
  for (const [name, value] of Object.entries(headers)) lower[name.toLowerCase()] = value;
  const path = target.operation.path.replace(/\{[^}]+\}/g, key);
  return {
    method: target.operation.method.toUpperCase(),
    target: `${path}${query}`,
    origin: 'http://reach.test',
    header: (name) => lower[name] || undefined,
    readBody: () => new TextEncoder().encode(body),
  };
}

/** The first example of the operation's JSON request body, as text ('{}' when it has none). */
function exampleBody(target: Target): string {
  const document = target.bundle.document;
  const media = deref(document, target.operation.operation.requestBody)?.content?.['application/json'];
  const first = media?.example ?? deref(document, Object.values(media?.examples ?? {})[0])?.value;
  return JSON.stringify(first ?? {});
}

/** Requests that should get each of the mock's own refusals at `target` (several tries for a 422). */
function recipes(target: Target): [number, RawRequest[]][] {
  const body = target.validator.hasBody;
  const json: Record<string, string> = body ? { 'content-type': 'application/json' } : {};
  const queries = target.validator.queryParams.filter((p) => p.name !== 'cursor').map((p) => `?${p.name}=%21x`);
  return [
    [400, [rawTo(target, '1', { prefer: 'fail=nonsense' })]],
    [401, [rawTo(target, '1', { authorization: '' })]],
    [403, [rawTo(target, '1', { authorization: 'Bearer scopes:none' })]],
    [404, [rawTo(target, '99999999', json, body ? exampleBody(target) : '')]],
    [413, [rawTo(target, '1', { ...json, 'content-length': '999999999' }, body ? '{}' : '')]],
    [415, [rawTo(target, '1', { 'content-type': 'text/plain' }, 'x')]],
    [422, [rawTo(target, 'abc', json, body ? '[]' : ''), ...queries.map((q) => rawTo(target, '1', json, '', q))]],
    ...[429, 500, 503].map((code): [number, RawRequest[]] => [code, [rawTo(target, '1', { prefer: `fail=${code}` })]]),
  ];
}

describe('every refusal of the status universe can be reached at its operation, and no other', () => {
  const engine = engineOf();
  const targets = targetsOf(bundles).map((t) => t.target);

  it.each(targets.map((t) => [`${t.operation.operationId} ${t.version}`, t] as const))('%s', async (_name, target) => {
    const universe = statusesOf(target);
    const wrong: string[] = [];
    for (const [status, tries] of recipes(target)) {
      const got: number[] = [];
      for (const raw of tries) got.push((await engine.handleRaw(raw)).status);
      if (got.includes(status) !== universe.includes(status))
        wrong.push(
          `${status}: ${universe.includes(status) ? 'in the universe, not reached' : 'reached, not in the universe'} (got ${got.join(', ')})`,
        );
    }
    expect(wrong).toEqual([]);
  });
});

describe('the recorder counts exactly what a scripted suite did', () => {
  const engine = engineOf();
  const seed = engine.inspect();
  const renewable = seed.list('subscriptions').find((s) => s.status === 'active')?.id;
  const canceled = seed.list('subscriptions').find((s) => s.status === 'canceled')?.id;
  const token = 'coverage-suite';
  let pages = 0;

  beforeAll(async () => {
    // A walk of every subscription page (48 records, 10 a page): first, middle × 3, last.
    let next: string | null = '/subscriptions/';
    while (next) {
      const page = await send(engine, 'GET', next.replace('http://mock.test', ''), { token });
      next = page.json.next;
      pages++;
    }
    await send(engine, 'GET', '/fulfillment-orders/?status=open,closed', { token });
    await send(engine, 'GET', '/fulfillment-orders/?status=open', { token });
    await send(engine, 'GET', '/tickets/99999/', { token, version: versionOf('GET', '/tickets/{id}/') });
    await send(engine, 'GET', '/store/', { token, headers: { Prefer: 'fail=429' } });
    await send(engine, 'GET', '/store/', { token: 'scopes:tickets:read' });
    await send(engine, 'POST', `/subscriptions/${canceled}/renew/`, { token });
    await send(engine, 'POST', `/subscriptions/${renewable}/renew/`, { token });
    await send(engine, 'GET', '/no-such-path/', { token });
    await send(engine, 'GET', '/store/', { token, headers: { Prefer: 'delay=1' } });
    // A dropped connection: no status, its scenario counted.
    const dropped = await engine.handleRaw({
      method: 'GET',
      target: '/store/',
      origin: 'http://mock.test',
      header: (name) => ({ authorization: `Bearer ${token}`, prefer: 'fail=drop' })[name],
      readBody: () => new Uint8Array(),
    });
    expect(dropped.drop).toBe(true);
  });

  it('process-wide: each item hit, with its count, and nothing else', () => {
    const report = engine.coverage();
    expect(pages).toBeGreaterThan(2);
    expect(report.requests).toBe(pages + 10);
    expect(exercised(report).sort()).toEqual(
      [
        `listSubscriptions status 200 × ${pages}`,
        'listSubscriptions cursor first × 1',
        `listSubscriptions cursor middle × ${pages - 2}`,
        'listSubscriptions cursor last × 1',
        'listFulfillmentOrders status 200 × 2',
        'listFulfillmentOrders filter status: several values × 1',
        'listFulfillmentOrders filter status: one value × 1',
        'listFulfillmentOrders filter status=open × 2',
        'listFulfillmentOrders filter status=closed × 1',
        'listFulfillmentOrders cursor first × 2',
        'getTicket status 404 × 1',
        'getStore status 429 × 1',
        'getStore scenario fail=429 × 1',
        'getStore status 200 × 1',
        'getStore scenario delay × 1',
        'getStore scenario fail=drop × 1',
        'getStore status 403 × 1',
        'getStore scenario scope 403 × 1',
        'renewSubscription status 422 × 1',
        'renewSubscription state refused × 1',
        'renewSubscription status 200 × 1',
        'renewSubscription state accepted × 1',
      ].sort(),
    );
    expect(observed(report, 'renewSubscription')).toEqual(['refused from canceled × 1', 'active → active × 1']);
    expect(report.unrouted).toEqual([{ status: 404, count: 1 }]);
    expect(report.covered).toBe(22);
    expect(report.percent).toBeCloseTo((100 * 22) / report.total, 10);
    expect(report.dimensions.cursor.covered).toBe(4);
  });

  it("per token state: only that token's requests", () => {
    const mine = engine.coverage(token);
    expect(mine.scope).toBe('state');
    expect(mine.requests).toBe(pages + 9);
    expect(exercised(mine)).not.toContain('getStore status 403 × 1');
    const scoped = engine.coverage('scopes:tickets:read');
    expect(exercised(scoped)).toEqual(['getStore status 403 × 1', 'getStore scenario scope 403 × 1']);
    expect(engine.coverage('never-called').covered).toBe(0);
  });

  it('GET /__mock/coverage: the process, ?token= or the bearer for a state; DELETE forgets', async () => {
    const whole = await send(engine, 'GET', '/__mock/coverage', { token: null });
    expect(whole.status).toBe(200);
    expect(whole.json).toEqual(JSON.parse(JSON.stringify(engine.coverage())));
    const byQuery = await send(engine, 'GET', `/__mock/coverage?token=${token}`, { token: null });
    const byBearer = await send(engine, 'GET', '/__mock/coverage', { token });
    expect(byQuery.json.requests).toBe(pages + 9);
    expect(byBearer.json).toEqual(byQuery.json);
    const empty = await send(engine, 'GET', '/__mock/coverage?token=', { token: null });
    expect(empty.status).toBe(400);
    expect(empty.json.validation[0]).toMatchObject({ field: 'query.token', rule: 'required' });
    // The text form names what was never exercised, grouped by operation.
    const text = formatCoverage(engine.coverage());
    // The names wrap under their dimension, for a terminal.
    const long = text.split('\n').filter((line) => line.startsWith('    ') && line.length > 100);
    expect(long).toEqual([]);
    expect(text).toMatch(/\n {4}filter {4}search_text: one value, [^\n]+,\n {14}\S/);
    expect(text).toMatch(
      new RegExp(
        `^Coverage of the whole process: \\d+\\.\\d% \\(22 of \\d+ items exercised; ${pages + 10} requests\\)`,
      ),
    );
    expect(text).toContain(`  getStore ${versionOf('GET', '/store/')}  GET`);
    expect(text).toMatch(
      / {2}getStore \S+ {2}GET \/store\/ {2}\(7 of 14\)\n {4}status {4}400, 401, 413, 500, 503\n {4}scenario {2}fail=500, fail=503\n/,
    );
    // A state named by its id (the report's `state`, as GET /__mock/states and the inspector name it).
    const { states } = (await send(engine, 'GET', '/__mock/states', { token: null })).json;
    const id = byQuery.json.state;
    expect(states.map((s: { id: string }) => s.id)).toContain(id);
    const byId = await send(engine, 'GET', `/__mock/coverage?state=${id}`, { token: null });
    expect(byId.json).toEqual(byQuery.json);
    const cleared = await send(engine, 'DELETE', '/__mock/coverage', { token: null, body: {} });
    expect(cleared.status).toBe(204);
    expect(engine.coverage().requests).toBe(0);
    expect(engine.coverage(token).requests).toBe(0);
  });
});

describe('filters by the kind of their values', () => {
  it('a boolean by value, a scalar enum by value, an array by count and enum value, a string once; a refused one not at all', async () => {
    const engine = engineOf();
    for (const query of [
      '/subscriptions/?is_test=false',
      '/subscriptions/?is_test=true',
      '/assigned-fulfillment-orders/?assignment_status=fulfillment_requested',
      '/subscriptions/?card_type=visa&date_from=2024-01-01&search_text=a',
      '/subscriptions/?card_type=nope',
    ])
      await send(engine, 'GET', query, { token: 'filters' });
    const filters = exercised(engine.coverage()).filter((item) => item.includes(' filter '));
    expect(filters.sort()).toEqual(
      [
        'listSubscriptions filter is_test=false × 1',
        'listSubscriptions filter is_test=true × 1',
        'listAssignedFulfillmentOrders filter assignment_status=fulfillment_requested × 1',
        'listSubscriptions filter card_type: one value × 1',
        'listSubscriptions filter card_type=visa × 1',
        'listSubscriptions filter date_from: one value × 1',
        'listSubscriptions filter search_text: one value × 1',
      ].sort(),
    );
    expect(exercised(engine.coverage())).toContain('listSubscriptions status 422 × 1');
  });
});

describe('scenarios asked by a rule of the engine', () => {
  it('count as those asked by Prefer (a --fail rule for one operation)', async () => {
    const engine = engineOf({ scenarios: [{ operation: 'getStore', fail: 503 }] });
    await send(engine, 'GET', '/store/', { token: 'rules' });
    await send(engine, 'GET', '/tickets/7/', { token: 'rules', version: versionOf('GET', '/tickets/{id}/') });
    expect(exercised(engine.coverage())).toEqual([
      'getStore status 503 × 1',
      'getStore scenario fail=503 × 1',
      'getTicket status 200 × 1',
    ]);
  });
});

describe('the token states counted are bounded as the states are', () => {
  it('keeps the states of the last maxTokenStates tokens first seen, the process counting all', async () => {
    const engine = engineOf({ limits: { maxTokenStates: 2 } });
    for (const token of ['one', 'two', 'three']) await send(engine, 'GET', '/store/', { token });
    expect(['one', 'two', 'three'].map((t) => engine.coverage(t).requests)).toEqual([0, 1, 1]);
    expect(engine.coverage().requests).toBe(3);
  });
});

describe('store-admin-contract coverage', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMock({ port: 0, host: '127.0.0.1', log: () => {} });
    await fetch(`${server.url}/store/`, { headers: { Authorization: 'Bearer cli' } });
    await fetch(`${server.url}/store/`, { headers: { Authorization: 'Bearer cli', Prefer: 'fail=503' } });
  });
  afterAll(() => server.close());

  it('--min over what was exercised: exit 1, the table of what was never exercised (a real process)', async () => {
    const run = await runProcess(process.execPath, [...CLI, 'coverage', '--base-url', server.url, '--min', '50'], {
      cwd: ROOT,
      timeoutMs: 60_000,
    });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^Coverage of the whole process: \d\.\d% \(3 of \d+ items exercised; 2 requests\)/);
    expect(run.stdout).toContain(
      `Never exercised, by operation:\n  listSubscriptions ${versionOf('GET', '/subscriptions/')}  GET /subscriptions/  (0 of`,
    );
    expect(run.stderr).toMatch(/^Coverage \d\.\d\d% is under --min 50%\./);
  });

  it('--min under it: exit 0; --json is the report; a bad --min is a usage error (2)', async () => {
    const printed: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((text: string) => void printed.push(text));
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const report = engineOf().coverage();
      expect(await runCli(['coverage', '--base-url', server.url, '--json', '--min', '0.5'])).toBe(0);
      const json = JSON.parse(printed[0] ?? '') as CoverageReport;
      expect(json.covered).toBe(3);
      expect(json.total).toBe(report.total);
      expect(json.percent).toBeGreaterThan(0.5);
      expect(await runCli(['coverage', '--base-url', server.url, '--min', '101'])).toBe(2);
      expect(await runCli(['coverage', '--base-url', server.url, '--token', 'nobody', '--min', '0.5'])).toBe(1);
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
  });
});
