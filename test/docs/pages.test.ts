// The committed reference docs (generated/docs/<version>.html) open offline in headless Chromium and
// show every operation of their version (the spec inventory is the oracle) with its scopes and the
// bundle's examples. A negative control renders a doctored bundle and expects the checker to flag it.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderVersion } from '../../scripts/docs/render.ts';
import { SPEC_OPERATIONS } from '../contract/inventory.ts';
import { type Json, loadBundle, HTTP_METHODS as METHODS, ROOT, VERSIONS } from '../helpers/bundles.ts';
import { type Browser, checkDocsPage, type ExpectedOperation, examplesOf, launchBrowser } from './check-page.ts';

const ARTIFACTS = join(ROOT, 'test', '.artifacts', 'docs');

/** What the page of `version` must show: every spec operation of it, with the bundle's examples. */
function expectedOf(version: string, bundle: Json): ExpectedOperation[] {
  return SPEC_OPERATIONS.filter((op) => op.versions.includes(version)).map((op) => ({
    operationId: op.operationId,
    method: op.method,
    path: op.path,
    scopes: op.scopes,
    ...examplesOf(bundle, op.operationId),
  }));
}

const tagsOf = (bundle: Json): string[] => (bundle.tags ?? []).map((tag: { name: string }) => tag.name);

let browser: Browser;

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchBrowser();
});

afterAll(() => browser?.close());

describe.each(VERSIONS)('generated/docs/%s.html', (version) => {
  it('shows every operation with its scopes and examples, offline', { timeout: 90_000 }, async () => {
    const page = join(ROOT, 'generated', 'docs', `${version}.html`);
    expect(existsSync(page), `${page} is missing: run npm run docs`).toBe(true);
    const bundle = loadBundle(version);
    const expected = expectedOf(version, bundle);
    expect(expected.length).toBeGreaterThan(0);
    const report = await checkDocsPage(
      browser,
      pathToFileURL(page).href,
      tagsOf(bundle),
      expected,
      join(ARTIFACTS, `${version}.png`),
    );
    expect(report.problems).toEqual([]);
  });
});

describe('generated/docs/index.html', () => {
  it('links the page of every API version, with no external resource', async () => {
    const page = await browser.context.newPage();
    const external: string[] = [];
    await page.route('**/*', (route) => {
      if (!route.request().url().startsWith('file:')) external.push(route.request().url());
      return route.request().url().startsWith('file:') ? route.continue() : route.abort();
    });
    try {
      await page.goto(pathToFileURL(join(ROOT, 'generated', 'docs', 'index.html')).href);
      const links = await page.$$eval('a[href]', (as) => as.map((a) => a.getAttribute('href')));
      expect(links).toEqual(VERSIONS.map((version) => `${version}.html`));
      for (const link of links) expect(existsSync(join(ROOT, 'generated', 'docs', String(link)))).toBe(true);
      expect(external).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('the page checker', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'docs-negative-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('flags a missing operation, a missing scope and a missing example', { timeout: 90_000 }, async () => {
    const version = '2023-02-10';
    const original = loadBundle(version);
    const expected = expectedOf(version, original).filter((op) => op.responseExample !== undefined);
    const [dropped, unsecured, unexampled] = expected.filter(
      // Only operations whose example has values: a schema-generated sample cannot pass for them.
      (op) => JSON.stringify(op.responseExample).match(/: ?("[^"]|\d|true|false)/),
    );
    if (!dropped || !unsecured || !unexampled) throw new Error(`${version} needs 3 operations with examples`);
    const doctored = structuredClone(original);
    for (const [path, item] of Object.entries<Json>(doctored.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        if (op.operationId === dropped.operationId) delete item[method];
        if (op.operationId === unsecured.operationId) op.security = [];
        if (op.operationId === unexampled.operationId) {
          for (const [code, response] of Object.entries<Json>(op.responses)) {
            const media = response.content?.['application/json'];
            if (/^2/.test(code) && media) {
              delete media.example;
              delete media.examples;
            }
          }
        }
      }
      if (!METHODS.some((method) => item[method])) delete doctored.paths[path];
    }
    await writeFile(join(dir, `${version}.json`), JSON.stringify(doctored));
    await renderVersion(join(dir, `${version}.json`), join(dir, `${version}.html`));
    const report = await checkDocsPage(
      browser,
      pathToFileURL(join(dir, `${version}.html`)).href,
      tagsOf(original),
      expectedOf(version, original),
    );
    const about = (op: ExpectedOperation) => report.problems.filter((p) => p.startsWith(`${op.operationId} `));
    expect(about(dropped)).toEqual([expect.stringContaining('not shown')]);
    expect(about(unsecured)).toEqual(unsecured.scopes.map((s) => expect.stringContaining(`scope ${s} not in`)));
    expect(about(unexampled)).toEqual([expect.stringContaining('response example not shown')]);
  });
});
