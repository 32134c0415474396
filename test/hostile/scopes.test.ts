/**
 * Scopes fail closed (issue #21): a token holding only `store:read`, written in every claim shape a
 * real issuer uses or an attacker might try, must get 403 on `GET /tickets/1/` (needs
 * `tickets:read`), over HTTP against the suite's mock. Shapes the mock reads are checked; a shape it
 * cannot read holds no scope (403 naming `scope-claim`), never every scope. On main before #21 each
 * row of the first table answered 200.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../mock/http.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64url');
/** A JWT (alg none) whose payload is the JSON text given. */
const jwt = (payload: string, parts = 3) =>
  [b64('{"alg":"none"}'), b64(payload), ...Array(parts - 2).fill('')].join('.');

const ticket = (token: string) => call('GET', '/tickets/1/', { token, version: 'unstable' });

describe('a token holding store:read only gets 403 on GET /tickets/1/ (needs tickets:read)', () => {
  it.each([
    ['scope as an array', jwt('{"scope":["store:read"]}'), 'scope'],
    ['scope as a number', jwt('{"scope":42}'), 'scope-claim'],
    ['scope as an object', jwt('{"scope":{"tickets:read":true}}'), 'scope-claim'],
    ['scope as null', jwt('{"scope":null}'), 'scope-claim'],
    ['scope as an array with a non-string', jwt('{"scope":["store:read",1]}'), 'scope-claim'],
    ['scp as a space-separated string (Azure AD)', jwt('{"scp":"store:read"}'), 'scope'],
    ['scp as an array', jwt('{"scp":["store:read"]}'), 'scope'],
    ['a payload that does not decode', `${b64('{"alg":"none"}')}.%%%.`, 'scope-claim'],
    ['a payload that is not JSON', jwt('scope=tickets:read'), 'scope-claim'],
    ['a JWT of 4 parts', jwt('{"scope":"store:read"}', 4), 'scope-claim'],
    ['a JWT of 2 parts', `${b64('{"alg":"none"}')}.${b64('{"scope":"store:read"}')}`, 'scope-claim'],
    ['a null payload', jwt('null'), 'scope-claim'],
    ['an array payload', jwt('["tickets:read"]'), 'scope-claim'],
    ['the prefix written SCOPES:', 'SCOPES:store:read', 'scope'],
    ['the prefix written Scopes:', 'Scopes:store:read', 'scope'],
  ])('%s', async (_, token, rule) => {
    const response = await ticket(token);
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toContain('insufficient_scope');
    expect(response.json.validation[0]).toMatchObject({ field: 'header.Authorization', rule });
  });
});

describe('every readable shape holding tickets:read is served', () => {
  it.each([
    ['scope as a space-separated string', jwt('{"scope":"store:read tickets:read"}')],
    ['scope as an array', jwt('{"scope":["store:read","tickets:read"]}')],
    ['scp as a space-separated string', jwt('{"scp":"tickets:read"}')],
    ['scp as an array', jwt('{"scp":["tickets:read"]}')],
    ['scope and scp together', jwt('{"scope":"store:read","scp":["tickets:read"]}')],
    ['SCOPES: prefix', 'SCOPES:tickets:read'],
    ['a JWT without any scope claim (says nothing of scopes)', jwt('{"sub":"dev"}')],
    ['a plain token', 'dev-token'],
  ])('%s → 200', async (_, token) => {
    expect((await ticket(token)).status).toBe(200);
  });
});
