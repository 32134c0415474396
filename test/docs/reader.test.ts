// The reference as a reader sees it, at 1280 and 1440 px in headless Chromium, served by the mock at
// /docs: try-it's send button shows its whole label, the version switcher looks like a dropdown,
// the try-it base URL is shown once, a parameter's example reads without backslashes, and
// "UNLICENSED" is text, not a link; try-it's column is at least 400 px wide and cuts no text. Each is asserted through the DOM; the pictures go to
// test/.artifacts/docs/, and with UPDATE_DOCS_IMAGES=1 to docs/images/ (committed, shown in
// docs/reference.md).
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMock } from '../../src/mock/index.ts';
import { type Browser, launchBrowser } from '../helpers/browser.ts';
import { ROOT, VERSIONS } from '../helpers/bundles.ts';

const ARTIFACTS = join(ROOT, 'test', '.artifacts', 'docs');
const IMAGES = join(ROOT, 'docs', 'images');

let browser: Browser;
let mock: MockServer;

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  [browser, mock] = await Promise.all([launchBrowser(), startMock({ port: 0 })]);
}, 60_000);

afterAll(async () => {
  await Promise.all([browser?.close(), mock?.close()]);
});

/** Saves the picture of what the page shows (and, on request, the committed copy in docs/images). */
async function picture(page: Page, name: string): Promise<void> {
  const file = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file });
  if (process.env.UPDATE_DOCS_IMAGES === '1') {
    await mkdir(IMAGES, { recursive: true });
    await copyFile(file, join(IMAGES, `${name}.png`));
  }
}

async function open(width: number, hash: string): Promise<Page> {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height: 900 });
  await page.goto(`${mock.url}/docs/${hash}`);
  await page.waitForSelector('elements-api h1', { timeout: 20_000 });
  return page;
}

// One page: at each width the Overview, then the operation through its link (the hash), as a reader
// clicks to it; the second width is the same page resized, as a reader widens the window. A page
// load would parse and render the whole reference again (~1.6 s of Chromium's CPU).
const WIDTHS = [1280, 1440] as const;
let page: Page;
beforeAll(async () => {
  page = await open(WIDTHS[0], '');
});
afterAll(() => page?.close());

describe.each(WIDTHS)('at %i px', (width) => {
  beforeAll(async () => {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => {
      location.hash = '#/';
    });
  });

  it('the Overview: a dropdown version switcher, one base URL, the licence as text', async () => {
    await page.waitForSelector('text=Additional Information');
    const select = await page.locator('#docs-version').evaluate((element) => {
      const style = getComputedStyle(element);
      return {
        tag: element.tagName,
        options: [...(element as HTMLSelectElement).options].map((o) => o.value),
        cursor: style.cursor,
        border: Number.parseFloat(style.borderTopWidth),
        chevron: style.backgroundImage,
      };
    });
    expect(select).toMatchObject({ tag: 'SELECT', options: [...VERSIONS], cursor: 'pointer', border: 1 });
    expect(select.chevron).toContain('svg');

    const text = await page.locator('elements-api').innerText();
    expect(text.split(mock.url).length - 1, 'the try-it base URL, once').toBe(1);
    expect(text).not.toContain('127.0.0.1:4010'); // the bundle's default server, a second base URL
    expect(text).not.toContain('{base_url}');

    expect(text).toContain('UNLICENSED');
    expect(await page.locator('elements-api a[href]', { hasText: 'UNLICENSED' }).count()).toBe(0);
    await picture(page, `reference-overview-${width}`);
  });

  it('an operation: the whole try-it button label, a try-it column of at least 400 px cutting no text, examples without backslashes', async () => {
    await page.evaluate(() => {
      location.hash = '#/operations/listSubscriptions';
    });
    const send = page.getByRole('button', { name: 'Send API Request' });
    await send.waitFor();
    const fits = await send.evaluate((button) => ({
      label: (button as HTMLElement).innerText,
      overflow: button.scrollWidth - button.clientWidth,
    }));
    expect(fits).toEqual({ label: 'Send API Request', overflow: 0 });

    // Issue 27: at 1280 px the try-it column was 313 px wide and cut its parameter grid (340 px of
    // content in 313). Now at least 400 px, and no element of the column cuts its text (code
    // blocks scroll by design; the visually hidden native selects measure 1 px).
    const column = await page.locator('.TryItPanel').evaluate((panel) => {
      const root = (panel.closest('.HttpOperation > .sl-flex > *') ?? panel) as HTMLElement;
      const cut = [...root.querySelectorAll<HTMLElement>('*')]
        .filter((e) => e.clientWidth > 1 && e.scrollWidth > e.clientWidth && !e.closest('pre'))
        .map((e) => `${e.className} (${e.scrollWidth} > ${e.clientWidth}): ${e.innerText.slice(0, 40)}`);
      const token = root.querySelector<HTMLInputElement>('input[aria-label="Token"]');
      return {
        width: Math.round(root.getBoundingClientRect().width),
        cut,
        token: token && token.scrollWidth <= token.clientWidth,
      };
    });
    expect(column.width).toBeGreaterThanOrEqual(400);
    expect(column.cut).toEqual([]);
    expect(column.token, 'the whole try-it token shows').toBe(true);

    const placeholders = await page
      .locator('elements-api input[placeholder]')
      .evaluateAll((inputs) => inputs.map((input) => input.getAttribute('placeholder') ?? ''));
    expect(placeholders).toContain('example: ["12"]'); // agents
    expect(placeholders.filter((p) => p.includes('\\'))).toEqual([]);
    await picture(page, `reference-operation-${width}`);
  });
});
