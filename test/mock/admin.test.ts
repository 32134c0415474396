/**
 * The admin endpoints under /__mock/ (issue 18): what a web page cannot make them do (the
 * Content-Type rule, CORS for loopback origins only, reset-all needs {"scope":"all"}), named
 * snapshots, the request log, and the export: `GET /__mock/state` loaded back as `--data` answers
 * every read of every collection identically.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BODY_LIMIT, OPERATION_DECLS, readFixtures } from '../../src/mock/index.ts';
import { keyField } from '../../src/mock/model/index.ts';
import { bundles, type EngineResult, engineOf, send } from './engine.ts';
import { readResult, STORE_BODIES } from './http.ts';

describe('admin endpoints: what a web page cannot do', () => {
  it('refuses POST and DELETE without Content-Type: application/json (415), changing nothing', async () => {
    const engine = engineOf();
    await send(engine, 'PATCH', '/tickets/1/', { token: 'csrf', body: { subject: 'keep me' } });
    await send(engine, 'POST', '/__mock/snapshots', { token: 'csrf', body: { name: 'kept' } });
    for (const [method, path, contentType] of [
      ['POST', '/__mock/reset', undefined],
      ['POST', '/__mock/reset', 'text/plain'],
      ['POST', '/__mock/reset', 'application/x-www-form-urlencoded'],
      ['POST', '/__mock/reset', 'multipart/form-data; boundary=x'],
      ['POST', '/__mock/snapshots/kept/restore', 'text/plain'],
      ['DELETE', '/__mock/snapshots/kept', undefined],
    ] as const) {
      // What a page can send with no preflight (bytes: no Content-Type at all).
      const headers: Record<string, string> = contentType ? { 'Content-Type': contentType } : {};
      const body = new TextEncoder().encode('{"scope":"all","state":"any"}');
      const answer = (await readResult(
        await engine.handle(new Request(`http://mock.test${path}`, { method, headers, body })),
      )) as EngineResult;
      expect(answer.status, `${method} ${path} ${contentType}`).toBe(415);
      expect(answer.json.validation[0].field).toBe('header.Content-Type');
    }
    expect((await send(engine, 'GET', '/tickets/1/', { token: 'csrf' })).json.subject).toBe('keep me');
    expect((await send(engine, 'GET', '/__mock/snapshots', { token: 'csrf' })).json.snapshots).toHaveLength(1);
  });

  it('grants CORS on /__mock/ to loopback origins only (the API stays open to any origin)', async () => {
    const engine = engineOf();
    const preflight = (path: string, origin: string) =>
      send(engine, 'OPTIONS', path, {
        token: null,
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type',
        },
      });
    const evil = await preflight('/__mock/reset', 'https://evil.example');
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const local = await preflight('/__mock/reset', 'http://localhost:5173');
    expect(local.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect((await preflight('/tickets/1/', 'https://evil.example')).headers.get('access-control-allow-origin')).toBe(
      'https://evil.example',
    );
    const read = await send(engine, 'GET', '/__mock/requests', {
      token: null,
      headers: { Origin: 'https://evil.example' },
    });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('resets every state only with {"scope":"all"}; without a token or a scope it is refused naming body.scope', async () => {
    const engine = engineOf();
    await send(engine, 'PATCH', '/tickets/1/', { token: 'a', body: { subject: 'a' } });
    const refused = await send(engine, 'POST', '/__mock/reset', { token: null, body: {} });
    expect(refused.status).toBe(400);
    expect(refused.json.validation[0].field).toBe('body.scope');
    expect((await send(engine, 'GET', '/tickets/1/', { token: 'a' })).json.subject).toBe('a');
    const bad = await send(engine, 'POST', '/__mock/reset', { token: null, body: { scope: 'everything' } });
    expect([bad.status, bad.json.validation[0].field]).toEqual([422, 'body.scope']);
    expect((await send(engine, 'POST', '/__mock/reset', { token: null, body: { scope: 'all' } })).json).toEqual({
      reset: 'all',
    });
    expect((await send(engine, 'GET', '/tickets/1/', { token: 'a' })).json.subject).not.toBe('a');
  });

  it('answers 404 for an unknown admin path and 405 naming the allowed methods', async () => {
    const engine = engineOf();
    expect((await send(engine, 'GET', '/__mock/nowhere', { token: null })).status).toBe(404);
    const wrong = await send(engine, 'GET', '/__mock/reset', { token: null });
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'POST']);
  });
});

describe('named snapshots', () => {
  it('creates (201), replaces (200), lists, restores and deletes a token’s snapshot', async () => {
    const engine = engineOf();
    const t = { token: 'snap' };
    await send(engine, 'PATCH', '/tickets/2/', { ...t, body: { subject: 'one' } });
    const created = await send(engine, 'POST', '/__mock/snapshots', { ...t, body: { name: 'cart-full' } });
    expect([created.status, created.json.name, created.json.collections]).toEqual([201, 'cart-full', ['tickets']]);
    expect((await send(engine, 'POST', '/__mock/snapshots', { ...t, body: { name: 'cart-full' } })).status).toBe(200);
    await send(engine, 'PATCH', '/tickets/2/', { ...t, body: { subject: 'two' } });
    const listed = await send(engine, 'GET', '/__mock/snapshots', t);
    expect(listed.json.snapshots.map((s: { name: string }) => s.name)).toEqual(['cart-full']);
    expect((await send(engine, 'GET', '/__mock/snapshots', { token: 'other' })).json.snapshots).toEqual([]);
    expect((await send(engine, 'POST', '/__mock/snapshots/cart-full/restore', { ...t, body: {} })).status).toBe(200);
    expect((await send(engine, 'GET', '/tickets/2/', t)).json.subject).toBe('one');
    // The snapshot is unchanged by writes after the restore.
    await send(engine, 'PATCH', '/tickets/2/', { ...t, body: { subject: 'three' } });
    await send(engine, 'POST', '/__mock/snapshots/cart-full/restore', { ...t, body: {} });
    expect((await send(engine, 'GET', '/tickets/2/', t)).json.subject).toBe('one');
    expect((await send(engine, 'DELETE', '/__mock/snapshots/cart-full', { ...t, body: {} })).status).toBe(204);
    const missing = await send(engine, 'POST', '/__mock/snapshots/cart-full/restore', { ...t, body: {} });
    expect([missing.status, missing.json.validation[0].field]).toEqual([404, 'path.name']);
    const badName = await send(engine, 'POST', '/__mock/snapshots', { ...t, body: { name: '../x' } });
    expect([badName.status, badName.json.validation[0].field]).toEqual([422, 'body.name']);
  });

  it('in code: engine.snapshot(name, token) / restore(name, token), and every state without a token', async () => {
    const engine = engineOf();
    await send(engine, 'PATCH', '/tickets/3/', { token: 'x', body: { subject: 'x1' } });
    await send(engine, 'PATCH', '/tickets/3/', { token: 'y', body: { subject: 'y1' } });
    await engine.snapshot('both');
    await send(engine, 'PATCH', '/tickets/3/', { token: 'x', body: { subject: 'x2' } });
    await send(engine, 'PATCH', '/tickets/3/', { token: 'z', body: { subject: 'z2' } });
    expect(await engine.restore('both')).toBe(true);
    const subject = async (token: string) => (await send(engine, 'GET', '/tickets/3/', { token })).json.subject;
    expect([await subject('x'), await subject('y')]).toEqual(['x1', 'y1']);
    expect(await subject('z')).not.toBe('z2'); // had no state then: reset
    const [info] = await engine.snapshot('only-x', 'x');
    expect(info?.name).toBe('only-x');
    await send(engine, 'PATCH', '/tickets/3/', { token: 'x', body: { subject: 'x3' } });
    expect(await engine.restore('only-x', 'x')).toBe(true);
    expect(await subject('x')).toBe('x1');
    expect(await engine.restore('never')).toBe(false);
  });
});

describe('request log', () => {
  it('GET /__mock/requests?limit=N: newest first, refusals with their problem fields, bodies cut', async () => {
    const engine = engineOf();
    await send(engine, 'GET', '/tickets/1/', { token: 'log' });
    await send(engine, 'POST', '/gift-cards/', { token: 'log', version: '2023-02-10', body: { currency: 'EURO' } });
    await send(engine, 'PUT', '/pages/1/', {
      token: 'log',
      body: { title: 'T', content: 'y'.repeat(BODY_LIMIT + 100) },
    });
    const { requests } = (await send(engine, 'GET', '/__mock/requests?limit=2', { token: null })).json;
    expect(requests.map((r: { method: string }) => r.method)).toEqual(['PUT', 'POST']);
    const [put, post] = requests;
    expect(put.request.truncated).toBe(true);
    expect(put.request.body).toHaveLength(BODY_LIMIT);
    expect(post).toMatchObject({ status: 422, version: '2023-02-10', path: '/gift-cards/' });
    expect(post.request).toEqual({ contentType: 'application/json', body: '{"currency":"EURO"}', truncated: false });
    expect(post.problem.fields).toContain('body.currency');
    expect(post.state).toMatch(/^[0-9a-f]{12}$/);
    expect(JSON.stringify(requests)).not.toContain('Bearer');
    const bad = await send(engine, 'GET', '/__mock/requests?limit=0', { token: null });
    expect([bad.status, bad.json.validation[0].field]).toEqual([400, 'query.limit']);
  });
});

describe('export: GET /__mock/state', () => {
  it('loaded back as --data, answers every read of every collection identically, in every version', async () => {
    const source = engineOf();
    const t = { token: 'exporter' };
    await send(source, 'PATCH', '/tickets/4/', { ...t, body: { subject: 'exported', comment: { body: 'hi' } } });
    await send(source, 'PUT', '/pages/3/', { ...t, body: { title: 'Exported page' } });
    await send(source, 'PATCH', '/metadata/2/', { ...t, version: '2023-02-10', body: { name: 'exported' } });
    await send(source, 'POST', '/gift-cards/', {
      ...t,
      version: '2023-02-10',
      body: { currency: 'EUR', initial: '10.00' },
    });
    expect((await send(source, 'POST', '/subscriptions/1/renew/', t)).status).toBe(200);
    expect(
      (await send(source, 'POST', '/fulfillment-orders/2/move/', { ...t, body: STORE_BODIES.moveFulfillmentOrder }))
        .status,
    ).toBe(200);
    const exported = await send(source, 'GET', '/__mock/state', t);
    const file = join(mkdtempSync(join(tmpdir(), 'mock-export-')), 'export.json');
    writeFileSync(file, exported.text);
    const loaded = engineOf({ data: await readFixtures(file), dataSource: file });

    const data = exported.json as Record<string, Record<string, unknown>[]>;
    const keysOf = (collection: string) => (data[collection] ?? []).map((r) => String(r[keyField(collection)]));
    let compared = 0;
    for (const bundle of bundles) {
      for (const operation of bundle.operations.filter((o) => o.method === 'get')) {
        const decl = OPERATION_DECLS[operation.operationId];
        if (!decl || decl.kind === 'write') continue;
        const param = decl.kind === 'list' ? decl.parent?.param : decl.param;
        const collection = decl.kind === 'list' ? decl.parent?.collection : decl.collection;
        const keys = param && collection ? keysOf(collection) : [''];
        for (const key of keys) {
          let path: string | undefined = operation.path.replace(`{${param}}`, key);
          while (path) {
            const call = { ...t, version: bundle.version };
            const a = await send(source, 'GET', path, call);
            const b = await send(loaded, 'GET', path, call);
            expect(`${b.status} ${b.text}`, `${bundle.version} ${path}`).toBe(`${a.status} ${a.text}`);
            compared++;
            path = a.json?.next ? new URL(a.json.next).pathname + new URL(a.json.next).search : undefined;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(200);
  });
});
