/** The mock's pure parts: the version router, the Prefer parser, the error fields (the static mode's too). */
import { describe, expect, it } from 'vitest';
import { VERSIONS } from '../../src/contract/index.ts';
import { parsePrefer } from '../../src/http/index.ts';
import { createRouter, templateToRegExp } from '../../src/mock/index.ts';
// From its module, not src/static/index.ts, which loads Prism (about 1 s of CPU) for nothing here.
import { normalizeViolation } from '../../src/static/refusal.ts';
import { formatField } from '../../src/validation/index.ts';

describe('router', () => {
  const routes = [
    { method: 'get', path: '/subscriptions/', version: '2023-02-10', target: 'subs-old' },
    { method: 'get', path: '/subscriptions/', version: '2024-04-01', target: 'subs-new' },
    { method: 'post', path: '/subscriptions/{id}/renew/', version: '2024-04-01', target: 'renew' },
    { method: 'patch', path: '/tickets/{id}/', version: '2024-04-01', target: 'ticket-update' },
    { method: 'get', path: '/tickets/{id}/', version: 'unstable', target: 'ticket-get' },
    { method: 'get', path: '/store/', version: '2024-04-01', target: 'store' },
  ] as const;
  const router = createRouter([...routes]);
  /** The versions of `routes` (of one path, if given) in the contract's order, which the router keeps. */
  const inOrder = (path?: string) =>
    VERSIONS.filter((v) => routes.some((r) => r.version === v && (path === undefined || r.path === path)));

  it('compiles path templates to anchored patterns', () => {
    const pattern = templateToRegExp('/orders/{number}/fulfillments/');
    expect(pattern.test('/orders/100234/fulfillments/')).toBe(true);
    expect(pattern.test('/orders/100234/fulfillments')).toBe(false);
    expect(pattern.test('/orders/1/2/fulfillments/')).toBe(false);
    expect(templateToRegExp('/a.b/').test('/axb/')).toBe(false);
  });

  it('picks the version named by the header', () => {
    expect(router.resolve('GET', '/subscriptions/', '2023-02-10')).toMatchObject({
      kind: 'matched',
      version: '2023-02-10',
      target: 'subs-old',
    });
    expect(router.resolve('GET', '/subscriptions/', ' 2024-04-01 ')).toMatchObject({ target: 'subs-new' });
  });

  it("defaults to the endpoint's newest version when the header is absent or empty", () => {
    expect(router.resolve('GET', '/subscriptions/', undefined)).toMatchObject({
      version: '2024-04-01',
      target: 'subs-new',
    });
    expect(router.resolve('GET', '/tickets/7/', '')).toMatchObject({ version: 'unstable', target: 'ticket-get' });
    expect(router.resolve('PATCH', '/tickets/7/', undefined)).toMatchObject({ version: '2024-04-01' });
  });

  it('refuses a version the endpoint does not list, with the allowed values', () => {
    expect(router.resolve('GET', '/tickets/7/', '2024-04-01')).toEqual({
      kind: 'unsupported-version',
      received: '2024-04-01',
      allowed: ['unstable'],
      method: 'get',
      path: '/tickets/{id}/',
    });
    expect(router.resolve('GET', '/subscriptions/', 'unstable')).toMatchObject({
      allowed: inOrder('/subscriptions/'),
    });
  });

  it('tells unknown paths from unknown methods', () => {
    expect(router.resolve('DELETE', '/store/', undefined)).toEqual({
      kind: 'method-not-allowed',
      allow: ['GET'],
      path: '/store/',
    });
    expect(router.resolve('GET', '/nothing/', undefined)).toEqual({ kind: 'not-found' });
    expect(router.resolve('GET', '/store', undefined)).toEqual({ kind: 'not-found', suggestion: '/store/' });
  });

  it('lists the versions it serves in order', () => {
    expect(router.versions).toEqual(inOrder());
  });
});

describe('Prefer header', () => {
  it('reads code, example, dynamic and seed', () => {
    expect(parsePrefer('code=401')).toEqual({ ok: true, preferences: { code: 401 } });
    expect(parsePrefer('example=past_due, dynamic=false')).toEqual({
      ok: true,
      preferences: { example: 'past_due', dynamic: false },
    });
    expect(parsePrefer('dynamic=true; seed="abc"')).toEqual({ ok: true, preferences: { dynamic: true, seed: 'abc' } });
    expect(parsePrefer('return=minimal')).toEqual({ ok: true, preferences: {} });
    expect(parsePrefer(undefined)).toEqual({ ok: true, preferences: {} });
  });

  it('refuses values it cannot use', () => {
    expect(parsePrefer('code=abc')).toMatchObject({ ok: false });
    expect(parsePrefer('code=99')).toMatchObject({ ok: false });
    expect(parsePrefer('dynamic=yes')).toMatchObject({ ok: false });
    expect(parsePrefer('example=')).toMatchObject({ ok: false });
  });
});

describe('error fields', () => {
  const headers = new Map([['x-service-api-version', 'X-Service-API-Version']]);

  it('writes locations as dotted fields with [i] indexes', () => {
    expect(formatField(['body', 'lines', '0', 'quantity'])).toBe('body.lines[0].quantity');
    expect(formatField(['query', 'status', '1'])).toBe('query.status[1]');
    expect(formatField(['body'])).toBe('body');
  });

  it('names the missing property of a required violation', () => {
    expect(
      normalizeViolation(
        { location: ['body'], code: 'required', message: "Request body must have required property 'initial'" },
        headers,
      ),
    ).toEqual({
      field: 'body.initial',
      rule: 'required',
      message: "Request body must have required property 'initial'",
      location: ['body', 'initial'],
    });
  });

  it('gives header names their documented casing and places a missing body', () => {
    expect(
      normalizeViolation({ location: ['header', 'x-service-api-version'], code: 'enum', message: 'bad' }, headers)
        .field,
    ).toBe('header.X-Service-API-Version');
    expect(normalizeViolation({ code: 'required', message: 'Body parameter is required' }, headers)).toMatchObject({
      field: 'body',
      rule: 'required',
    });
  });
});
