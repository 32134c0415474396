/**
 * Token states are evicted by last use (issue 18): an active token keeps its writes while 5,000
 * other tokens each write once; a state evicted without a state file is refused (410) instead of
 * silently reading the seeded data; with a state file an evicted state is reloaded; the memory
 * budget bounds the estimated bytes held.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_TOKEN_STATES, startMock } from '../../src/mock/index.ts';
import { engineOf, send } from './engine.ts';
import { call } from './http.ts';

const subjectOf = async (engine: ReturnType<typeof engineOf>, token: string, id = 1) =>
  (await send(engine, 'GET', `/tickets/${id}/`, { token })).json.subject;

describe('eviction by last use', () => {
  it('an active token keeps its writes while 5,000 other tokens each write once', async () => {
    const engine = engineOf();
    await send(engine, 'PATCH', '/tickets/1/', { token: 'active', body: { subject: 'mine' } });
    for (let i = 0; i < 5000; i++) {
      const status = (await send(engine, 'PATCH', '/tickets/2/', { token: `other-${i}`, body: { subject: `o${i}` } }))
        .status;
      expect(status).toBe(200);
      // The active token is used now and then (fewer than MAX_TOKEN_STATES writes apart).
      if (i % 500 === 0) expect(await subjectOf(engine, 'active')).toBe('mine');
    }
    expect(await subjectOf(engine, 'active')).toBe('mine');
    expect(await subjectOf(engine, 'other-4999', 2)).toBe('o4999');
    const states = (await send(engine, 'GET', '/__mock/states', { token: null })).json;
    expect(states.usage.states).toBe(MAX_TOKEN_STATES);

    // A token evicted long ago is refused, naming why, until it is reset.
    const gone = await send(engine, 'GET', '/tickets/2/', { token: 'other-0' });
    expect(gone.status).toBe(410);
    expect(gone.json.type).toBe('urn:store-admin-mock:state-evicted');
    expect(gone.json.detail).toContain('--state');
    expect((await send(engine, 'PATCH', '/tickets/2/', { token: 'other-0', body: { subject: 'x' } })).status).toBe(410);
    expect((await send(engine, 'POST', '/__mock/reset', { token: 'other-0', body: {} })).status).toBe(200);
    expect((await send(engine, 'GET', '/tickets/2/', { token: 'other-0' })).status).toBe(200);
  }, 120_000);

  it('keeps the estimated bytes of the states under the memory budget', async () => {
    const engine = engineOf({ limits: { memoryBudget: 64 * 1024 } });
    for (let i = 0; i < 100; i++) {
      await send(engine, 'PATCH', '/tickets/3/', { token: `budget-${i}`, body: { subject: 'x'.repeat(200) } });
    }
    const { usage } = (await send(engine, 'GET', '/__mock/states', { token: null })).json;
    expect(usage.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(usage.states).toBeGreaterThan(1);
    expect(usage.states).toBeLessThan(100);
    expect(await subjectOf(engine, 'budget-99', 3)).toBe('x'.repeat(200));
  });

  it('with a state file, reloads an evicted state on its next request', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mock-evict-')), 'state.jsonl');
    const mock = await startMock({ port: 0, statePath: file, limits: { maxTokenStates: 20 } });
    try {
      for (let i = 0; i < 60; i++) {
        const body = { subject: `reload-${i}` };
        expect((await call('PATCH', '/tickets/5/', { baseUrl: mock.url, token: `reload-${i}`, body })).status).toBe(
          200,
        );
      }
      const states = (await call('GET', '/__mock/states', { baseUrl: mock.url, token: null })).json.states;
      expect(states.filter((s: { where: string }) => s.where === 'memory')).toHaveLength(20);
      expect(states.filter((s: { where: string }) => s.where === 'file')).toHaveLength(40);
      for (const i of [0, 1, 39]) {
        const read = await call('GET', '/tickets/5/', { baseUrl: mock.url, token: `reload-${i}` });
        expect(read.json.subject).toBe(`reload-${i}`);
      }
    } finally {
      await mock.close();
    }
  });
});
