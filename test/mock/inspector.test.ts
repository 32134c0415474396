/**
 * The inspector at /__mock/ in Chromium (issue 18): a request made by the test shows up on the page
 * (method, path, version, status, its problem's fields when expanded), filters by status and path,
 * and its buttons snapshot and reset a state; each state shows its token's hint, where it lives
 * (memory, the state file) and what it changed, also when only in the state file (issue 27),
 * a fork's global snapshot, and its Coverage panel shows what the requests never exercised (issue 30).
 * `UPDATE_DOCS_IMAGES=1` rewrites docs/images/inspector.png.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versionOf } from '../../src/contract/index.ts';
import { type MockServer, startMock } from '../../src/mock/index.ts';
import { type Browser, launchBrowser } from '../helpers/browser.ts';
import { ROOT } from '../helpers/bundles.ts';
import { call } from './http.ts';

let mock: MockServer;
let browser: Browser;
beforeAll(async () => {
  [mock, browser] = await Promise.all([startMock({ port: 0 }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await mock?.close();
});

describe('the inspector page', () => {
  it('shows the test’s requests live, expands a refusal, filters, snapshots and resets from its buttons', async () => {
    const page = await browser.context.newPage();
    const external: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(mock.url)) external.push(request.url());
    });
    await page.goto(`${mock.url}/__mock/`);
    const options = { baseUrl: mock.url, token: 'inspected' };
    await call('PATCH', '/tickets/6/', { ...options, body: { subject: 'Seen by the inspector' } });
    await call('PATCH', '/tickets/6/', { ...options, body: { priority: 'whenever' } });
    await call('GET', '/subscriptions/', { ...options, query: 'status=active', version: '2023-02-10' });

    const refused = page.locator('tr.req', { hasText: '422' });
    await refused.waitFor({ timeout: 10_000 });
    expect(await refused.textContent()).toContain('/tickets/6/');
    await refused.click();
    await expect.poll(() => page.locator('main').textContent()).toContain('body.priority');
    expect(await page.locator('tr.req', { hasText: '/subscriptions/?status=active' }).textContent()).toContain(
      '2023-02-10',
    );

    await page.selectOption('#status', '4');
    await expect.poll(() => page.locator('tr.req').count()).toBe(1);
    await page.selectOption('#status', '');
    await page.fill('#path', 'subscriptions');
    await expect.poll(() => page.locator('tr.req').count()).toBe(1);
    await page.fill('#path', '');

    const state = page.locator('.state', { hasText: 'tickets' });
    await state.waitFor();
    page.once('dialog', (dialog) => void dialog.accept('from-the-page'));
    await state.getByRole('button', { name: 'Snapshot' }).click();
    await expect.poll(async () => (await call('GET', '/__mock/snapshots', options)).json.snapshots.length).toBe(1);
    await page.locator('.state').getByRole('button', { name: 'Restore from-the-page' }).waitFor();
    await page.locator('tr.req').first().click();
    if (process.env.UPDATE_DOCS_IMAGES) {
      mkdirSync(join(ROOT, 'docs/images'), { recursive: true });
      await page.screenshot({ path: join(ROOT, 'docs/images/inspector.png') });
    }
    await state.getByRole('button', { name: 'Reset' }).click();
    await expect
      .poll(async () => (await call('GET', '/tickets/6/', options)).json.subject)
      .not.toBe('Seen by the inspector');
    expect(external).toEqual([]);
  }, 60_000);

  it('shows a fork with the global snapshot it lies over (issue 30)', async () => {
    const setup = { baseUrl: mock.url, token: 'inspector-setup' };
    await call('PATCH', '/tickets/3/', { ...setup, body: { subject: 'Prepared' } });
    expect((await call('POST', '/__mock/global-snapshots', { ...setup, body: { name: 'inspected' } })).status).toBe(
      201,
    );
    const fork = { baseUrl: mock.url, token: 'inspector-fork-token-4321' };
    expect((await call('POST', '/__mock/forks', { ...fork, body: { snapshot: 'inspected' } })).status).toBe(201);
    const page = await browser.context.newPage();
    try {
      await page.goto(`${mock.url}/__mock/`);
      const shown = () => page.locator('.state', { hasText: 'token insp…4321' }).innerText();
      await expect.poll(shown).toContain('fork of global snapshot inspected (');
      expect(await shown()).toContain('changed: nothing (it reads its global snapshot inspected)');
    } finally {
      await page.close();
    }
  });

  it('shows each state by its token’s hint, where it lives and what it changed, also one only in the state file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inspector-'));
    // One state in memory at most: a second token's write sends the first to the state file only.
    const durable = await startMock({ port: 0, statePath: join(dir, 'state.jsonl'), limits: { maxTokenStates: 1 } });
    const page = await browser.context.newPage();
    try {
      const first = { baseUrl: durable.url, token: 'first-reader-token-1234' };
      const second = { baseUrl: durable.url, token: 'second-reader-token-5678' };
      expect((await call('PATCH', '/tickets/6/', { ...first, body: { subject: 'Kept in the file' } })).status).toBe(
        200,
      );
      expect((await call('PATCH', '/tickets/7/', { ...second, body: { subject: 'Kept in memory' } })).status).toBe(200);

      const listed = async () => {
        const { states } = (await call('GET', '/__mock/states', { baseUrl: durable.url })).json;
        return Object.fromEntries(
          states.map((s: Record<string, unknown>) => [s.hint, [s.where, s.durable, s.fromFile, s.changed]]),
        );
      };
      expect(await listed()).toEqual({
        'fir…234': ['file', true, true, ['tickets']],
        'seco…5678': ['memory', true, false, ['tickets']],
      });
      await page.goto(`${durable.url}/__mock/`);
      const shown = (hint: string) => page.locator('.state', { hasText: `token ${hint}` }).innerText();
      await expect.poll(() => shown('fir…234')).toContain('in the state file only (loaded on its next request)');
      expect(await shown('fir…234')).toContain('changed: tickets');
      expect(await shown('seco…5678')).toContain('in memory, saved to the state file');
      expect(await shown('seco…5678')).toContain('changed: tickets');
      expect(await page.locator('#states').innerText()).not.toContain(first.token);

      // The first token's next request loads its state back from the file (and evicts the second).
      await call('GET', '/tickets/6/', first);
      expect((await listed())['fir…234']).toEqual(['memory', true, true, ['tickets']]);
      await expect.poll(() => shown('fir…234')).toContain('in memory, loaded from the state file');
    } finally {
      await page.close();
      await durable.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('marks a request with a misspelled filter and says which parameter was ignored (issue 27)', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${mock.url}/__mock/`);
    await call('GET', '/subscriptions/', { baseUrl: mock.url, token: 'misspelled', query: 'statuss=active' });
    const row = page.locator('tr.req', { hasText: '/subscriptions/?statuss=active' });
    await row.waitFor({ timeout: 10_000 });
    expect(await row.textContent()).toContain('⚠');
    await row.click();
    await expect
      .poll(() => page.locator('main').textContent())
      .toContain('Warning: unknown query parameters, ignored: statuss');
    // The Coverage panel (issue 30): the percentage, and per operation what was never exercised.
    await expect
      .poll(() => page.locator('#coverage-summary').textContent())
      .toMatch(/^\d+\.\d% of \d+ items exercised by \d+ requests \(status \d+\/\d+, filter/);
    const listed = page.locator(`[data-operation="listSubscriptions ${versionOf('GET', '/subscriptions/')}"]`);
    expect(await listed.locator('.never').textContent()).toMatch(/^never: status 400, /);
    expect(await listed.locator('.never').textContent()).not.toContain('status 200');
    await page.close();
  }, 60_000);
});
