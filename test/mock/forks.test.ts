/**
 * Forks of global snapshots (issue 30, docs/mock.md "Forks"), through the engine in process: a
 * property test over random writes in several forks (each fork equals its snapshot plus its own
 * writes, the snapshot unchanged); a fork shares its snapshot's records until it writes; reset
 * brings it back to its snapshot, not the seed; replacing or deleting the snapshot does not change
 * it; the admin endpoints and their refusals, each naming its field and rule.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MockEngine } from '../../src/mock/index.ts';
import { shortHash } from '../../src/mock/tokens/hash.ts';
import { engineOf, send } from './engine.ts';

const subjectOf = (engine: MockEngine, token: string | undefined, id: number) =>
  engine.inspect(token).get('tickets', id)?.subject as string;
const titleOf = (engine: MockEngine, token: string | undefined, id: number) =>
  engine.inspect(token).get('pages', id)?.title as string;

/** The prepared store: token `setup` writes tickets 1-3 and page 1, then saves it as global snapshot `prepared`. */
async function prepared(engine: MockEngine): Promise<void> {
  for (const id of [1, 2, 3]) {
    const r = await send(engine, 'PATCH', `/tickets/${id}/`, { token: 'setup', body: { subject: `prepared ${id}` } });
    expect(r.status).toBe(200);
  }
  expect((await send(engine, 'PUT', '/pages/1/', { token: 'setup', body: { title: 'prepared' } })).status).toBe(200);
  await engine.snapshot('prepared', 'setup', { global: true });
}

describe('forks of a global snapshot (engine)', () => {
  it('property: each fork equals its snapshot plus its own writes; the snapshot and the seed stay unchanged', async () => {
    const write = fc.record({
      fork: fc.nat({ max: 3 }),
      kind: fc.constantFrom('ticket', 'page'),
      id: fc.integer({ min: 1, max: 12 }),
      text: fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim().length > 0),
    });
    // One engine for every run: each run forks anew, so runs are as independent as forks are.
    const engine = engineOf();
    await prepared(engine);
    const seeded = engineOf();
    await fc.assert(
      fc.asyncProperty(fc.array(write, { maxLength: 30 }), async (writes) => {
        const snapshotSubjects = Array.from({ length: 12 }, (_, i) => subjectOf(engine, 'setup', i + 1));
        const snapshotTitles = Array.from({ length: 12 }, (_, i) => titleOf(engine, 'setup', i + 1));
        const forks = await Promise.all([0, 1, 2, 3].map(() => engine.fork('prepared')));
        // The model: per fork, the snapshot's values overwritten by its own writes.
        const expected = forks.map(() => ({ tickets: [...snapshotSubjects], pages: [...snapshotTitles] }));
        for (const { fork, kind, id, text } of writes) {
          const token = forks[fork] as string;
          const r =
            kind === 'ticket'
              ? await send(engine, 'PATCH', `/tickets/${id}/`, { token, body: { subject: text } })
              : await send(engine, 'PUT', `/pages/${id}/`, { token, body: { title: text } });
          expect(r.status).toBe(200);
          const model = expected[fork] as { tickets: string[]; pages: string[] };
          (kind === 'ticket' ? model.tickets : model.pages)[id - 1] = text;
        }
        forks.forEach((token, f) => {
          for (let id = 1; id <= 12; id++) {
            expect(subjectOf(engine, token, id)).toBe(expected[f]?.tickets[id - 1]);
            expect(titleOf(engine, token, id)).toBe(expected[f]?.pages[id - 1]);
          }
        });
        for (let id = 1; id <= 12; id++) {
          expect(subjectOf(engine, 'setup', id)).toBe(snapshotSubjects[id - 1]);
          expect(subjectOf(engine, 'someone-else', id)).toBe(subjectOf(seeded, undefined, id));
        }
        // A fork's snapshot is unchanged: a new fork reads exactly the prepared values.
        const fresh = await engine.fork('prepared');
        for (let id = 1; id <= 12; id++) expect(subjectOf(engine, fresh, id)).toBe(snapshotSubjects[id - 1]);
      }),
      { numRuns: 40, seed: 30 },
    );
  });

  it('shares its snapshot records until it writes, and costs only what it writes (GET /__mock/states)', async () => {
    const engine = engineOf();
    await prepared(engine);
    const a = await engine.fork('prepared');
    const b = await engine.fork('prepared');
    // The same record objects: nothing copied.
    expect(engine.inspect(a).get('tickets', 1)).toBe(engine.inspect(b).get('tickets', 1));
    expect(engine.inspect(a).list('subscriptions')).toBe(engine.inspect(b).list('subscriptions'));
    await send(engine, 'PATCH', '/tickets/2/', { token: a, body: { subject: 'mine' } });
    expect(engine.inspect(a).get('tickets', 1)).toBe(engine.inspect(b).get('tickets', 1));
    expect(engine.inspect(a).list('subscriptions')).toBe(engine.inspect(b).list('subscriptions'));
    const states = (await send(engine, 'GET', '/__mock/states', { token: null })).json.states as {
      id: string;
      bytes: number;
      changed: string[];
      origin: { snapshot: string; at: string } | null;
    }[];
    const [setup, forkA, forkB] = ['setup', a, b].map((t) => states.find((s) => s.id === shortHash(t)));
    if (!setup) throw new Error('no state of token setup');
    expect(setup.origin).toBeNull();
    expect(forkB?.origin?.snapshot).toBe('prepared');
    expect(forkB?.bytes).toBe(0);
    expect(forkB?.changed).toEqual([]);
    expect(forkA?.changed).toEqual(['tickets']);
    expect(forkA?.bytes).toBeGreaterThan(0);
    expect(forkA?.bytes).toBeLessThan(setup.bytes);
  });

  it('resets to its snapshot, not the seed; keeps its copy when the snapshot is replaced or deleted', async () => {
    const engine = engineOf();
    await prepared(engine);
    const fork = await engine.fork('prepared', 'worker-1');
    expect(fork).toBe('worker-1');
    await send(engine, 'PATCH', '/tickets/1/', { token: fork, body: { subject: 'changed' } });
    await engine.reset(fork);
    expect(subjectOf(engine, fork, 1)).toBe('prepared 1');
    // Replaced: the fork, and its reset, keep the snapshot it started from; a new fork gets the new one.
    await send(engine, 'PATCH', '/tickets/1/', { token: 'setup', body: { subject: 'second' } });
    await engine.snapshot('prepared', 'setup', { global: true });
    expect(subjectOf(engine, fork, 1)).toBe('prepared 1');
    await engine.reset(fork);
    expect(subjectOf(engine, fork, 1)).toBe('prepared 1');
    expect(subjectOf(engine, await engine.fork('prepared'), 1)).toBe('second');
    // Deleted: the same.
    expect((await send(engine, 'DELETE', '/__mock/global-snapshots/prepared', { token: null, body: {} })).status).toBe(
      204,
    );
    await engine.reset();
    expect(subjectOf(engine, fork, 1)).toBe('prepared 1');
    await expect(engine.fork('prepared')).rejects.toThrow('No global snapshot named "prepared"');
  });

  it('POST /__mock/forks gives a new token (or forks the bearer token) and refuses what it cannot do, naming field and rule', async () => {
    const engine = engineOf();
    await send(engine, 'PATCH', '/tickets/1/', { token: 'setup', body: { subject: 'over http' } });
    const made = await send(engine, 'POST', '/__mock/global-snapshots', { token: 'setup', body: { name: 'http' } });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({ name: 'http', collections: ['tickets'] });
    const again = await send(engine, 'POST', '/__mock/global-snapshots', { token: 'setup', body: { name: 'http' } });
    expect(again.status).toBe(200);
    const list = await send(engine, 'GET', '/__mock/global-snapshots', { token: null });
    expect(list.json.snapshots.map((s: { name: string }) => s.name)).toEqual(['http']);

    const forked = await send(engine, 'POST', '/__mock/forks', { token: null, body: { snapshot: 'http' } });
    expect(forked.status).toBe(201);
    expect(forked.json).toMatchObject({ snapshot: 'http', at: again.json.at });
    const token = forked.json.token as string;
    expect(token).toMatch(/^fork-[0-9a-f]{32}$/);
    expect((await send(engine, 'GET', '/tickets/1/', { token })).json.subject).toBe('over http');
    const mine = await send(engine, 'POST', '/__mock/forks', { token: 'chosen', body: { snapshot: 'http' } });
    expect(mine.json.token).toBe('chosen');
    expect((await send(engine, 'GET', '/tickets/1/', { token: 'chosen' })).json.subject).toBe('over http');

    const unknown = await send(engine, 'POST', '/__mock/forks', { token: null, body: { snapshot: 'nope' } });
    expect(unknown.status).toBe(404);
    expect(unknown.json.detail).toContain('"nope"');
    expect(unknown.json.validation[0]).toMatchObject({ field: 'body.snapshot', rule: 'exists' });
    for (const [body, rule] of [
      [{ snapshot: '../x' }, 'pattern'],
      [{}, 'required'],
      [{ snapshot: 7 }, 'pattern'],
    ] as const) {
      const bad = await send(engine, 'POST', '/__mock/forks', { token: null, body });
      expect(bad.status).toBe(422);
      expect(bad.json.validation[0]).toMatchObject({ field: 'body.snapshot', rule });
    }
    const badName = await send(engine, 'POST', '/__mock/global-snapshots', { token: 'setup', body: { name: '' } });
    expect(badName.status).toBe(422);
    expect(badName.json.validation[0]).toMatchObject({ field: 'body.name', rule: 'pattern' });
    const gone = await send(engine, 'DELETE', '/__mock/global-snapshots/nope', { token: null, body: {} });
    expect(gone.status).toBe(404);
    expect(gone.json.validation[0]).toMatchObject({ field: 'path.name', rule: 'exists' });

    const shared = engineOf({ sharedState: true });
    await send(shared, 'POST', '/__mock/global-snapshots', { token: 'x', body: { name: 'http' } });
    const refused = await send(shared, 'POST', '/__mock/forks', { token: null, body: { snapshot: 'http' } });
    expect(refused.status).toBe(400);
    expect(refused.json.validation[0]).toMatchObject({ field: 'body.snapshot', rule: 'perTokenState' });
    await expect(shared.fork('http')).rejects.toThrow('sharedState');
  });

  it('refuses a global snapshot beyond maxSnapshots (422 naming body.name)', async () => {
    const engine = engineOf({ limits: { maxSnapshots: 1 } });
    expect((await send(engine, 'POST', '/__mock/global-snapshots', { body: { name: 'a' } })).status).toBe(201);
    const full = await send(engine, 'POST', '/__mock/global-snapshots', { body: { name: 'b' } });
    expect(full.status).toBe(422);
    expect(full.json.validation[0]).toMatchObject({ field: 'body.name', rule: 'maxSnapshots' });
    await expect(engine.snapshot('b', 'x', { global: true })).rejects.toThrow('maxSnapshots');
  });

  it('forking a token cancels its write in flight (409), as a reset does; its own snapshots stay', async () => {
    const engine = engineOf();
    await prepared(engine);
    await send(engine, 'PATCH', '/tickets/5/', { token: 'busy', body: { subject: 'kept in a snapshot' } });
    await engine.snapshot('own', 'busy');
    const slow = send(engine, 'PATCH', '/tickets/1/', {
      token: 'busy',
      body: { subject: 'late' },
      headers: { Prefer: 'delay=150' },
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    await engine.fork('prepared', 'busy');
    expect((await slow).status).toBe(409);
    expect(subjectOf(engine, 'busy', 1)).toBe('prepared 1');
    expect(await engine.restore('own', 'busy')).toBe(true);
    expect(subjectOf(engine, 'busy', 5)).toBe('kept in a snapshot');
  });
});
