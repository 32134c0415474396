/**
 * A query parameter the operation does not declare (a misspelled filter, `statuss=active`) is
 * ignored, as a real API would, but said (issue 27): named in the `X-Mock-Unknown-Query` header of
 * the answer, in the request log (the inspector) and in the server's log line; under the strict
 * option (`strictQuery`, `--strict-query`) refused with 400 naming `query.<name>`. Through the real
 * node server and through the MSW handlers under msw/node.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMock, UNKNOWN_QUERY_HEADER } from '../../src/mock/index.ts';
import { createHandlers } from '../../src/msw/index.ts';

const AUTH = { Authorization: 'Bearer unknown-query' };
const get = (base: string, target: string) => fetch(`${base}${target}`, { headers: AUTH });

describe('the node server', () => {
  let lenient: MockServer;
  let strict: MockServer;
  const lines: string[] = [];
  beforeAll(async () => {
    lenient = await startMock({ port: 0, log: (line) => lines.push(line) });
    strict = await startMock({ port: 0, strictQuery: true });
  });
  afterAll(async () => {
    await lenient?.close();
    await strict?.close();
  });

  it('answers a misspelled filter as if absent, naming it in X-Mock-Unknown-Query, each name once', async () => {
    expect(UNKNOWN_QUERY_HEADER).toBe('X-Mock-Unknown-Query');
    const misspelled = await get(lenient.url, '/subscriptions/?statuss=active&colour=red&statuss=paused');
    expect(misspelled.status).toBe(200);
    expect(misspelled.headers.get(UNKNOWN_QUERY_HEADER)).toBe('statuss, colour');
    const unfiltered = await get(lenient.url, '/subscriptions/');
    const results = async (response: Response) => ((await response.json()) as { results: unknown[] }).results;
    expect(await results(misspelled)).toEqual(await results(unfiltered));
    expect(unfiltered.headers.get(UNKNOWN_QUERY_HEADER)).toBeNull();
    // Declared parameters are not named; an operation without any names whatever comes.
    expect((await get(lenient.url, '/subscriptions/?status=active')).headers.get(UNKNOWN_QUERY_HEADER)).toBeNull();
    expect((await get(lenient.url, '/store/?expand=all')).headers.get(UNKNOWN_QUERY_HEADER)).toBe('expand');
  });

  it('says it in the request log (the inspector) and in the log line', async () => {
    await get(lenient.url, '/fulfillment-orders/?stauts=open');
    const log = (await (await fetch(`${lenient.url}/__mock/requests?limit=1`)).json()) as {
      requests: { path: string; warnings?: string[] }[];
    };
    expect(log.requests[0]).toMatchObject({
      path: '/fulfillment-orders/?stauts=open',
      warnings: ['unknown query parameters, ignored: stauts'],
    });
    expect(lines.find((l) => l.startsWith('GET /fulfillment-orders/?stauts=open'))).toContain(
      '(unknown query parameters ignored: stauts)',
    );
    await get(lenient.url, '/fulfillment-orders/?status=open');
    const clean = (await (await fetch(`${lenient.url}/__mock/requests?limit=1`)).json()) as {
      requests: { warnings?: string[] }[];
    };
    expect(clean.requests[0]?.warnings).toBeUndefined();
  });

  it('strictQuery refuses it: 400 naming query.<name> and the rule, the operation and what it takes', async () => {
    const refused = await get(strict.url, '/subscriptions/?statuss=active');
    expect(refused.status).toBe(400);
    const problem = (await refused.json()) as {
      detail: string;
      validation: { field: string; rule: string; message: string }[];
    };
    expect(problem.detail).toContain('query.statuss');
    expect(problem.validation).toEqual([expect.objectContaining({ field: 'query.statuss', rule: 'unknown' })]);
    expect(problem.validation[0]?.message).toMatch(
      /listSubscriptions has no query parameter "statuss"; it takes search_text, .*status,/,
    );
    expect((await get(strict.url, '/subscriptions/?status=active')).status).toBe(200);
    expect((await get(strict.url, '/store/')).status).toBe(200);
  });
});

describe('the MSW handlers under msw/node', () => {
  const LENIENT = 'http://lenient.msw.test';
  const STRICT = 'http://strict.msw.test';
  const server = setupServer(
    ...createHandlers({ baseUrl: LENIENT }),
    ...createHandlers({ baseUrl: STRICT, strictQuery: true }),
  );
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('name a misspelled filter by default and refuse it with strictQuery', async () => {
    const named = await get(LENIENT, '/subscriptions/?statuss=active');
    expect(named.status).toBe(200);
    expect(named.headers.get(UNKNOWN_QUERY_HEADER)).toBe('statuss');
    const refused = await get(STRICT, '/subscriptions/?statuss=active');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ validation: [{ field: 'query.statuss', rule: 'unknown' }] });
    expect((await get(STRICT, '/subscriptions/?status=active')).status).toBe(200);
  });
});
