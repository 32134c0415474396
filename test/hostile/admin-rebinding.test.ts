/**
 * DNS rebinding against the admin endpoints (issue #31 item 7): a foreign page whose DNS name now
 * resolves to 127.0.0.1 is same-origin with the mock, so CORS does not stop it; the `Host` it sends
 * is its own name. Real requests on a real socket with a forged `Host` (and `Origin`): the admin
 * endpoints refuse them (403 `admin-forbidden`, nothing read or reset), the API still answers them.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAccessRefusal } from '../../src/mock/admin/guard.ts';
import { exposesAdmin, type MockServer, startMock } from '../../src/mock/index.ts';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
});
afterAll(() => mock.close());

/** One request with exactly these headers (a forged Host included). */
function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: mock.host, port: mock.port, method, path, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const AUTH = { Authorization: 'Bearer rebinding-victim' };
const JSON_TYPE = { 'Content-Type': 'application/json' };

describe('a rebound Host at the admin endpoints', () => {
  it('is refused (403) on every admin endpoint: no log, no state, no reset, no token echoed', async () => {
    // The victim's state exists (a request of theirs).
    expect((await send('GET', '/store/', { ...AUTH, Host: `127.0.0.1:${mock.port}` })).status).toBe(200);
    const evil = { Host: `attacker.example:${mock.port}` };
    for (const [method, path, body] of [
      ['GET', '/__mock/', undefined],
      ['GET', '/__mock/requests', undefined],
      ['GET', '/__mock/states', undefined],
      ['GET', '/__mock/state', undefined],
      ['POST', '/__mock/reset', '{"scope":"all"}'],
      ['GET', '/./__mock/requests', undefined],
    ] as const) {
      const answer = await send(method, path, { ...evil, ...AUTH, ...JSON_TYPE }, body);
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(JSON.parse(answer.body)).toMatchObject({
        type: 'urn:store-admin-mock:admin-forbidden',
        validation: [{ field: 'header.Host', rule: 'loopback' }],
      });
      expect(answer.body).not.toContain('rebinding-victim');
    }
    // The same request with the loopback Host the mock was reached by is served.
    const log = await send('GET', '/__mock/requests', { Host: `localhost:${mock.port}` });
    expect(log.status).toBe(200);
    expect(log.body).toContain('/store/');
  });

  it('is answered on the API (a Host is not the API contract)', async () => {
    expect((await send('GET', '/store/', { ...AUTH, Host: 'attacker.example' })).status).toBe(200);
  });

  it('loopback Hosts and same-origin or loopback Origins pass; a foreign or null Origin is refused', async () => {
    for (const host of [`127.0.0.1:${mock.port}`, `localhost:${mock.port}`, 'LOCALHOST', `[::1]:${mock.port}`]) {
      expect((await send('GET', '/__mock/requests', { Host: host })).status, host).toBe(200);
    }
    const host = `127.0.0.1:${mock.port}`;
    for (const origin of [`http://${host}`, 'http://localhost:5173']) {
      expect((await send('GET', '/__mock/requests', { Host: host, Origin: origin })).status, origin).toBe(200);
    }
    for (const origin of ['https://attacker.example', 'null', `http://attacker.example:${mock.port}`]) {
      const answer = await send(
        'POST',
        '/__mock/reset',
        { Host: host, Origin: origin, ...JSON_TYPE },
        '{"scope":"all"}',
      );
      expect(answer.status, origin).toBe(403);
      expect(JSON.parse(answer.body)).toMatchObject({ validation: [{ field: 'header.Origin', rule: 'same-origin' }] });
    }
  });
});

describe('--admin-token', () => {
  it('needs the token in the header or the cookie the page URL sets; never logged, the API unaffected', async () => {
    const lines: string[] = [];
    const guarded = await startMock({ port: 0, adminToken: 'adm-s3cret', log: (line) => void lines.push(line) });
    const at = (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; cookie?: string[]; body: string }>((resolve, reject) => {
        const outgoing = httpRequest({ host: guarded.host, port: guarded.port, path, headers }, (response) => {
          let body = '';
          response.on('data', (chunk) => {
            body += chunk;
          });
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, cookie: response.headers['set-cookie'], body }),
          );
        });
        outgoing.on('error', reject);
        outgoing.end();
      });
    try {
      const without = await at('/__mock/requests');
      expect(without.status).toBe(403);
      expect(JSON.parse(without.body)).toMatchObject({
        validation: [{ field: 'header.X-Mock-Admin-Token', rule: 'admin-token' }],
      });
      expect((await at('/__mock/requests', { 'X-Mock-Admin-Token': 'adm-s3cre' })).status).toBe(403);
      expect((await at('/__mock/requests', { 'X-Mock-Admin-Token': 'adm-s3cret' })).status).toBe(200);
      const page = await at('/__mock/?admin_token=adm-s3cret');
      expect(page.status).toBe(200);
      expect(page.cookie?.[0]).toMatch(/^mock_admin_token=adm-s3cret; Path=\/__mock; HttpOnly; SameSite=Strict$/);
      expect((await at('/__mock/requests', { Cookie: 'x=1; mock_admin_token=adm-s3cret' })).status).toBe(200);
      expect((await at('/__mock/requests?admin_token=wrong')).status).toBe(403);
      expect((await at('/store/', AUTH)).status).toBe(200);
      expect(lines.join('\n')).not.toContain('adm-s3cret');
    } finally {
      await guarded.close();
    }
  });
});

describe('--host says which other Host is allowed', () => {
  it('allows the bound name or address, any IP address for a wildcard bind, never a foreign DNS name', () => {
    expect(adminAccessRefusal('192.168.1.5:4010', undefined, '192.168.1.5')).toBeUndefined();
    expect(adminAccessRefusal('mock.lan:4010', 'http://mock.lan:4010', 'mock.lan')).toBeUndefined();
    expect(adminAccessRefusal('10.0.0.7:4010', undefined, '0.0.0.0')).toBeUndefined();
    expect(adminAccessRefusal('[fe80::1]:4010', undefined, '::')).toBeUndefined();
    expect(adminAccessRefusal('attacker.example:4010', undefined, '0.0.0.0')?.body.status).toBe(403);
    expect(adminAccessRefusal('192.168.1.6', undefined, '192.168.1.5')?.body.status).toBe(403);
    expect(adminAccessRefusal('[::1]:4010', undefined, '::1')).toBeUndefined();
  });

  it('warns at start exactly when --host is beyond loopback', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2']) expect(exposesAdmin(host), host).toBe(false);
    for (const host of ['0.0.0.0', '::', '192.168.1.5', 'mock.lan']) expect(exposesAdmin(host), host).toBe(true);
  });
});
