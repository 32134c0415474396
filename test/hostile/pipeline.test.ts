/**
 * Hostile headers and parameters in the mock's request pipeline (issue #21), over raw HTTP (the
 * node:http adapter sees raw headers) and through Fetch (the engine behind MSW, where `Headers`
 * joins repeated headers with ", "). On main before #21: the Host header was copied unchecked into
 * `next`/`previous`, a second Authorization or cursor was silently ignored, and a body declared
 * iso-8859-1 was decoded as UTF-8; every row below failed.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createMockEngine, type MockServer, startMock } from '../../src/mock/index.ts';
import { call, rawHttp } from '../mock/http.ts';

/** The JSON body of a raw HTTP answer. */
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
const get = (path: string, headers: string) =>
  rawHttp(`GET ${path} HTTP/1.1\r\n${headers}Authorization: Bearer t\r\nConnection: close\r\n\r\n`);

describe('the Host header is validated before it is reflected in page links', () => {
  it.each([
    ['evil.example@attacker.test:80', 'bound'],
    ['attacker.test/evil?x=', 'bound'],
    ['attacker.test:99999', 'bound'],
    ['a b', 'bound'],
    ['attacker.test\\@x', 'bound'],
    ['[::1', 'bound'],
    ['api.example.test:8080', 'http://api.example.test:8080'],
    ['127.0.0.1', 'http://127.0.0.1'],
    ['[::1]:4010', 'http://[::1]:4010'],
  ])('Host: %s → links under %s', async (host, origin) => {
    const answer = await get('/subscriptions/', `Host: ${host}\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    const expected = origin === 'bound' ? inject('mockUrl') : origin;
    expect(bodyOf(answer).next).toMatch(new RegExp(`^${expected.replace(/[.[\]]/g, '\\$&')}/subscriptions/\\?cursor=`));
  });

  describe('with a configured origin', () => {
    let mock: MockServer;
    beforeAll(async () => {
      mock = await startMock({ port: 0, origin: 'https://mock.example.com/ignored-path' });
    });
    afterAll(() => mock.close());

    it.each(['evil.example@attacker.test', 'api.example.test'])('Host: %s → the configured origin', async (host) => {
      const answer = await rawHttp(
        `GET /subscriptions/ HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer t\r\nConnection: close\r\n\r\n`,
        mock.url,
      );
      expect(bodyOf(answer).next).toMatch(/^https:\/\/mock\.example\.com\/subscriptions\/\?cursor=/);
    });
  });
});

describe('a header or parameter that takes one value, sent twice, is a 400 naming it', () => {
  const engine = createMockEngine();
  const viaFetch = (url: string, init: RequestInit) => engine.handle(new Request(`http://mock.test${url}`, init));

  it.each([
    [
      'raw HTTP, two Authorization headers',
      async () => {
        const answer = await rawHttp(
          'GET /store/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer first\r\nAuthorization: Bearer second\r\nConnection: close\r\n\r\n',
        );
        return { status: Number(answer.slice(9, 12)), body: bodyOf(answer) };
      },
      'header.Authorization',
    ],
    [
      'Fetch, two Authorization headers (joined by Headers)',
      async () => {
        const headers = new Headers();
        headers.append('Authorization', 'Bearer first');
        headers.append('Authorization', 'Bearer second');
        const response = await viaFetch('/store/', { headers });
        return { status: response.status, body: await response.json() };
      },
      'header.Authorization',
    ],
    [
      'two cursor values',
      async () => {
        const response = await call('GET', '/subscriptions/', { query: 'cursor=bjoxMA&cursor=bjoyMA' });
        return { status: response.status, body: response.json };
      },
      'query.cursor',
    ],
    [
      'two values of a one-value filter',
      async () => {
        const response = await call('GET', '/fulfillment-orders/', { query: 'order_number=1&order_number=2' });
        return { status: response.status, body: response.json };
      },
      'query.order_number',
    ],
  ])('%s', async (_, send, field) => {
    const { status, body } = await send();
    expect(status).toBe(400);
    expect(body.validation[0]).toMatchObject({ field, rule: 'duplicate' });
  });

  it('an array filter takes several values', async () => {
    expect((await call('GET', '/subscriptions/', { query: 'status=active&status=paused' })).status).toBe(200);
  });
});

describe('a JSON body in another charset than UTF-8 is a 415 naming it', () => {
  it.each([
    ['application/json; charset=iso-8859-1', 415],
    ['application/json;charset="windows-1252"', 415],
    ['application/json; charset=utf-16', 415],
    ['application/json; charset=utf-8', 200],
    ['application/json; charset="UTF-8"', 200],
    ['application/json', 200],
  ])('Content-Type: %s → %i', async (contentType, status) => {
    const response = await call('PUT', '/pages/1/', {
      headers: { 'Content-Type': contentType },
      body: { title: 'Caf\u00e9' },
    });
    expect(response.status).toBe(status);
    if (status === 415)
      expect(response.json.validation[0]).toMatchObject({ field: 'header.Content-Type', rule: 'charset' });
  });
});
