/**
 * CORS: a browser app on another origin calls the mock, preflight included. Checked on the wire
 * (the headers) and in a real headless Chromium (a page on another origin fetching the mock).
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.ts';
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
  beforeAll(async () => {
    page = createServer((_, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html' });
      response.end('<!doctype html><title>frontend</title><p>app</p>');
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    page.closeAllConnections();
    await new Promise((resolve) => page.close(resolve));
  });

  it('lets a page on another origin call the mock with a token, a version and a JSON body', async () => {
    const { context, close } = await launchBrowser();
    try {
      const tab = await context.newPage();
      await tab.goto(pageUrl);
      const results = await tab.evaluate(async (mock) => {
        const headers = { Authorization: 'Bearer t', 'Content-Type': 'application/json' };
        const ok = await fetch(`${mock}/tickets/1/`, {
          method: 'PATCH',
          headers: { ...headers, 'X-Service-API-Version': '2024-04-01' },
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
      }, inject('mockUrl'));
      expect(results.ok.status).toBe(200);
      expect(results.ok.version).toBe('2024-04-01');
      expect(results.ok.body).toHaveProperty('status');
      expect(results.refused.status).toBe(422);
      expect(results.refused.body.validation[0]).toMatchObject({ field: 'body.title', rule: 'maxLength' });
    } finally {
      await close();
    }
  });
});
