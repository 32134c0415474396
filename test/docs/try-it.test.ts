/**
 * The reference's try-it succeeds on every operation page with its pre-filled values (issue #17):
 * against the mock (`npm start`'s server), each operation page of every version
 * sends its pre-filled request (the contract's example path keys, bodies and the pre-filled
 * token) and gets a 200, since the contract's example keys are records of the mock's store in
 * states their example requests are accepted in. Pages are pressed in the reference's order with
 * one token, as a reader going through them would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundles, VERSION_HEADER } from '../../src/contract/index.ts';
import { type MockServer, startMock } from '../../src/mock/index.ts';
import { SPEC_OPERATIONS } from '../contract/inventory.ts';
import { type Browser, launchBrowser } from '../helpers/browser.ts';

const bundles = loadBundles();
const pages = bundles.flatMap((b) =>
  b.operations.map((o) => ({
    version: b.version,
    operationId: o.operationId,
    method: o.method.toUpperCase(),
    path: new RegExp(`^${o.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  })),
);

let browser: Browser;
let mock: MockServer;
beforeAll(async () => {
  [browser, mock] = await Promise.all([launchBrowser(), startMock({ port: 0 })]);
}, 60_000);
afterAll(async () => {
  await Promise.all([browser?.close(), mock?.close()]);
});

describe('try-it on every operation page, pre-filled values, against the mock', () => {
  it('has one operation page per (version, operation) pair of the spec inventory', () => {
    expect(pages.map((p) => `${p.version} ${p.operationId}`).sort()).toEqual(
      SPEC_OPERATIONS.flatMap((o) => o.versions.map((v) => `${v} ${o.operationId}`)).sort(),
    );
  });

  it('answers 200 on each of them', { timeout: 240_000 }, async () => {
    const page = await browser.context.newPage();
    const results: string[] = [];
    try {
      for (const { version, operationId, method, path } of pages) {
        await page.goto(`${mock.url}/docs/?version=${version}#/operations/${operationId}`);
        const button = page.getByRole('button', { name: 'Send API Request' });
        await button.waitFor({ timeout: 30_000 });
        const [response] = await Promise.all([
          page.waitForResponse((r) => r.url().startsWith(mock.url) && !new URL(r.url()).pathname.startsWith('/docs'), {
            timeout: 30_000,
          }),
          button.click(),
        ]);
        // The request is the page's own operation (method and path), with the version of the page.
        expect(response.request().method(), operationId).toBe(method);
        expect(new URL(response.url()).pathname, operationId).toMatch(path);
        expect(response.request().headers()[VERSION_HEADER.toLowerCase()], operationId).toBe(version);
        const body = response.status() === 200 ? '' : ` ${(await response.text()).slice(0, 200)}`;
        results.push(`${version} ${operationId} ${response.request().method()} ${response.status()}${body}`);
      }
    } finally {
      await page.close();
    }
    expect(results.filter((r) => !/ 200$/.test(r))).toEqual([]);
    expect(results).toHaveLength(pages.length);
  });
});
