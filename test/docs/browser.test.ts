// The API reference in headless Chromium (Debian's chromium through playwright-core): the static
// build opened from file:// and the copy the mock serves at /docs. Every operation renders under
// each version that has it (the spec inventory is the oracle for versions, method, path and scopes;
// the bundles for summaries, version header and example names), and its try-it, pressed with its
// pre-filled values in the reference's order, gets a 200 from the mock (issue #17); the version
// switcher changes the shapes shown, Redoc-style deep links still land, and try-it reaches the mock
// (a 200, and a 422 naming the bad filter). Every request to another origin is blocked and fails
// the test.
// Screenshots of the main views go to test/.artifacts/docs/ (git-ignored).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versionOf } from '../../src/contract/index.ts';
import { docsSite } from '../../src/docs/index.ts';
import { type MockServer, startMock } from '../../src/mock/index.ts';
import { SPEC_OPERATIONS } from '../contract/inventory.ts';
import { type Browser, launchBrowser } from '../helpers/browser.ts';
import {
  type BundleOperation,
  deref,
  type Json,
  loadBundle,
  operationsOf,
  ROOT,
  VERSIONS,
} from '../helpers/bundles.ts';

const ARTIFACTS = join(ROOT, 'test', '.artifacts', 'docs');

let browser: Browser;
let mock: MockServer;
let staticDir: string;
let staticUrl: string;

/** The version header's name, read from the bundles like the site does. */
const HEADER: string = Object.values<Json>(loadBundle(VERSIONS[0]).components.parameters).find(
  (p) => p.in === 'header' && p.schema?.enum?.includes(VERSIONS[0]),
).name;

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  staticDir = await mkdtemp(join(tmpdir(), 'docs-site-'));
  for (const [path, file] of await docsSite()) {
    await mkdir(dirname(join(staticDir, path)), { recursive: true });
    await writeFile(join(staticDir, path), file.body);
  }
  staticUrl = pathToFileURL(join(staticDir, 'index.html')).href;
  [browser, mock] = await Promise.all([launchBrowser(), startMock({ port: 0 })]);
}, 60_000);

afterAll(async () => {
  await Promise.all([browser?.close(), mock?.close()]);
  if (staticDir) await rm(staticDir, { recursive: true, force: true });
});

interface Opened {
  page: Page;
  /** Requests to another origin (all blocked). */
  external: string[];
  errors: string[];
}

/**
 * A page that may load `allowed` origins (and file:, data:, blob:) only; anything else is recorded
 * and aborted. In `context` (another reader), else the browser's first one.
 */
async function open(url: string, allowed: string[] = [], context: BrowserContext = browser.context): Promise<Opened> {
  const page = await context.newPage();
  const external: string[] = [];
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.route('**/*', (route) => {
    const target = route.request().url();
    if (/^(file|data|blob):/.test(target) || allowed.some((origin) => target.startsWith(`${origin}/`))) {
      return route.continue();
    }
    external.push(target);
    return route.abort();
  });
  await page.goto(url);
  await page.waitForSelector('elements-api h1', { timeout: 20_000 });
  return { page, external, errors };
}

const shownText = (page: Page) => page.locator('elements-api').innerText();
/** The reader's try-it token, as the bar shows it. */
const tokenOf = async (page: Page) => `Bearer ${await page.locator('#docs-token').innerText()}`;

/**
 * Waits until the operation page of `summary` is the one shown, and throws if it is not. With the
 * `hash` the page was sent to, it also stops waiting as soon as the page leaves that hash (the
 * renderer sends an operation it does not have to the overview, `#/`): the page has decided, no
 * need to wait out the 10 s bound.
 */
async function waitForOperation(page: Page, summary: string, hash?: string): Promise<void> {
  const shown = await page.waitForFunction(
    ([want, sentTo]) =>
      [...document.querySelectorAll('elements-api h1')].some((h) => (h as HTMLElement).innerText.trim() === want) ||
      (sentTo !== undefined && location.hash !== sentTo ? 'left' : false),
    [summary, hash] as const,
    { timeout: 10_000 },
  );
  if ((await shown.jsonValue()) !== true) throw new Error(`the page left ${hash} without showing "${summary}"`);
}

/**
 * The text of the response example panel (titled "Response Example", with a picker when there are
 * several). Elements folds large examples behind a "Load examples" button: press it first.
 */
async function responseExample(page: Page): Promise<string> {
  const panel = page.locator('.sl-panel__titlebar', { hasText: 'Response Example' }).first().locator('xpath=..');
  const load = panel.locator('button[aria-label="load-example"]');
  if (await load.count()) await load.click();
  return panel
    .locator('pre')
    .first()
    .innerText({ timeout: 5_000 })
    .catch(() => '(no response example panel)');
}

/** A string value of the example (depth first), which the example panel must show. */
function someString(value: Json): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    for (const child of Object.values<Json>(value)) {
      const found = someString(child);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Presses try-it on the operation page shown, with its pre-filled values, and lists what is wrong
 * with the exchange: the request must be the page's own operation (method, path) with the version
 * of the page, and the mock must answer 200.
 */
async function pressTryIt(page: Page, operation: BundleOperation): Promise<string[]> {
  const id = operation.operationId;
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().startsWith(mock.url) && !new URL(r.url()).pathname.startsWith('/docs'), {
      timeout: 30_000,
    }),
    page.getByRole('button', { name: 'Send API Request' }).click(),
  ]);
  const request = response.request();
  const path = new RegExp(`^${operation.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
  const problems: string[] = [];
  if (request.method() !== operation.method.toUpperCase() || !path.test(new URL(response.url()).pathname)) {
    problems.push(`${id}: try-it sent ${request.method()} ${response.url()}`);
  }
  const sent = request.headers()[HEADER.toLowerCase()];
  if (sent !== operation.version) problems.push(`${id}: try-it sent ${HEADER}: ${sent}`);
  if (response.status() !== 200) {
    problems.push(`${id}: try-it got ${response.status()} ${(await response.text()).slice(0, 200)}`);
  }
  return problems;
}

/**
 * Opens each operation of `version` (the spec inventory lists them) on the open page and lists what
 * a reader would miss. The oracle is the spec inventory and the committed bundle, never the site.
 * The operations are opened in the reference's order (the bundle's), as a reader goes through
 * them; with `press`, each page's try-it is pressed too (pressTryIt): the contract's example keys
 * are records of the mock's store in states their example requests are accepted in, in that order.
 * `only`: these operations of the version, no other.
 */
async function checkOperations(
  page: Page,
  version: (typeof VERSIONS)[number],
  { press = false, only }: { press?: boolean; only?: readonly string[] } = {},
): Promise<string[]> {
  const bundle = loadBundle(version);
  const operations = operationsOf(version);
  const order = (id: string) => operations.findIndex((o) => o.operationId === id);
  const expected = SPEC_OPERATIONS.filter(
    (op) => op.versions.includes(version) && (only === undefined || only.includes(op.operationId)),
  ).sort((a, b) => order(a.operationId) - order(b.operationId));
  const problems: string[] = expected.length === 0 ? [`no operation of ${version} in the inventory`] : [];
  for (const spec of expected) {
    const found = operations.find((o) => o.operationId === spec.operationId);
    const operation = found?.operation;
    if (!found || !operation) {
      problems.push(`${spec.operationId}: not in the bundle`);
      continue;
    }
    const hash = `#/operations/${spec.operationId}`;
    await page.evaluate((to) => {
      location.hash = to;
    }, hash);
    try {
      await waitForOperation(page, operation.summary, hash);
    } catch {
      problems.push(`${spec.operationId}: its page does not render`);
      continue;
    }
    const text = await shownText(page);
    const want = [
      `${spec.method.toUpperCase()}`,
      spec.path,
      `Versions: ${spec.versions.join(', ')}`,
      `Version header: ${HEADER}: ${version}`,
      `Scopes: ${spec.scopes.join(' or ')}`,
      `Changelog of version ${version}`,
    ];
    const [, response] = Object.entries<Json>(operation.responses).find(([code]) => /^2/.test(code)) ?? [];
    const media = deref(bundle, response)?.content?.['application/json'] ?? {};
    const names = Object.keys(media.examples ?? {});
    if (names.length === 0) problems.push(`${spec.operationId}: no named response example in the bundle`);
    const status = Object.keys(operation.responses).find((code) => /^2/.test(code));
    if (names.length > 0) want.push(`${status}: ${names.join(', ')}`);
    for (const fragment of want) {
      if (!text.includes(fragment)) problems.push(`${spec.operationId}: "${fragment}" not shown`);
    }
    const first = names[0] ? deref(bundle, media.examples[names[0]]).value : undefined;
    const probe = someString(first);
    if (probe && !(await responseExample(page)).includes(JSON.stringify(probe))) {
      problems.push(`${spec.operationId}: response example ${names[0]} not in its panel (${probe})`);
    }
    const tryIt = page.locator('.TryItPanel').first();
    if (!(await tryIt.innerText()).includes(HEADER)) problems.push(`${spec.operationId}: try-it has no ${HEADER}`);
    const token = tryIt.locator('input[aria-label="Token"]');
    if ((await token.count()) === 0 || (await token.inputValue()) !== (await tokenOf(page))) {
      problems.push(`${spec.operationId}: try-it token is not pre-filled`);
    }
    if (press) problems.push(...(await pressTryIt(page, found)));
  }
  return problems;
}

// Every operation page is rendered once per version, served by the mock (as `npm start` serves it),
// and checked for what it shows and for its try-it: one Chromium render per page instead of two
// (test/docs/try-it.test.ts did the try-it half with its own Chromium and mock: ~22 s of CPU in
// all). The versions share one page, as a reader goes through them with the version switcher: a
// page load is ~1.6 s of Chromium's CPU, a switch ~0.5 s. The static build from file:// is the same
// site (only its config.js differs): the doctored-bundle check renders the doctored operations of a
// version from it, and the tests under 'static build (file://)' the rest.
it('has one operation page per (version, operation) pair of the spec inventory', () => {
  const pages = VERSIONS.flatMap((v) => operationsOf(v).map((o) => `${v} ${o.operationId}`));
  expect(pages.sort()).toEqual(SPEC_OPERATIONS.flatMap((o) => o.versions.map((v) => `${v} ${o.operationId}`)).sort());
});

describe('served by the mock at /docs, every version on one page', () => {
  let reader: Opened;
  beforeAll(async () => {
    reader = await open(`${mock.url}/docs/?version=${VERSIONS[0]}`, [mock.url]);
  }, 60_000);
  afterAll(() => reader?.page.close());

  it.each(VERSIONS)(
    '%s: renders every operation of the version with its versions, header, scopes, examples and changelog, and try-it answers 200 on each with its pre-filled values',
    {
      timeout: 240_000,
    },
    async (version) => {
      const { page, external, errors } = reader;
      if ((await page.inputValue('#docs-version')) !== version) {
        // From the Overview, as a reader switches: the page shows the version's Overview.
        await page.evaluate(() => {
          location.hash = '#/';
        });
        await page.selectOption('#docs-version', version);
      }
      await page.waitForFunction(
        (want) => (document.querySelector('.docs-bar') as HTMLElement).innerText.includes(want),
        `${HEADER}: ${version}`,
      );
      expect(new URL(page.url()).searchParams.get('version')).toBe(version);
      await page.screenshot({ path: join(ARTIFACTS, `overview-${version}.png`) });
      expect(await checkOperations(page, version, { press: true })).toEqual([]);
      expect(errors).toEqual([]);
      expect(external).toEqual([]);
    },
  );
});

describe('the operation checker', () => {
  it('flags a missing operation, a missing scope and missing examples (a doctored bundle)', {
    timeout: 120_000,
  }, async () => {
    const version = '2023-02-10';
    const dir = await mkdtemp(join(tmpdir(), 'docs-doctored-'));
    try {
      for (const v of VERSIONS) {
        const bundle = structuredClone(loadBundle(v));
        if (v === version) {
          delete bundle.paths['/stockrecords/{id}/'];
          bundle.paths['/transactions/{id}/capture/'].post.security = [];
          for (const media of Object.values<Json>(bundle.paths['/metadata/{id}/'].patch.responses['200'].content)) {
            delete media.examples;
            delete media.example;
          }
        }
        await writeFile(join(dir, `${v}.json`), JSON.stringify(bundle));
      }
      const out = join(dir, 'site');
      for (const [path, file] of await docsSite({
        bundlesDir: dir,
        changelogsDir: join(ROOT, 'openapi', 'changelogs'),
      })) {
        await mkdir(dirname(join(out, path)), { recursive: true });
        await writeFile(join(out, path), file.body);
      }
      const { page } = await open(`${pathToFileURL(join(out, 'index.html')).href}?version=${version}`);
      try {
        // The three doctored operations and one left as it is (nothing to flag there).
        const doctored = ['getStockRecord', 'captureTransaction', 'updateMetadataDefinition'];
        const intact = SPEC_OPERATIONS.find(
          (op) => op.versions.includes(version) && !doctored.includes(op.operationId),
        );
        const problems = await checkOperations(page, version, { only: [...doctored, intact?.operationId ?? ''] });
        const about = (id: string) => problems.filter((p) => p.startsWith(`${id}: `));
        expect(intact && about(intact.operationId)).toEqual([]);
        expect(about('getStockRecord')).toEqual(['getStockRecord: its page does not render']);
        expect(about('captureTransaction')).toEqual([
          'captureTransaction: "Scopes: transactions:write" not shown',
          'captureTransaction: try-it token is not pre-filled',
        ]);
        expect(about('updateMetadataDefinition')).toEqual([
          expect.stringMatching(/^updateMetadataDefinition: "200: \w+" not shown$/),
          expect.stringMatching(/^updateMetadataDefinition: response example \w+ not in its panel/),
        ]);
        expect(problems).toHaveLength(5);
      } finally {
        await page.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('static build (file://)', () => {
  it('the request guard records and blocks a request to another origin (control)', async () => {
    const { page, external } = await open(staticUrl);
    try {
      const failed = await page.evaluate(() =>
        fetch('https://cdn.example.com/font.woff2').then(
          () => false,
          () => true,
        ),
      );
      expect(failed).toBe(true);
      expect(external).toEqual(['https://cdn.example.com/font.woff2']);
    } finally {
      await page.close();
    }
  });

  it('keeps Redoc-style deep links (#operation/<id>) working, picking a version that has the operation', async () => {
    const { page, external } = await open(`${staticUrl}?version=2024-04-01#operation/getTicket`);
    try {
      const ticketVersion = versionOf('get', '/tickets/{id}/');
      await waitForOperation(page, loadBundle(ticketVersion).paths['/tickets/{id}/'].get.summary);
      expect(new URL(page.url()).searchParams.get('version')).toBe(ticketVersion);
      expect(new URL(page.url()).hash).toBe('#/operations/getTicket');
      expect(await page.locator('#docs-notice').innerText()).toBe(
        'getTicket is not in version 2024-04-01; showing version unstable. Versions that have it: unstable',
      );
      expect(external).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('switches versions: Subscription lines under 2023-02-10 carry a nested product', { timeout: 60_000 }, async () => {
    const { page, external, errors } = await open(`${staticUrl}#/operations/listSubscriptions`);
    try {
      const summary = loadBundle(versionOf('get', '/subscriptions/')).paths['/subscriptions/'].get.summary;
      await waitForOperation(page, summary);
      expect(await page.inputValue('#docs-version')).toBe(versionOf('get', '/subscriptions/'));
      const newer = await responseExample(page);
      expect(newer).toContain('"product_title"');
      expect(newer).not.toContain('"stockrecord"');
      await page.screenshot({ path: join(ARTIFACTS, 'listSubscriptions-2024-04-01.png') });

      const chosen = '2023-02-10';
      await page.selectOption('#docs-version', chosen);
      await page.waitForFunction(
        (want) => (document.querySelector('elements-api') as HTMLElement).innerText.includes(want),
        `${HEADER}: ${chosen}`,
      );
      await waitForOperation(page, summary);
      expect(new URL(page.url()).searchParams.get('version')).toBe(chosen);
      expect(new URL(page.url()).hash).toBe('#/operations/listSubscriptions');
      const older = await responseExample(page);
      expect(older).toMatch(/"product": \{/);
      expect(older).toContain('"stockrecord"');
      expect(older).toContain('"is_tax_known"');
      expect(older).not.toContain('"product_title"');
      await page.getByText('"stockrecord"').first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, 'listSubscriptions-2023-02-10.png') });

      // unstable has no listSubscriptions: the switcher falls back to the overview, and says why.
      await page.selectOption('#docs-version', 'unstable');
      await page.waitForFunction(() => location.hash === '#/');
      const notice = page.locator('#docs-notice');
      expect(await notice.innerText()).toBe(
        'listSubscriptions is not in version unstable; showing the Overview. Versions that have it: 2024-04-01, 2023-02-10',
      );
      expect(await notice.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
        '?version=2024-04-01#/operations/listSubscriptions',
        '?version=2023-02-10#/operations/listSubscriptions',
      ]);
      await page.screenshot({ path: join(ARTIFACTS, 'missing-operation-notice.png') });
      expect(errors).toEqual([]);
      expect(external).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('sends try-it to the base URL the reader sets (the mock, through CORS)', async () => {
    const { page, external } = await open(`${staticUrl}#/operations/getStore`, [mock.url]);
    try {
      await page.fill('#docs-base-url', mock.url);
      await page.press('#docs-base-url', 'Enter');
      await page.waitForSelector(`text=${mock.url.replace(/^http:\/\//, '')}`, { timeout: 10_000 });
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url() === `${mock.url}/store/`),
        page.getByRole('button', { name: 'Send API Request' }).click(),
      ]);
      expect(response.status()).toBe(200);
      await page.waitForSelector('text=200 OK');
      expect(external).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('served by the mock at /docs', () => {
  // Issue 27: every reader shared one token, so after one reader's writes five operations answered
  // 422 to everyone. Two readers are two browser contexts (their own localStorage).
  it('gives each reader a token of their own: one reader’s writes leave the other’s try-it at 200, and “Reset my state” resets the reader’s own', {
    timeout: 90_000,
  }, async () => {
    const retry = SPEC_OPERATIONS.find((o) => o.operationId === 'retrySubscription');
    const version = retry?.versions[0] as (typeof VERSIONS)[number];
    const operation = operationsOf(version).find((o) => o.operationId === 'retrySubscription') as BundleOperation;
    const url = `${mock.url}/docs/?version=${version}#/operations/retrySubscription`;
    const contexts = await Promise.all([browser.newContext(), browser.newContext()]);
    // The second reader's browser kept the old shared token in Elements' storage: it gets its own.
    const schemes = Object.keys(loadBundle(version).components.securitySchemes);
    await contexts[1]?.addInitScript((keys: string[]) => {
      if (localStorage.getItem('store-admin-docs.token')) return;
      const shared = Object.fromEntries(keys.map((key) => [key, 'Bearer docs-try-it']));
      localStorage.setItem('TryIt_securitySchemeValues', JSON.stringify(shared));
    }, schemes);
    try {
      const opened = await Promise.all(contexts.map((context) => open(url, [mock.url], context)));
      const readers = opened.map(({ page }) => page);
      const [a, b] = readers as [Page, Page];
      await Promise.all(readers.map((page) => waitForOperation(page, operation.operation.summary)));
      const tokens = await Promise.all(readers.map(tokenOf));
      expect(tokens[0]).toMatch(/^Bearer docs-[0-9a-f]{24}$/);
      expect(tokens[1]).toMatch(/^Bearer docs-[0-9a-f]{24}$/);
      expect(tokens[0]).not.toBe(tokens[1]);
      for (const [i, page] of readers.entries()) {
        expect(await page.locator('.TryItPanel input[aria-label="Token"]').inputValue()).toBe(tokens[i]);
      }

      // Reader a retries subscription 1042: 200, then 422 (it is no longer past due) for a only.
      expect(await pressTryIt(a, operation)).toEqual([]);
      expect((await pressTryIt(a, operation)).join()).toContain('try-it got 422');
      expect(await pressTryIt(b, operation)).toEqual([]);

      // A reload keeps the reader's token; "Reset my state" resets it, and try-it answers 200 again.
      await a.reload();
      await waitForOperation(a, operation.operation.summary);
      expect(await tokenOf(a)).toBe(tokens[0]);
      const [reset] = await Promise.all([
        a.waitForResponse((r) => new URL(r.url()).pathname === '/__mock/reset'),
        a.getByRole('button', { name: 'Reset my state' }).click(),
      ]);
      expect(reset.request().headers().authorization).toBe(tokens[0]);
      expect(reset.status()).toBe(200);
      await a.waitForSelector('text=Reset: your token reads the seeded data again.');
      expect(await pressTryIt(a, operation)).toEqual([]);
      await a.screenshot({ path: join(ARTIFACTS, 'try-it-own-token.png') });
      for (const { errors, external } of opened) {
        expect(errors).toEqual([]);
        expect(external).toEqual([]);
      }
    } finally {
      await Promise.all(contexts.map((context) => context.close()));
    }
  });

  it('redirects /docs to /docs/', async () => {
    const response = await fetch(`${mock.url}/docs`, { redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/docs/');
  });

  it('try-it calls the mock on the same origin with the version header and a token: 200, then a 422 naming the bad filter', {
    timeout: 60_000,
  }, async () => {
    const { page, external, errors } = await open(`${mock.url}/docs/#/operations/listSubscriptions`, [mock.url]);
    try {
      await page.waitForSelector('text=Send API Request');
      const send = () =>
        Promise.all([
          page.waitForResponse((r) => new URL(r.url()).pathname === '/subscriptions/'),
          page.getByRole('button', { name: 'Send API Request' }).click(),
        ]).then(([response]) => response);

      const ok = await send();
      expect(ok.url().startsWith(`${mock.url}/subscriptions/`)).toBe(true);
      expect(ok.status()).toBe(200);
      const headers = ok.request().headers();
      expect(headers.authorization).toBe(await tokenOf(page));
      expect(headers[HEADER.toLowerCase()]).toBe(versionOf('get', '/subscriptions/'));
      await page.waitForSelector('text=200 OK');
      await page.screenshot({ path: join(ARTIFACTS, 'try-it-200.png') });

      // Array filters take JSON in Elements' try-it: ["bogus"] is sent as status=bogus.
      await page.locator('.TryItPanel input[aria-label="status"]').fill('["bogus"]');
      const bad = await send();
      expect(new URL(bad.url()).searchParams.getAll('status')).toEqual(['bogus']);
      expect(bad.status()).toBe(422);
      await page.waitForSelector('text=422 Unprocessable Entity');
      const panel = await page.locator('.TryItPanel').first().locator('xpath=..').innerText();
      expect(panel).toContain('query.status[0]');
      await page.screenshot({ path: join(ARTIFACTS, 'try-it-422.png') });
      expect(errors).toEqual([]);
      expect(external).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
