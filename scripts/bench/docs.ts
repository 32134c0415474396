/**
 * Benchmark of the API reference the mock serves at /docs, in headless Chromium (Debian's chromium
 * through playwright-core), browser cache disabled, median of N cold loads (the mock warmed up
 * first: it builds the site on its first request):
 *   1. weight: bytes transferred for the whole page (HTML, scripts, styles, the documents of every
 *      API version), as the browser received them (gzip); target: under 3 MB;
 *   2. first render: navigation start → the overview heading of <elements-api> in the DOM;
 *      target: under 2 s;
 *   3. an operation deep link (#/operations/listSubscriptions) rendered, and a version switch
 *      (2024-04-01 → 2023-02-10) until the new version's header shows (informational).
 * Usage: tsx scripts/bench/docs.ts [--runs N]
 */
import { parseArgs } from 'node:util';
import { startMock } from '../../src/mock/index.ts';
import { launchBrowser } from '../../test/helpers/browser.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const RUNS = Number(values.runs);
const WEIGHT_TARGET = 3_000_000;
const RENDER_TARGET = 2_000;

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

const mock = await startMock({ port: 0 });
// The mock builds and compresses the site on the first request: do that once, unmeasured, so that
// every run measures a warm server and a cold browser.
for (const asset of ['', 'assets/web-components.min.js', 'assets/styles.min.css', 'assets/api.js']) {
  await (await fetch(`${mock.url}/docs/${asset}`, { headers: { 'accept-encoding': 'gzip' } })).arrayBuffer();
}
const browser = await launchBrowser();
const external: string[] = [];

interface Load {
  bytes: number;
  raw: number;
  requests: number;
  firstRender: number;
}

/** One cold load of `path`; returns what was transferred and when `selector` first appeared. */
async function load(path: string, selector: string): Promise<Load & { page: import('playwright-core').Page }> {
  const page = await browser.context.newPage();
  await page.route('**/*', (route) => {
    if (route.request().url().startsWith(`${mock.url}/`)) return route.continue();
    external.push(route.request().url());
    return route.abort();
  });
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  let bytes = 0;
  let raw = 0;
  let requests = 0;
  cdp.on('Network.loadingFinished', (event) => {
    bytes += event.encodedDataLength;
    requests++;
  });
  cdp.on('Network.dataReceived', (event) => {
    raw += event.dataLength;
  });
  // Records when the selector first matches, from the page's own clock (ms since navigation start).
  await page.addInitScript((wanted) => {
    const w = window as unknown as { firstRender?: number };
    new MutationObserver((_, observer) => {
      if (w.firstRender === undefined && document.querySelector(wanted)) {
        w.firstRender = performance.now();
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  }, selector);
  await page.goto(`${mock.url}${path}`);
  await page.waitForSelector(selector, { timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  const firstRender = await page.evaluate(() => (window as unknown as { firstRender: number }).firstRender);
  return { page, bytes, raw, requests, firstRender };
}

const overview: Load[] = [];
const operation: number[] = [];
const switches: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const first = await load('/docs/', 'elements-api h1');
  overview.push(first);
  await first.page.close();

  const deep = await load('/docs/#/operations/listSubscriptions', 'elements-api .TryItPanel');
  operation.push(deep.firstRender);
  const started = performance.now();
  await deep.page.selectOption('#docs-version', '2023-02-10');
  await deep.page.waitForFunction(() =>
    (document.querySelector('elements-api') as HTMLElement).innerText.includes(': 2023-02-10'),
  );
  switches.push(performance.now() - started);
  await deep.page.close();
  process.stdout.write('.');
}
process.stdout.write('\n');
await browser.close();
await mock.close();

const weight = median(overview.map((o) => o.bytes));
const render = median(overview.map((o) => o.firstRender));
const rows = [
  ['measure', 'median', `of ${RUNS} cold loads`],
  [
    'weight: /docs/ transferred',
    `${fmt(weight / 1e6, 2)} MB`,
    `${overview[0]?.requests} requests, ${fmt(median(overview.map((o) => o.raw)) / 1e6, 2)} MB decoded; ` +
      `target < 3 MB: ${weight < WEIGHT_TARGET ? 'met' : 'MISSED'}`,
  ],
  [
    'first render: overview heading',
    `${fmt(render)} ms`,
    `max ${fmt(Math.max(...overview.map((o) => o.firstRender)))} ms; target < 2 s: ${render < RENDER_TARGET ? 'met' : 'MISSED'}`,
  ],
  ['deep link: listSubscriptions try-it', `${fmt(median(operation))} ms`, 'navigation start → try-it panel'],
  ['version switch 2024-04-01 → 2023-02-10', `${fmt(median(switches))} ms`, 'select → new header shown'],
];
const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
console.log('Docs benchmark (headless Chromium, cache disabled, served by the mock at /docs)');
for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  '));
if (external.length > 0) {
  console.log(`Requests to other origins (blocked): ${[...new Set(external)].join(', ')}`);
  process.exitCode = 1;
}
