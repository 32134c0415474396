/**
 * Opens a rendered docs page in headless Chromium and lists what a reader would miss: an
 * operation that is not shown, a scope that is not in its Security panel, an example that is not in
 * its sample panels, an external resource the page needs (it must work offline). Shared by the
 * docs test and its negative control (a doctored bundle the checker must flag).
 */
import type { Page } from 'playwright-core';
import type { Browser } from '../helpers/browser.ts';
import { deref, type Json } from '../helpers/bundles.ts';

export { type Browser, CHROMIUM, launchBrowser } from '../helpers/browser.ts';

export interface ExpectedOperation {
  operationId: string;
  method: string;
  path: string;
  scopes: readonly string[];
  /** The example shown first in the response sample panel (first 2xx response), if any. */
  responseExample?: Json;
  /** The example shown first in the request payload panel, if the operation takes a body. */
  requestExample?: Json;
}

/** The first example of a media type: `example`, else the first of `examples` (resolved). */
function firstExample(bundle: Json, mediaType: Json): Json {
  if (!mediaType) return undefined;
  if (mediaType.example !== undefined) return mediaType.example;
  const first = Object.values<Json>(mediaType.examples ?? {})[0];
  return first === undefined ? undefined : deref(bundle, first).value;
}

/** The examples the page must show for one operation of the bundle (undefined if it is not there). */
export function examplesOf(
  bundle: Json,
  operationId: string,
): Pick<ExpectedOperation, 'responseExample' | 'requestExample'> {
  for (const item of Object.values<Json>(bundle.paths ?? {})) {
    for (const operation of Object.values<Json>(deref(bundle, item))) {
      if (operation?.operationId !== operationId) continue;
      const [, response] = Object.entries<Json>(operation.responses ?? {}).find(([code]) => /^2/.test(code)) ?? [];
      const body = deref(bundle, operation.requestBody);
      return {
        responseExample: firstExample(bundle, deref(bundle, response)?.content?.['application/json']),
        requestExample: firstExample(bundle, body?.content?.['application/json']),
      };
    }
  }
  return {};
}

const isPrimitive = (value: unknown): boolean => value === null || typeof value !== 'object';

/**
 * Text fragments an example must put in its sample panel, as Redoc prints JSON (`"key": value`).
 * Redoc folds containers below the second level, so fragments come from the first two levels,
 * breadth first. Values are preferred to keys: a sample Redoc generates from the schema when an
 * example is missing has the same keys, but placeholder values.
 */
export function probesOf(example: Json): string[] {
  if (isPrimitive(example)) return [JSON.stringify(example)];
  const values: string[] = [];
  const keys: string[] = [];
  let level: Json[] = [example];
  for (let depth = 1; depth <= 2 && values.length < 3; depth++) {
    const next: Json[] = [];
    for (const container of level) {
      for (const [key, value] of Object.entries<Json>(container)) {
        const label = Array.isArray(container) ? '' : `${JSON.stringify(key)}: `;
        if (!isPrimitive(value)) next.push(value);
        else if (value !== null) values.push(`${label}${JSON.stringify(value)}`);
        if (depth === 1 && label) keys.push(`${JSON.stringify(key)}:`);
      }
    }
    level = next;
  }
  if (values.length > 0) return values.slice(0, 3);
  if (keys.length > 0) return keys.slice(0, 3);
  return [Array.isArray(example) ? '[]' : '{}'];
}

const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

interface ShownOperation {
  id: string;
  endpoint: string;
  security: string;
  response: string;
  request: string;
}

/**
 * Reads every operation section of the current tag page. (No named functions inside: tsx/esbuild
 * would wrap them in a `__name` helper that does not exist in the page.)
 */
const readOperations = (page: Page): Promise<ShownOperation[]> =>
  page.$$eval('[data-item-kind="httpItem"]', (items) =>
    items.map((item) => {
      const panels = [...item.querySelectorAll<HTMLElement>('[data-component-name="Panel/Panel"]')];
      const right = [
        ...item.querySelectorAll<HTMLElement>('[data-testid="right-panel"] [data-component-name="Panel/Panel"]'),
      ];
      const response = right.find((p) => p.innerText.trim().startsWith('Response'));
      const request = right.find((p) =>
        /Payload/.test(p.querySelector<HTMLElement>('[data-component-name="Panel/PanelHeader"]')?.innerText ?? ''),
      );
      return {
        id: item.id,
        endpoint:
          item.querySelector<HTMLElement>('[data-testid="right-panel"] [data-testid="dropdown"] button')?.innerText ??
          '',
        security: panels.find((p) => p.innerText.trim().startsWith('Security'))?.innerText ?? '',
        response: response?.querySelector<HTMLElement>('pre')?.innerText ?? '',
        request: request?.querySelector<HTMLElement>('pre')?.innerText ?? '',
      };
    }),
  );

export interface PageReport {
  problems: string[];
  /** External URLs the page tried to load (all were blocked). */
  external: string[];
}

/**
 * Opens `url` with every non-file request blocked, visits each tag page from the sidebar and
 * checks each expected operation. `tags` are the tag names of the bundle.
 */
export async function checkDocsPage(
  browser: Browser,
  url: string,
  tags: readonly string[],
  expected: readonly ExpectedOperation[],
  screenshot?: string,
): Promise<PageReport> {
  const problems: string[] = [];
  const external: string[] = [];
  const page = await browser.context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.route('**/*', (route) => {
    const request = route.request();
    if (/^(file|data|blob):/.test(request.url())) return route.continue();
    external.push(request.url());
    // A decorative image (Redocly's footer logo) may fail; anything else would break offline use.
    if (request.resourceType() !== 'image')
      problems.push(`needs the network: ${request.resourceType()} ${request.url()}`);
    return route.abort();
  });
  try {
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('a[href]', { timeout: 15_000 });
    const shown = new Map<string, ShownOperation>();
    for (const tag of tags) {
      const link = page.locator('a', {
        hasText: new RegExp(`^\\s*${tag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`),
      });
      if ((await link.count()) === 0) {
        problems.push(`tag "${tag}" is not in the sidebar`);
        continue;
      }
      const href = (await link.first().getAttribute('href')) ?? '';
      await link.first().click();
      const slug = href.replace(/^[#/]+/, '');
      // The tag page renders its operations lazily: open each from its sidebar link instead.
      await page.waitForSelector(`a[href^="#/${slug}/"]`, { timeout: 5_000 }).catch(() => undefined);
      const hrefs = await page.$$eval(`a[href^="#/${slug}/"]`, (links) => [
        ...new Set(links.map((a) => a.getAttribute('href') ?? '').filter((h) => /^#\/[^/#]+\/[^/#]+$/.test(h))),
      ]);
      if (hrefs.length === 0) problems.push(`tag "${tag}" lists no operation`);
      for (const opHref of hrefs) {
        await page.locator(`a[href="${opHref}"]`).first().click();
        const id = opHref.slice(2);
        const found = await page
          .waitForSelector(`[data-item-kind="httpItem"][id="${id}"] [data-testid="right-panel"] pre`, {
            timeout: 10_000,
          })
          .then(() => true)
          .catch(() => false);
        if (!found) problems.push(`${id}: the sidebar links it but the page does not render it`);
        for (const operation of await readOperations(page)) if (operation.id === id) shown.set(id, operation);
      }
      if (screenshot && tag === tags[0] && hrefs[0]) {
        // The first operation, scrolled so that its response sample shows.
        await page.locator(`a[href="${hrefs[0]}"]`).first().click();
        await page.locator(`[id="${hrefs[0].slice(2)}/responses"]`).scrollIntoViewIfNeeded();
        await page.screenshot({ path: screenshot });
      }
    }
    for (const want of expected) {
      const name = `${want.operationId} (${want.method.toUpperCase()} ${want.path})`;
      const suffix = `/${want.operationId.toLowerCase()}`;
      const got = [...shown.values()].find((op) => op.id.endsWith(suffix) && op.id.split('/').length === 2);
      if (!got) {
        problems.push(`${name}: not shown`);
        continue;
      }
      if (!squash(got.endpoint).includes(`${want.method.toUpperCase()} ${want.path}`)) {
        problems.push(`${name}: endpoint shown as "${squash(got.endpoint)}"`);
      }
      for (const scope of want.scopes) {
        if (!got.security.includes(scope)) problems.push(`${name}: scope ${scope} not in its Security panel`);
      }
      if (want.responseExample === undefined) problems.push(`${name}: the bundle has no 2xx response example`);
      const samples: [string, Json, string][] = [
        ['response', want.responseExample, got.response],
        ['request', want.requestExample, got.request],
      ];
      for (const [where, example, panel] of samples) {
        if (example === undefined) continue;
        const missing = probesOf(example).filter((probe) => !squash(panel).includes(probe));
        if (missing.length > 0) {
          problems.push(
            `${name}: ${where} example not shown (missing ${missing.join(', ')}; panel: "${squash(panel).slice(0, 80)}")`,
          );
        }
      }
    }
  } finally {
    await page.close();
  }
  return { problems, external };
}
