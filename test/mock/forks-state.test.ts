/**
 * Forks with `--state FILE` (issue 30, docs/mock.md "Forks"): a fork survives a restart, is
 * journaled as a reference to its global snapshot plus its own changes (never a copy of the
 * snapshot's records), keeps its snapshot after that snapshot is replaced or deleted and the mock
 * restarted, is reloaded right after an eviction, and survives a compaction; a hand-edited global
 * snapshot that breaks the contract is skipped with the journal's warning, its forks left over the seed.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type MockServer, startMock } from '../../src/mock/index.ts';
import { Journal } from '../../src/mock/persistence/journal.ts';
import { shortHash } from '../../src/mock/tokens/hash.ts';
import { call } from './http.ts';

const dir = mkdtempSync(join(tmpdir(), 'mock-forks-'));

const subject = async (mock: MockServer, token: string, id = 1) =>
  (await call('GET', `/tickets/${id}/`, { baseUrl: mock.url, token })).json.subject as string;

/** Prepares (token setup writes tickets 1-5), saves global snapshot `prepared`, forks it as `a` and `b`. */
async function prepare(mock: MockServer): Promise<void> {
  const setup = { baseUrl: mock.url, token: 'setup' };
  for (let id = 1; id <= 5; id++)
    await call('PATCH', `/tickets/${id}/`, { ...setup, body: { subject: `prepared ${id} ${'x'.repeat(100)}` } });
  expect((await call('POST', '/__mock/global-snapshots', { ...setup, body: { name: 'prepared' } })).status).toBe(201);
  for (const token of ['a', 'b']) {
    const forked = await call('POST', '/__mock/forks', { baseUrl: mock.url, token, body: { snapshot: 'prepared' } });
    expect(forked.status).toBe(201);
  }
  await call('PATCH', '/tickets/1/', { baseUrl: mock.url, token: 'a', body: { subject: 'a wrote' } });
  await call('PATCH', '/tickets/2/', { baseUrl: mock.url, token: 'b', body: { subject: 'b wrote' } });
}

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('forks with --state FILE', () => {
  it('survive a restart, journaled as a reference plus their own changes', async () => {
    const file = join(dir, 'restart.jsonl');
    let mock = await startMock({ port: 0, statePath: file });
    await prepare(mock);
    await mock.close();

    const entries = lines(file);
    const globals = entries.filter((e) => e.op === 'global');
    expect(globals).toHaveLength(1);
    expect(globals[0]?.changes).toHaveLength(5);
    const ofA = entries.filter((e) => e.token === 'a');
    expect(ofA.map((e) => e.op)).toEqual(['fork', 'put']);
    expect(ofA[0]).not.toHaveProperty('changes');
    expect(ofA[1]?.changes).toHaveLength(1);

    mock = await startMock({ port: 0, statePath: file });
    try {
      expect(await subject(mock, 'a', 1)).toBe('a wrote');
      expect(await subject(mock, 'a', 2)).toMatch(/^prepared 2 /);
      expect(await subject(mock, 'b', 1)).toMatch(/^prepared 1 /);
      expect(await subject(mock, 'b', 2)).toBe('b wrote');
      const states = (await call('GET', '/__mock/states', { baseUrl: mock.url, token: null })).json.states;
      expect(states.filter((s: { origin: unknown }) => s.origin !== null)).toHaveLength(2);
      expect(await call('POST', '/__mock/reset', { baseUrl: mock.url, token: 'a', body: {} })).toMatchObject({
        status: 200,
      });
      expect(await subject(mock, 'a', 1)).toMatch(/^prepared 1 /);
      // A new fork after the restart, of the snapshot loaded from the file.
      await call('POST', '/__mock/forks', { baseUrl: mock.url, token: 'c', body: { snapshot: 'prepared' } });
      expect(await subject(mock, 'c', 3)).toMatch(/^prepared 3 /);
    } finally {
      await mock.close();
    }
  });

  it('keep their snapshot when it is replaced or deleted, across a restart, an eviction and a compaction', async () => {
    const file = join(dir, 'replaced.jsonl');
    let mock = await startMock({ port: 0, statePath: file, limits: { maxTokenStates: 2 } });
    await prepare(mock);
    const setup = { baseUrl: mock.url, token: 'setup' };
    await call('PATCH', '/tickets/1/', { ...setup, body: { subject: 'second' } });
    expect((await call('POST', '/__mock/global-snapshots', { ...setup, body: { name: 'prepared' } })).status).toBe(200);
    await call('POST', '/__mock/forks', { baseUrl: mock.url, token: 'c', body: { snapshot: 'prepared' } });
    expect((await call('DELETE', '/__mock/global-snapshots/prepared', { ...setup, body: {} })).status).toBe(204);
    // With two states in memory, a, b and c were evicted and are reloaded from the file.
    expect(await subject(mock, 'a', 1)).toBe('a wrote');
    expect(await subject(mock, 'b', 1)).toMatch(/^prepared 1 /);
    expect(await subject(mock, 'c', 1)).toBe('second');
    await mock.close();

    const journal = Journal.open(file, { minCompactBytes: 0 });
    await journal.startCompaction();
    await journal.close();
    expect(lines(file).filter((e) => e.op === 'global')).toHaveLength(2);

    mock = await startMock({ port: 0, statePath: file, limits: { maxTokenStates: 2 } });
    try {
      // Listed from the file alone (not loaded yet), each with the snapshot it lies over.
      const listed = (await call('GET', '/__mock/states', { baseUrl: mock.url, token: null })).json.states as {
        id: string;
        where: string;
        origin: { snapshot: string } | null;
      }[];
      for (const token of ['a', 'b', 'c']) {
        const state = listed.find((s) => s.id === shortHash(token));
        expect(state).toMatchObject({ where: 'file', origin: { snapshot: 'prepared' } });
      }
      expect(listed.find((s) => s.id === shortHash('setup'))?.origin).toBeNull();
      expect(await subject(mock, 'a', 1)).toBe('a wrote');
      expect(await subject(mock, 'b', 1)).toMatch(/^prepared 1 /);
      expect(await subject(mock, 'b', 2)).toBe('b wrote');
      expect(await subject(mock, 'c', 1)).toBe('second');
      await call('POST', '/__mock/reset', { baseUrl: mock.url, token: 'b', body: {} });
      expect(await subject(mock, 'b', 2)).toMatch(/^prepared 2 /);
      expect(
        (await call('GET', '/__mock/global-snapshots', { baseUrl: mock.url, token: null })).json.snapshots,
      ).toEqual([]);
      const refused = await call('POST', '/__mock/forks', {
        baseUrl: mock.url,
        token: 'd',
        body: { snapshot: 'prepared' },
      });
      expect(refused.status).toBe(404);
    } finally {
      await mock.close();
    }
  });

  it('skips a hand-edited global snapshot whose records break the contract, naming its offset', async () => {
    const file = join(dir, 'hand-edited.jsonl');
    const header = '{"format":"store-admin-mock-state","version":1}\n';
    const bad = {
      op: 'global',
      name: 'bad',
      id: 'x1',
      at: '2026-01-01T00:00:00.000Z',
      changes: [['tickets', '1', { id: 1, subject: 7 }]],
    };
    const fork = { op: 'fork', token: 'f', name: 'bad', id: 'x1', at: bad.at };
    writeFileSync(file, `${header}${JSON.stringify(bad)}\n${JSON.stringify(fork)}\n`);
    const warnings: string[] = [];
    const mock = await startMock({ port: 0, statePath: file, warn: (m) => warnings.push(m) });
    try {
      expect(
        (await call('GET', '/__mock/global-snapshots', { baseUrl: mock.url, token: null })).json.snapshots,
      ).toEqual([]);
      expect(warnings.join('\n')).toMatch(new RegExp(`line at byte ${header.length} skipped \\(tickets \\(id 1\\)`));
      const seeded = await subject(mock, 'someone', 1);
      expect(await subject(mock, 'f', 1)).toBe(seeded);
    } finally {
      await mock.close();
    }
  });
});
