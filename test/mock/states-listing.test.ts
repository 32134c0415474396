/**
 * `GET /__mock/states` with a state file (issue 29 item 2): the inspector polls it once a second,
 * so what it lists of a state only in the file is read from the journal once and kept until that
 * state's lines change. A real journal with several states only in it (evicted: one state in
 * memory at a time), the journal's reads counted by a spy: a second listing reads nothing; a write
 * to one state re-reads only that one; a compaction re-reads each once; the listing equals the
 * one a store without the cache reads from the same journal at every step.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { MockEngine, Persistence } from '../../src/mock/browser.ts';
import { Journal } from '../../src/mock/persistence/journal.ts';
import { shortHash } from '../../src/mock/tokens/hash.ts';
import { engineOf, send } from './engine.ts';

interface Listed {
  id: string;
  where: 'memory' | 'file';
  changed: string[];
  snapshots: { name: string }[];
  origin: { snapshot: string } | null;
}

const journal = Journal.open(join(mkdtempSync(join(tmpdir(), 'mock-listing-')), 'state.jsonl'), { warn: () => {} });
afterAll(() => journal.close());

/** The same journal without `stamp`: a store over it reads every state on every listing (the uncached result). */
function uncached(of: Journal): Persistence {
  return {
    has: (token) => of.has(token),
    tokens: () => of.tokens(),
    load: (token) => of.load(token),
    append: (entry) => of.append(entry),
    definition: (id) => of.definition(id),
    get globalNames() {
      return of.globalNames;
    },
    // The journal keeps the load check the engine under test set (the same limits and schemas).
    get check() {
      return of.check;
    },
    set check(_ignored) {},
  };
}

const list = async (engine: MockEngine) =>
  (await send(engine, 'GET', '/__mock/states', { token: null })).json.states as Listed[];

const tokens = ['s0', 's1', 's2', 's3'];

describe('GET /__mock/states with a state file', () => {
  const engine = engineOf({ persistence: journal, limits: { maxTokenStates: 1 } });
  const loads = vi.spyOn(journal, 'load');
  const reads = vi.spyOn(journal, 'read');

  /** The states only in the file, as this engine lists them; the journal's reads counted during the listing. */
  async function listing(): Promise<{ files: Listed[]; loaded: string[]; bytesRead: number }> {
    loads.mockClear();
    reads.mockClear();
    const states = await list(engine);
    const loaded = loads.mock.calls.map(([token]) => shortHash(token));
    const bytesRead = reads.mock.calls.reduce((sum, [, length]) => sum + length, 0);
    const files = states.filter((s) => s.where === 'file');
    // The uncached result, read from the same journal now (its reads are not counted above).
    const fresh = await list(engineOf({ persistence: uncached(journal), limits: { maxTokenStates: 1 } }));
    expect(files).toEqual(fresh.filter((s) => files.some((f) => f.id === s.id)));
    return { files, loaded, bytesRead };
  }

  it('reads each state only in the file once, then nothing until its lines change', async () => {
    await send(engine, 'PUT', '/pages/1/', { token: 'setup', body: { title: 'prepared' } });
    expect(
      (await send(engine, 'POST', '/__mock/global-snapshots', { token: 'setup', body: { name: 'p' } })).status,
    ).toBe(201);
    for (const [i, token] of tokens.entries()) {
      if (token === 's3') await send(engine, 'POST', '/__mock/forks', { token, body: { snapshot: 'p' } });
      expect((await send(engine, 'PATCH', `/tickets/${i + 1}/`, { token, body: { subject: token } })).status).toBe(200);
      if (token === 's1') await send(engine, 'POST', '/__mock/snapshots', { token, body: { name: 'kept' } });
    }
    // The pivot: the one state in memory; s0-s3 and setup are only in the file.
    await send(engine, 'PATCH', '/tickets/9/', { token: 'pivot', body: { subject: 'pivot' } });

    const first = await listing();
    const onDisk = ['setup', ...tokens].map(shortHash).sort();
    expect(first.files.map((s) => s.id).sort()).toEqual(onDisk);
    expect(first.loaded.sort()).toEqual(onDisk);
    expect(first.files.find((s) => s.id === shortHash('s1'))?.snapshots.map((s) => s.name)).toEqual(['kept']);
    expect(first.files.find((s) => s.id === shortHash('s3'))?.origin?.snapshot).toBe('p');

    const second = await listing();
    expect(second.loaded).toEqual([]);
    expect(second.bytesRead).toBe(0);
    expect(second.files).toEqual(first.files);
  });

  it('re-reads only the state written since', async () => {
    // s1 writes another collection (loaded, the pivot evicted), then the pivot again (s1 evicted).
    expect((await send(engine, 'PUT', '/pages/2/', { token: 's1', body: { title: 'again' } })).status).toBe(200);
    await send(engine, 'PATCH', '/tickets/9/', { token: 'pivot', body: { subject: 'pivot again' } });
    const after = await listing();
    expect(after.loaded).toEqual([shortHash('s1')]);
    expect(after.files.find((s) => s.id === shortHash('s1'))?.changed.sort()).toEqual(['pages', 'tickets']);
    expect((await listing()).loaded).toEqual([]);
  });

  it('re-reads each state once after a compaction, its listing unchanged', async () => {
    const before = await listing();
    await journal.startCompaction();
    const after = await listing();
    expect(after.loaded.sort()).toEqual(before.files.map((s) => s.id).sort());
    expect(after.files).toEqual(before.files);
    expect((await listing()).loaded).toEqual([]);
  });
});
