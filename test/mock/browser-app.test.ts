// The "done means", in a real browser: a small app built on the package's client, served
// from another origin, works against the mock as against the API: a list walked to the end, a
// filter, a detail by id, an edit that shows on the next read, the same data under both
// subscription versions. Nothing leaves the machine.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MockServer, startMock } from '../../src/mock/index.ts';
import { type Browser, launchBrowser } from '../helpers/browser.ts';

let mock: MockServer;
let site: Server;
let browser: Browser;
let siteUrl = '';

beforeAll(async () => {
  mock = await startMock({ port: 0 });
  const bundle = await build({
    entryPoints: [new URL('./fixtures/browser-app.ts', import.meta.url).pathname],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0]?.text ?? '';
  const page = '<!doctype html><title>app</title><pre id="result"></pre><script type="module" src="/app.js"></script>';
  site = createServer((request, response) => {
    const js = request.url?.startsWith('/app.js');
    response.writeHead(200, { 'Content-Type': js ? 'text/javascript' : 'text/html' });
    response.end(js ? script : page);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://localhost:${(site.address() as AddressInfo).port}`;
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
  await mock?.close();
});

it('lists to the end, filters, shows a detail, saves an edit and shows both versions', async () => {
  const page = await browser.context.newPage();
  const foreign: string[] = [];
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === 'localhost' || url.hostname === '127.0.0.1') return route.continue();
    foreign.push(url.href);
    return route.abort();
  });
  await page.goto(`${siteUrl}/?api=${encodeURIComponent(mock.url)}`);
  await page.waitForFunction(() => document.getElementById('result')?.textContent !== '', null, { timeout: 30_000 });
  const result = JSON.parse((await page.textContent('#result')) ?? '{}');
  expect(result.error).toBeUndefined();
  expect(result.ids.length).toBeGreaterThanOrEqual(30);
  expect(new Set(result.ids).size).toBe(result.ids.length);
  expect(result.canceledStatuses).toEqual(['canceled']);
  expect(result.detail.id).toBe(7);
  expect(result.reread).toEqual({ id: 7, subject: 'Edited in the browser', priority: 'high' });
  expect(result.versions.oldIds).toEqual(result.versions.nowIds);
  expect(result.versions.oldLineHasProduct).toBe(true);
  expect(foreign).toEqual([]);
}, 60_000);
