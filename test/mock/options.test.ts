/**
 * startMock's options as the package bin and a test setup use them: another bundles directory
 * (only the versions found are served), the request log, and (static mode) the response check that
 * reports a broken example in `sl-violations`.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultBundlesDir, VERSIONS, versionOf } from '../../src/contract/index.ts';
import { type MockServer, startMock } from '../../src/mock/index.ts';
import { SPEC_OPERATIONS } from '../contract/inventory.ts';
import { call } from './http.ts';

/** The versions copied into the directory: all but unstable, in the contract's order. */
const COPIED: string[] = VERSIONS.filter((v) => v !== 'unstable');

describe('startMock({ static: true, bundlesDir, log })', () => {
  let dir: string;
  let mock: MockServer;
  const lines: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mock-bundles-'));
    for (const version of COPIED) {
      cpSync(join(defaultBundlesDir(), `${version}.json`), join(dir, `${version}.json`));
    }
    // A broken example: the store's name becomes a number, in the version GET /store/ answers by default.
    const file = join(dir, `${versionOf('get', '/store/')}.json`); // GET /store/'s default version
    const bundle = JSON.parse(readFileSync(file, 'utf8'));
    const store = Object.values<{ value: { name: unknown }[] }>(bundle.components.examples).find(
      (example) => Array.isArray(example.value) && example.value[0] && 'tagline' in example.value[0],
    );
    if (!store?.value[0]) throw new Error('no store example in the bundle');
    store.value[0].name = 42;
    writeFileSync(file, JSON.stringify(bundle));
    mock = await startMock({ port: 0, static: true, bundlesDir: dir, log: (line) => lines.push(line) });
  });
  afterAll(async () => {
    await mock?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves only the versions found in the directory', async () => {
    expect(mock.versions).toEqual(COPIED);
    // The operations of the copied versions, as the spec inventory lists them (getTicket is unstable's).
    expect(mock.operations).toBe(SPEC_OPERATIONS.filter((o) => o.versions.some((v) => COPIED.includes(v))).length);
    const ticket = await call('GET', '/tickets/1/', { baseUrl: mock.url });
    expect(ticket.status).toBe(405);
  });

  it('reports a response that breaks its own schema in sl-violations', async () => {
    const response = await call('GET', '/store/', { baseUrl: mock.url });
    expect(response.status).toBe(200);
    const violations = JSON.parse(response.headers.get('sl-violations') ?? '[]');
    expect(violations).toContainEqual(expect.objectContaining({ location: ['response', 'body', '0', 'name'] }));
  });

  it('logs one line per request with the version that served it', async () => {
    await call('GET', '/subscriptions/', { baseUrl: mock.url, version: '2023-02-10' });
    await call('GET', '/subscriptions/', { baseUrl: mock.url, version: 'unstable' });
    expect(lines).toContainEqual(expect.stringMatching(/^GET \/subscriptions\/ \[2023-02-10\] 200 [\d.]+ ms$/));
    expect(lines).toContainEqual(expect.stringMatching(/^GET \/subscriptions\/ \[unstable\] 400 /));
  });

  it('fails to start, naming the directory, when it holds no bundle', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'mock-empty-'));
    try {
      await expect(startMock({ port: 0, bundlesDir: empty })).rejects.toThrow(empty);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('rejects with EADDRINUSE on a busy port, leaving nothing open', async () => {
    await expect(startMock({ port: mock.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});

describe("startMock takes every engine option (MockOptions extends the engine's)", () => {
  it('passes requestLogSize and dataSource to the engine', async () => {
    const mock = await startMock({
      port: 0,
      requestLogSize: 2,
      data: JSON.parse('{"subscriptions": [{"id": -1}]}'),
      dataSource: 'the-fixture',
      warn: () => {},
    }).catch((error: Error) => error);
    // A hand-written fixture is refused at its first bad record, named by its source.
    expect(mock).toBeInstanceOf(Error);
    expect((mock as Error).message).toContain('the-fixture');
    const logged = await startMock({ port: 0, requestLogSize: 2 });
    try {
      for (let i = 0; i < 3; i++) await call('GET', '/store/', { baseUrl: logged.url });
      expect(logged.engine?.requests()).toHaveLength(2);
    } finally {
      await logged.close();
    }
  });
});
