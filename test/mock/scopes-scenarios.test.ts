// Unit tests of the mock's optional scope check (RFC 6750 insufficient_scope) and of its failure
// scenarios (Prefer fail=/delay=/retry-after=, and per-mock rules), table-driven.
import { describe, expect, it } from 'vitest';
import { failureResponse, scenarioOf } from '../../src/mock/scenarios.ts';
import { bearerToken, insufficientScope, requirementsOf, scopesOfToken } from '../../src/mock/scopes.ts';

const jwt = (payload: object) =>
  ['{"alg":"none"}', JSON.stringify(payload), ''].map((part) => Buffer.from(part).toString('base64url')).join('.');

describe('scopes', () => {
  it.each([
    ['dev', undefined],
    ['scopes:tickets:read,store:read', ['tickets:read', 'store:read']],
    ['scopes:tickets:read store:read', ['tickets:read', 'store:read']],
    ['scopes:', []],
    [jwt({ scope: 'orders:read orders:write' }), ['orders:read', 'orders:write']],
    [jwt({ scp: ['catalogue:read'] }), ['catalogue:read']],
    [jwt({ sub: 'no scope claim' }), undefined],
    ['a.b.c', undefined],
  ])('token %s carries %j', (token, scopes) => {
    const held = scopesOfToken(token);
    expect(held === undefined ? undefined : [...held]).toEqual(scopes);
  });

  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER\tabc ', 'abc'],
    ['Basic abc', undefined],
    ['Bearer', undefined],
  ])('%j has bearer token %j', (header, token) => expect(bearerToken(header)).toBe(token));

  const context = { operation: 'listFulfillmentOrders', version: '2024-04-01' };
  const requirements = requirementsOf([
    { oauth2: ['fulfillment_service:read'] },
    { oauth2: ['fulfillment_orders:read'] },
  ]);
  const request = (token: string) => new Request('http://mock/', { headers: { Authorization: `Bearer ${token}` } });

  it.each([
    ['plain', 'dev', undefined],
    ['first alternative', 'scopes:fulfillment_service:read', undefined],
    ['second alternative', 'scopes:fulfillment_orders:read', undefined],
    ['none of them', 'scopes:store:read', 403],
    ['no scope at all', 'scopes:', 403],
  ])('a token with %s → %s', (_, token, status) => {
    expect(insufficientScope(request(token), requirements, context)?.status).toBe(status);
  });

  it('answers 403 with WWW-Authenticate insufficient_scope and a problem naming the scope', async () => {
    const response = insufficientScope(request('scopes:store:read'), requirements, context);
    expect(response?.headers.get('www-authenticate')).toBe(
      'Bearer error="insufficient_scope", scope="fulfillment_service:read"',
    );
    expect(response?.headers.get('content-type')).toBe('application/problem+json');
    const body = await response?.json();
    expect(body).toMatchObject({
      status: 403,
      title: 'Insufficient scope',
      operation: 'listFulfillmentOrders',
      required_scopes: ['fulfillment_service:read', 'fulfillment_orders:read'],
      validation: [{ field: 'header.Authorization', rule: 'scope' }],
    });
    expect(body.detail).toContain('fulfillment_service:read (or fulfillment_orders:read)');
  });
});

describe('failure scenarios', () => {
  const ask = (prefer?: string) => new Request('http://mock/store/', { headers: prefer ? { Prefer: prefer } : {} });
  const ids = ['getStore', 'GET /store/'];

  it.each([
    ['fail=429', { fail: 429 }],
    ['fail=503, retry-after=7', { fail: 503, retryAfter: 7 }],
    ['fail=drop', { fail: 'drop' }],
    ['delay=250', { delay: 250 }],
    ['code=200, delay=5', { delay: 5 }],
  ])('Prefer: %s → %j', (prefer, scenario) => {
    const result = scenarioOf(ask(prefer), ids, []);
    expect(result.ok && result.scenario).toEqual(scenario);
  });

  it('leaves the other Prefer tokens for the engine and removes its own', () => {
    const result = scenarioOf(ask('code=200, delay=5, example=open'), ids, []);
    expect(result.ok && result.request.headers.get('prefer')).toBe('code=200, example=open');
    const only = scenarioOf(ask('fail=500'), ids, []);
    expect(only.ok && only.request.headers.has('prefer')).toBe(false);
  });

  it.each([
    ['fail=418', 'use one of 429, 500, 503, drop'],
    ['delay=-1', 'delay=-1: use a whole number from 0 to 60000'],
    ['delay=60001', 'from 0 to 60000'],
    ['retry-after=soon', 'retry-after=soon'],
  ])('refuses Prefer: %s', (prefer, message) => {
    const result = scenarioOf(ask(prefer), ids, []);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain(message);
  });

  it('applies mock rules for all or one operation; the request wins', () => {
    const rules = [
      { delay: 100 },
      { operation: 'getStore', fail: 503 as const },
      { operation: 'other', fail: 500 as const },
    ];
    expect(scenarioOf(ask(), ids, rules)).toMatchObject({ ok: true, scenario: { delay: 100, fail: 503 } });
    expect(scenarioOf(ask('fail=429'), ids, rules)).toMatchObject({ ok: true, scenario: { fail: 429 } });
  });

  it.each([
    [429, '1'],
    [503, '1'],
    [500, null],
  ] as const)('fail=%s answers that status, Retry-After %s, a problem body', async (fail, retryAfter) => {
    const response = failureResponse(fail, 1, { operation: 'getStore' });
    expect(response.status).toBe(fail);
    expect(response.headers.get('retry-after')).toBe(retryAfter);
    expect(await response.json()).toMatchObject({ status: fail, operation: 'getStore', scenario: `fail=${fail}` });
  });

  it('fail=drop is a network error', () => expect(failureResponse('drop', 1, { operation: 'x' }).type).toBe('error'));
});
