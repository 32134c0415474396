/**
 * What a process builds once and shares (issue 29 item 6: building an engine cost ~1 s of CPU, each
 * time, in every test file and command): the bundles, read once per file revision and frozen, and
 * the seeded store, generated once per (bundles, seed), its records shared by every engine and a
 * deep copy for a caller of `generateStore`; the validators compiled for a bundle, shared by every
 * `Contract` (conformance, the proxy, the fuzzer, drift) over it.
 */
import { copyFile, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultBundlesDir, loadBundles, VERSIONS } from '../../src/contract/index.ts';
import { createMockEngine, generateStore } from '../../src/mock/index.ts';
import { Contract } from '../../src/validation/index.ts';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

/** A bundles folder of its own: a copy of every version's bundle. */
async function copyOfBundles(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'store-admin-bundles-'));
  dirs.push(dir);
  for (const version of VERSIONS) {
    await copyFile(join(defaultBundlesDir(), `${version}.json`), join(dir, `${version}.json`));
  }
  return dir;
}

describe('loadBundles', () => {
  it('reads each file once and shares the bundle; its document is frozen', () => {
    const [first] = loadBundles();
    const [again] = loadBundles();
    expect(again).toBe(first);
    expect(Object.isFrozen(first?.document.paths)).toBe(true);
    expect(() => {
      (first?.document.info as { title: string }).title = 'changed';
    }).toThrow(TypeError);
    expect(structuredClone(first?.document).info.title).toBe(first?.document.info.title);
  });

  it('reads a file again once it is rewritten', async () => {
    const dir = await copyOfBundles();
    const [before] = loadBundles(dir);
    const file = join(dir, `${VERSIONS[0]}.json`);
    const document = structuredClone(before?.document);
    document.info.title = 'Rewritten';
    await writeFile(file, JSON.stringify(document));
    await utimes(file, new Date(), new Date(Date.now() + 5_000));
    const [after] = loadBundles(dir);
    expect(after).not.toBe(before);
    expect(after?.document.info.title).toBe('Rewritten');
  });
});

describe('the seeded store', () => {
  it("is shared by the engines of a process, each with its own writes; generateStore's copy is the caller's", async () => {
    const one = createMockEngine();
    const two = createMockEngine();
    // The same record object in both engines' seed (generated once), until a write replaces it.
    expect(one.inspect('a').get('tickets', 1)).toBe(two.inspect('b').get('tickets', 1));
    const patched = await one.handle(
      new Request('http://mock.test/tickets/1/', {
        method: 'PATCH',
        headers: { Authorization: 'Bearer a', 'Content-Type': 'application/json' },
        body: JSON.stringify({ subject: 'Changed in one engine' }),
      }),
    );
    expect(patched.status).toBe(200);
    expect(one.inspect('a').get('tickets', 1)?.subject).toBe('Changed in one engine');
    expect(two.inspect('b').get('tickets', 1)?.subject).not.toBe('Changed in one engine');

    const copy = generateStore(loadBundles(), { seed: 'store-admin' });
    const ticket = copy.tickets?.[0];
    expect(ticket).toBeDefined();
    if (ticket) ticket.subject = 'Changed by a caller';
    expect(createMockEngine().inspect('c').get('tickets', ticket?.id)?.subject).not.toBe('Changed by a caller');
  });
});

describe('the compiled validators', () => {
  it('are compiled once per bundle and pointer, whichever Contract asks', () => {
    const bundles = loadBundles();
    const version = bundles[0]?.version ?? VERSIONS[0];
    const pointer = '/components/schemas/Store';
    const first = new Contract(bundles).validatorAt(version, pointer);
    expect(new Contract(loadBundles()).validatorAt(version, pointer)).toBe(first);
    expect(first({})).toBe(false);
  });
});
