/**
 * CORS: a browser app on another origin calls the mock, preflight included. Checked on the wire
 * (the headers) and in a real headless Chromium (a page on another origin fetching the mock,
 * --static and the proxy, and reading their exposed headers; the client honouring Retry-After).
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  EXPOSED_HEADERS,
  IGNORED_FILTERS_HEADER,
  type MockServer,
  startMock,
  UNKNOWN_QUERY_HEADER,
} from '../../src/mock/index.ts';
import { type ProxyServer, startProxy, VIOLATIONS_HEADER } from '../../src/proxy/index.ts';
import { type Browser, launchBrowser } from '../helpers/browser.ts';
import { call } from './http.ts';

const ORIGIN = 'http://localhost:5173';

describe('CORS headers', () => {
  it('answers a preflight with the methods and headers a frontend sends, without asking for a token', async () => {
    const response = await fetch(`${inject('mockUrl')}/tickets/1/`, {
      method: 'OPTIONS',
      headers: {
        Origin: ORIGIN,
        'Access-Control-Request-Method': 'PATCH',
        'Access-Control-Request-Headers': 'authorization, content-type, x-service-api-version, prefer',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.headers.get('access-control-allow-methods')).toContain('PATCH');
    expect(response.headers.get('access-control-allow-headers')).toBe(
      'authorization, content-type, x-service-api-version, prefer',
    );
    expect(response.headers.get('access-control-max-age')).toBe('600');
  });

  it('adds the allow-origin and exposed headers to answers and refusals alike', async () => {
    for (const response of [
      await call('GET', '/store/', { headers: { Origin: ORIGIN } }),
      await call('GET', '/store/', { token: null, headers: { Origin: ORIGIN } }),
      await call('POST', '/gift-cards/', { body: {}, headers: { Origin: ORIGIN } }),
      await call('GET', '/store/', { version: '1999-01-01', headers: { Origin: ORIGIN } }),
    ]) {
      expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(response.headers.get('access-control-expose-headers')).toContain('X-Service-API-Version');
      expect(response.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
    }
  });
});

describe('CORS in a browser', () => {
  let page: Server;
  let pageUrl: string;
  let browser: Browser;
  let staticMock: MockServer;
  let proxy: ProxyServer;
  let client = ''; // the package's client bundled for the browser (window.Contract)
  beforeAll(async () => {
    page = createServer((_, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html' });
      response.end('<!doctype html><title>frontend</title><p>app</p>');
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
    browser = await launchBrowser();
    staticMock = await startMock({ port: 0, static: true });
    proxy = await startProxy({ upstream: inject('mockUrl'), port: 0, log: () => {} });
    const bundle = await build({
      entryPoints: [fileURLToPath(new URL('../../src/client/index.ts', import.meta.url))],
      bundle: true,
      platform: 'browser',
      format: 'iife',
      globalName: 'Contract',
      write: false,
      logLevel: 'silent',
    });
    client = bundle.outputFiles[0]?.text ?? '';
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    await staticMock?.close();
    page?.closeAllConnections();
    await new Promise((resolve) => page?.close(resolve));
  });

  it('lets a page on another origin call the mock with a token, a version and a JSON body', async () => {
    const tab = await browser.context.newPage();
    try {
      await tab.goto(pageUrl);
      const sent = '2024-04-01';
      const results = await tab.evaluate(
        async ({ mock, sent }) => {
          const headers = { Authorization: 'Bearer t', 'Content-Type': 'application/json' };
          const ok = await fetch(`${mock}/tickets/1/`, {
            method: 'PATCH',
            headers: { ...headers, 'X-Service-API-Version': sent },
            body: JSON.stringify({ status: 'solved' }),
          });
          const refused = await fetch(`${mock}/pages/1/`, {
            method: 'PUT',
            headers,
            body: JSON.stringify({ title: 'x'.repeat(201) }),
          });
          return {
            ok: { status: ok.status, version: ok.headers.get('X-Service-API-Version'), body: await ok.json() },
            refused: { status: refused.status, body: await refused.json() },
          };
        },
        { mock: inject('mockUrl'), sent },
      );
      expect(results.ok.status).toBe(200);
      expect(results.ok.version).toBe(sent);
      expect(results.ok.body).toHaveProperty('status');
      expect(results.refused.status).toBe(422);
      expect(results.refused.body.validation[0]).toMatchObject({ field: 'body.title', rule: 'maxLength' });
    } finally {
      await tab.close();
    }
  });

  // Issue #27: Retry-After, X-Contract-Violations and the request ids were not in
  // Access-Control-Expose-Headers: null to a page on another origin, and the client's retry fell
  // back to its backoff instead of the server's Retry-After.
  it('lists every header the mock, --static and the proxy send for a client to read', () => {
    for (const name of [
      'Retry-After',
      VIOLATIONS_HEADER,
      IGNORED_FILTERS_HEADER,
      UNKNOWN_QUERY_HEADER,
      'X-Request-Id',
    ]) {
      expect(EXPOSED_HEADERS).toContain(name);
    }
  });

  it('reads Retry-After, the version and the proxy’s violations cross-origin, and the client waits Retry-After', async () => {
    const tab = await browser.context.newPage();
    try {
      await tab.goto(pageUrl);
      await tab.addScriptTag({ content: client });
      const urls = { mock: inject('mockUrl'), static: staticMock.url, proxy: proxy.url };
      const seen = await tab.evaluate(async ({ mock, static: prism, proxy: through }) => {
        const auth = { Authorization: 'Bearer cors-expose' };
        const limited = await fetch(`${mock}/store/`, { headers: { ...auth, Prefer: 'fail=429, retry-after=2' } });
        const ignored = await fetch(`${mock}/subscriptions/?search_text=x`, { headers: auth });
        const unknown = await fetch(`${mock}/subscriptions/?statuss=active`, { headers: auth });
        const fromStatic = await fetch(`${prism}/store/`, { headers: auth });
        const proxied = await fetch(`${through}/store/`, { headers: { ...auth, Prefer: 'fail=429, retry-after=2' } });
        const delays: number[] = [];
        type Api = { createAdminClient: (o: object) => { GET: (p: string, o: object) => Promise<unknown> } };
        const api = (window as unknown as { Contract: Api }).Contract.createAdminClient({
          baseUrl: mock,
          token: 'cors-expose',
          retry: { attempts: 2, onRetry: ({ delay }: { delay: number }) => delays.push(delay) },
        });
        await api.GET('/store/', { headers: { Prefer: 'fail=429, retry-after=1' } });
        return {
          retryAfter: limited.headers.get('Retry-After'),
          version: limited.headers.get('X-Service-API-Version'),
          ignored: ignored.headers.get('X-Mock-Ignored-Filters'),
          unknown: unknown.headers.get('X-Mock-Unknown-Query'),
          staticVersion: fromStatic.headers.get('X-Service-API-Version'),
          proxied: {
            status: proxied.status,
            retryAfter: proxied.headers.get('Retry-After'),
            violations: proxied.headers.get('X-Contract-Violations'),
          },
          delays,
        };
      }, urls);
      expect(seen.retryAfter).toBe('2');
      expect(seen.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(seen.ignored).toContain('search_text');
      expect(seen.unknown).toBe('statuss');
      expect(seen.staticVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(seen.proxied).toEqual({ status: 429, retryAfter: '2', violations: expect.stringMatching(/^\d+$/) });
      expect(seen.delays).toEqual([1000]); // the server's Retry-After, not the 100 to 200 ms backoff
    } finally {
      await tab.close();
    }
  }, 60_000);
});
