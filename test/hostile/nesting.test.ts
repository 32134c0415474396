/**
 * Bounded nesting depth before any recursive walk (issue #21): a JSON body or fixture record nested
 * thousands of levels deep is refused with a 4xx (or a fixture error) naming the rule `maxDepth`,
 * the same in the node:http server, the MSW handlers (msw/node) and the fixtures. On main before
 * #21 a PATCH nested 3,000 deep answered 500 (unbounded recursion in `unsafeNumbers`), and a fixture
 * nested 20,000 deep threw "Maximum call stack size exceeded".
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockEngine, FixtureError, type MockFixtures } from '../../src/mock/index.ts';
import { createHandlers } from '../../src/msw/index.ts';
import { call } from '../mock/http.ts';

const MSW_BASE = 'http://nesting.test/api';
const msw = setupServer(...createHandlers({ baseUrl: MSW_BASE }));
beforeAll(() => msw.listen({ onUnhandledRequest: 'bypass' }));
afterAll(() => msw.close());

/** JSON text of `{"subject": <value nested depth levels deep>}`, built as text (no recursion). */
const nested = (depth: number, kind: 'object' | 'array') => {
  const [open, close] = kind === 'object' ? ['{"a":', '}'] : ['[', ']'];
  return `{"subject":${open.repeat(depth)}1${close.repeat(depth)}}`;
};

const CASES = [
  [65, 'object'],
  [1_000, 'array'],
  [3_000, 'object'],
  [3_000, 'array'],
  [20_000, 'object'],
] as const;

describe.each([
  ['the node:http server', undefined],
  ['the MSW handlers', MSW_BASE],
])('%s refuses a body nested too deep with 422 naming maxDepth', (_, baseUrl) => {
  it.each(CASES)('%i levels of %s', async (depth, kind) => {
    const response = await call('PATCH', '/tickets/1/', { raw: nested(depth, kind), ...(baseUrl && { baseUrl }) });
    expect(response.status).toBe(422);
    expect(response.json.validation).toEqual([expect.objectContaining({ field: 'body', rule: 'maxDepth' })]);
    expect(response.text).not.toMatch(/\bat .*:\d+:\d+|\/work\/|node_modules/);
  });

  it('a shallow body is judged by its schema, not by its depth', async () => {
    const response = await call('PATCH', '/tickets/1/', { raw: nested(10, 'object'), ...(baseUrl && { baseUrl }) });
    expect(response.status).toBe(422);
    expect(response.json.validation[0]).toMatchObject({ field: 'body.subject', rule: 'type' });
  });
});

describe('fixtures', () => {
  it.each([
    [100, 'object'],
    [20_000, 'object'],
    [20_000, 'array'],
  ] as const)('a record nested %i levels (%s) is a FixtureError naming the record and maxDepth', (depth, kind) => {
    const record = JSON.parse(nested(depth, kind));
    const data = { tickets: [{ id: 1, ...record }] } as unknown as MockFixtures;
    let error: unknown;
    try {
      createMockEngine({ data, dataSource: 'deep.json' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FixtureError);
    expect((error as Error).message).toMatch(/^deep\.json: tickets\[0\] \(id 1\): .*maxDepth/);
  });
});
