/**
 * Hostile `--data` fixture files (issue #21): whatever the file (a symlink to a secret, not JSON, a
 * device, nested 20,000 deep, with a BOM), the mock refuses it with a FixtureError (the CLI: exit 2,
 * one line) naming the file, the record and the rule, never quoting the file's contents and never
 * crashing on the stack; a BOM is accepted as in request bodies; schema errors speak of the
 * "Fixture record". On main before #21: the BOM file was refused, the symlink and non-JSON errors
 * quoted the file's first characters, the deep record exited 3 with "Maximum call stack size
 * exceeded", and the wording was "Request body".
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes.ts';
import { loadBundles } from '../../src/contract/index.ts';
import { FixtureError, generateStore, startMock } from '../../src/mock/index.ts';
import { runScript } from './fixtures.ts';

const MARKER = 'root:x:0:0:SECRET-6f1d';
const ticket = { ...(generateStore(loadBundles(), { seed: 'store-admin' }).tickets?.[0] ?? {}), id: 1 };
let dir: string;
const at = (name: string) => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hostile-fixtures-'));
  writeFileSync(at('secret.txt'), `${MARKER}\n${MARKER}\n`);
  symlinkSync(at('secret.txt'), at('link.json'));
  symlinkSync('/dev/zero', at('zero.json'));
  mkdirSync(at('folder.json'));
  writeFileSync(at('text.json'), `${MARKER} is not JSON`);
  writeFileSync(at('truncated.json'), `{"tickets": [{"subject": "${MARKER}"`);
  writeFileSync(at('deep.json'), `{"tickets": [{"id": 1, "subject": ${'['.repeat(20_000)}${']'.repeat(20_000)}}]}`);
  writeFileSync(at('deep-key.json'), `{"tickets": [{"id": ${'['.repeat(20_000)}${']'.repeat(20_000)}}]}`);
  writeFileSync(at('enum.json'), JSON.stringify({ tickets: [{ ...ticket, priority: 'urgent' }] }));
  writeFileSync(at('bom.json'), `\uFEFF${JSON.stringify({ tickets: [{ ...ticket, subject: 'With a BOM' }] })}`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a fixture file the mock refuses', () => {
  it.each([
    ['a symlink to a secret file', 'link.json', /: not JSON/],
    ['a symlink to a device', 'zero.json', /: not a regular file$/],
    ['a folder', 'folder.json', /: not a regular file$/],
    ['text that is not JSON', 'text.json', /: not JSON/],
    ['truncated JSON', 'truncated.json', /: not JSON/],
    [
      'a record nested 20,000 deep',
      'deep.json',
      /: tickets\[0\] \(id 1\): field \(record\) breaks the contract \(maxDepth\): Fixture record nests deeper than 64 levels/,
    ],
    ['a key nested 20,000 deep', 'deep-key.json', /: tickets\[0\]: field \(record\) breaks the contract \(maxDepth\)/],
    [
      'a record breaking an enum',
      'enum.json',
      /: tickets\[0\] \(id 1\): field priority breaks the contract \(enum\): Fixture record field priority: must be one of high, medium, low \(received/,
    ],
  ])('%s: a FixtureError naming the file and the rule, quoting nothing', async (_, name, message) => {
    const error = await startMock({ port: 0, dataFile: at(name) }).then(
      (mock) => mock.close().then(() => undefined),
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(FixtureError);
    expect((error as Error).message.startsWith(`${at(name)}: `)).toBe(true);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('root:x');
    expect((error as Error).message).not.toContain('Request body');
  });
});

it('accepts a fixture file with a UTF-8 BOM, as request bodies are', async () => {
  const mock = await startMock({ port: 0, dataFile: at('bom.json') });
  try {
    const response = await fetch(`${mock.url}/tickets/1/`, { headers: { Authorization: 'Bearer t' } });
    expect((await response.json()).subject).toBe('With a BOM');
  } finally {
    await mock.close();
  }
});

it('the command exits 2 with one line for a fixture nested 20,000 deep (it exited 3 with a bare stack error)', async () => {
  const run = await runScript('src/cli/bin.ts', ['mock', '--port', '0', '--data', at('deep.json')], dir, 60_000);
  expect(run.code).toBe(EXIT.usage);
  expect(run.stderr).toContain(`${at('deep.json')}: tickets[0] (id 1): field (record) breaks the contract (maxDepth)`);
  expect(run.stderr).not.toMatch(/Maximum call stack|\n\s+at /);
});
