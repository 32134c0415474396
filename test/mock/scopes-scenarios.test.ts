// Unit tests of the mock's optional scope check (RFC 6750 insufficient_scope) and of its failure
// scenarios (Prefer fail=/delay=/retry-after=, and per-mock rules), table-driven.
import { describe, expect, it } from 'vitest';
import { parsePrefer } from '../../src/http/index.ts';
import { failureProblem, scenarioOf } from '../../src/mock/scenarios.ts';
import { insufficientScope, requirementsOf, scopesOfToken } from '../../src/mock/scopes.ts';

const jwt = (payload: object) =>
  ['{"alg":"none"}', JSON.stringify(payload), ''].map((part) => Buffer.from(part).toString('base64url')).join('.');

describe('scopes', () => {
  it.each([
    ['dev', 'all'],
    ['scopes:tickets:read,store:read', ['tickets:read', 'store:read']],
    ['scopes:tickets:read store:read', ['tickets:read', 'store:read']],
    ['scopes:', []],
    [jwt({ scope: 'orders:read orders:write' }), ['orders:read', 'orders:write']],
    [jwt({ scp: ['catalogue:read'] }), ['catalogue:read']],
    [jwt({ sub: 'no scope claim' }), 'all'],
    ['a.b.c', 'unreadable'],
  ])('token %s carries %j', (token, scopes) => {
    const read = scopesOfToken(token);
    expect('all' in read ? 'all' : 'unreadable' in read ? 'unreadable' : [...read.scopes]).toEqual(scopes);
  });

  const context = { operation: 'listFulfillmentOrders', version: '2024-04-01' };
  const requirements = requirementsOf([
    { oauth2: ['fulfillment_service:read'] },
    { oauth2: ['fulfillment_orders:read'] },
  ]);

  it.each([
    ['plain', 'dev', undefined],
    ['first alternative', 'scopes:fulfillment_service:read', undefined],
    ['second alternative', 'scopes:fulfillment_orders:read', undefined],
    ['none of them', 'scopes:store:read', 403],
    ['no scope at all', 'scopes:', 403],
  ])('a token with %s → %s', (_, token, status) => {
    expect(insufficientScope(token, requirements, context)?.body.status).toBe(status);
  });

  it('answers 403 with WWW-Authenticate insufficient_scope and a problem naming the scope', () => {
    const refusal = insufficientScope('scopes:store:read', requirements, context);
    expect(refusal?.headers['WWW-Authenticate']).toBe(
      'Bearer error="insufficient_scope", scope="fulfillment_service:read"',
    );
    const body = refusal?.body;
    expect(body).toMatchObject({
      status: 403,
      title: 'Insufficient scope',
      operation: 'listFulfillmentOrders',
      required_scopes: ['fulfillment_service:read', 'fulfillment_orders:read'],
      validation: [{ field: 'header.Authorization', rule: 'scope' }],
    });
    expect(body?.detail).toContain('fulfillment_service:read (or fulfillment_orders:read)');
  });
});

describe('failure scenarios', () => {
  const ask = (prefer?: string) => {
    const parsed = parsePrefer(prefer);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.preferences;
  };
  const ids = ['getStore', 'GET /store/'];

  it.each([
    ['fail=429', { fail: 429 }],
    ['fail=503, retry-after=7', { fail: 503, retryAfter: 7 }],
    ['fail=drop', { fail: 'drop' }],
    ['delay=250', { delay: 250 }],
    ['code=200, delay=5', { delay: 5 }],
  ])('Prefer: %s → %j', (prefer, scenario) => {
    expect(scenarioOf(ask(prefer), ids, [])).toEqual(scenario);
  });

  it.each([
    ['fail=418', 'use one of 429, 500, 503, drop'],
    ['delay=-1', 'delay=-1: use a whole number from 0 to 60000'],
    ['delay=60001', 'from 0 to 60000'],
    ['retry-after=soon', 'retry-after=soon'],
  ])('refuses Prefer: %s', (prefer, message) => {
    const result = parsePrefer(prefer);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain(message);
  });

  it('applies mock rules for all or one operation; the request wins', () => {
    const rules = [
      { delay: 100 },
      { operation: 'getStore', fail: 503 as const },
      { operation: 'other', fail: 500 as const },
    ];
    expect(scenarioOf(ask(), ids, rules)).toMatchObject({ delay: 100, fail: 503 });
    expect(scenarioOf(ask('fail=429'), ids, rules)).toMatchObject({ fail: 429 });
  });

  it.each([
    [429, '1'],
    [503, '1'],
    [500, null],
  ] as const)('fail=%s answers that status, Retry-After %s, a problem body', (fail, retryAfter) => {
    const { body, headers } = failureProblem(fail, 1, { operation: 'getStore', version: '2024-04-01' });
    expect(body).toMatchObject({ status: fail, operation: 'getStore', scenario: `fail=${fail}` });
    expect(headers['Retry-After']).toBe(retryAfter ?? undefined);
  });
});
