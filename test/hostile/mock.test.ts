/**
 * Hostile input (issue #13) against the data-backed mock over HTTP: the order of the checks (route,
 * auth, headers, body), bounded bodies (413 by Content-Length before reading), Node's own refusals
 * as problem details, numbers a JSON body may not carry, invalid UTF-8, giant path ids. No answer
 * carries a stack or a file path.
 */
import { describe, expect, inject, it } from 'vitest';
import { startMock } from '../../src/mock/index.ts';
import { call, rawHttp } from '../mock/http.ts';

const noLeak = (text: string) => {
  expect(text).not.toMatch(/\bat .*\(.*:\d+:\d+\)|\/work\/|node_modules|\.ts:\d+/);
};

describe('order of checks', () => {
  it('route, then auth, then headers, then the body', async () => {
    expect((await call('GET', '/nowhere/', { token: null })).status).toBe(404);
    expect((await call('GET', '/store/', { token: null, version: '1999-01-01' })).status).toBe(400);
    expect((await call('PUT', '/pages/1/', { token: null, raw: '{oops' })).status).toBe(401);
    expect((await call('PUT', '/pages/1/', { headers: { Prefer: 'code=x' }, raw: '{oops' })).status).toBe(400);
    expect(
      (await call('PUT', '/pages/1/', { headers: { Prefer: 'code=x' }, raw: '{oops' })).json.validation[0].field,
    ).toBe('header.Prefer');
  });

  it('reads the auth scheme case-insensitively', async () => {
    for (const authorization of ['bearer x', 'BEARER x', 'Bearer   x']) {
      expect((await call('GET', '/store/', { authorization })).status).toBe(200);
    }
    expect((await call('GET', '/store/', { authorization: 'Bearerx' })).status).toBe(401);
  });
});

describe('bounded bodies', () => {
  it('refuses a body over 1 MiB by its Content-Length, before reading it', async () => {
    const response = await call('PUT', '/pages/1/', {
      raw: JSON.stringify({ title: 'x', content: 'y'.repeat(1_100_000) }),
    });
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const declared = await rawHttp(
      'PUT /pages/1/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\n\r\n{"title"',
    );
    expect(declared).toMatch(/^HTTP\/1\.1 413/);
    expect(declared).toContain('"status":413');
  });

  it('refuses a chunked body that grows over 1 MiB', async () => {
    const big = Buffer.from(JSON.stringify({ title: 'x', content: 'y'.repeat(1_100_000) }));
    const head =
      'PUT /pages/1/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
    const answer = await rawHttp(
      Buffer.concat([Buffer.from(`${head}${big.length.toString(16)}\r\n`), big, Buffer.from('\r\n0\r\n\r\n')]),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
  });
});

describe('the cap on bytes buffered across connections', () => {
  it('answers 503 problem details beyond it, and serves again once the bytes are released', async () => {
    const mock = await startMock({ port: 0, maxBufferedBytes: 4096 });
    try {
      const big = await call('PUT', '/pages/1/', {
        baseUrl: mock.url,
        body: { title: 'x', content: 'y'.repeat(10_000) },
      });
      expect(big.status).toBe(503);
      expect(big.headers.get('content-type')).toBe('application/problem+json');
      const small = await call('PUT', '/pages/1/', { baseUrl: mock.url, body: { title: 'x' } });
      expect(small.status).toBe(200);
    } finally {
      await mock.close();
    }
  });
});

describe("Node's own refusals are problem details", () => {
  it('answers oversized headers with 431 JSON', async () => {
    const answer = await rawHttp(`GET /store/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431/);
    expect(answer).toContain('application/problem+json');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).status).toBe(431);
  });

  it('answers a malformed request with 400 JSON', async () => {
    const answer = await rawHttp('BREW /store/ HTCPCP/1.0\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 400 });
    noLeak(answer);
  });
});

describe('numbers, bytes and ids', () => {
  it('refuses non-finite numbers and integers beyond the safe or int32 range, naming the field', async () => {
    const cases: [string, string][] = [
      ['{"lines":[{"product_id":1e999,"quantity":1}]}', 'body.lines[0].product_id'],
      ['{"lines":[{"product_id":9007199254740993,"quantity":1}]}', 'body.lines[0].product_id'],
      ['{"lines":[{"product_id":1,"quantity":2147483648}]}', 'body.lines[0].quantity'],
      ['{"lines":[{"product_id":1,"quantity":-1e999}]}', 'body.lines[0].quantity'],
    ];
    for (const [raw, field] of cases) {
      const response = await call('POST', '/orders/1003/add-line-items/', { raw });
      expect(response.status).toBe(422);
      expect(response.json.validation.map((v: { field: string }) => v.field)).toContain(field);
    }
  });

  it('refuses a JSON body that is not UTF-8 with 400', async () => {
    const body = Buffer.concat([Buffer.from('{"title":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    const response = await fetch(`${inject('mockUrl')}/pages/1/`, {
      method: 'PUT',
      headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' },
      body,
    });
    expect(response.status).toBe(400);
    expect((await response.json()).validation[0]).toMatchObject({ field: 'body', rule: 'utf-8' });
  });

  it('refuses a 15,000-digit path id naming it, without a stack', async () => {
    const response = await call('GET', `/tickets/${'9'.repeat(15_000)}/`);
    expect(response.status).toBe(422);
    expect(response.json.validation[0]).toMatchObject({ field: 'path.id' });
    noLeak(response.text);
    const overflow = await call('GET', '/stockrecords/2147483648/');
    expect([404, 422]).toContain(overflow.status);
  });
});
