// The MSW handlers in a real browser: a page bundled from the package's browser build registers
// msw's service worker with createHandlers, then lists, pages, edits and asks for a failure
// through the package's client. The service worker answers every /api request: the static server
// must never see one, and nothing leaves the machine.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Browser, launchBrowser } from '../helpers/browser.ts';
import { ROOT } from '../helpers/bundles.ts';

let site: Server;
let browser: Browser;
let siteUrl = '';
const served: string[] = [];

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [new URL('./fixtures/worker-app.ts', import.meta.url).pathname],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    absWorkingDir: ROOT,
  });
  const files: Record<string, [string, string]> = {
    '/': [
      'text/html',
      '<!doctype html><title>msw</title><pre id="result"></pre><script type="module" src="/app.js"></script>',
    ],
    '/app.js': ['text/javascript', bundle.outputFiles[0]?.text ?? ''],
    '/mockServiceWorker.js': [
      'text/javascript',
      readFileSync(new URL('../../node_modules/msw/lib/mockServiceWorker.js', import.meta.url), 'utf8'),
    ],
  };
  site = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    served.push(path);
    const file = files[path];
    response.writeHead(file ? 200 : 404, { 'Content-Type': file?.[0] ?? 'text/plain' });
    response.end(file?.[1] ?? 'not found');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
});

it('serves the full mock through the service worker: pages to the end, a persisted edit, a 429', async () => {
  const page = await browser.context.newPage();
  const foreign: string[] = [];
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1') return route.continue();
    foreign.push(url.href);
    return route.abort();
  });
  await page.goto(siteUrl);
  await page.waitForFunction(() => document.getElementById('result')?.textContent !== '', null, { timeout: 30_000 });
  const result = JSON.parse((await page.textContent('#result')) ?? '{}');
  expect(result.error).toBeUndefined();
  expect(result.pages.length).toBeGreaterThanOrEqual(3);
  expect(result.pages.slice(0, -1).every((n: number) => n === 10)).toBe(true);
  expect(new Set(result.ids).size).toBe(result.ids.length);
  expect(result.next).toMatch(new RegExp(`^${siteUrl}/api/subscriptions/\\?cursor=`));
  expect(result.ticket).toEqual({ id: 7, subject: 'Edited via the worker' });
  expect(result.limited).toEqual({ status: 429, retryAfter: '1' });
  expect(served.filter((path) => path.startsWith('/api'))).toEqual([]);
  expect(foreign).toEqual([]);
  await page.screenshot({ path: `${ROOT}/test/.artifacts/msw/worker-app.png` });
}, 60_000);
