/**
 * The state file under hostile conditions (issue 31): a corrupt middle line, a second mock on the
 * same file, a planted `FILE.compact` link, modes and links, hand-edited lines, a huge line, an
 * unwritable directory, a full disk, snapshot names and caps, compaction beside the answers and
 * under a sustained load. Through the real process (a real journal file, real sockets) where the
 * behaviour is the command's, through the journal where it is compaction's.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMockEngine, startMock } from '../../src/mock/index.ts';
import { Journal } from '../../src/mock/persistence/journal.ts';
import { ROOT } from '../helpers/bundles.ts';
import { spawnMock } from '../helpers/mock-process.ts';
import { CLI, runProcess } from '../helpers/process.ts';
import { call } from '../mock/http.ts';

/** The state file's first line (its format and version). */
const HEADER = '{"format":"store-admin-mock-state","version":1}\n';
const dir = mkdtempSync(join(tmpdir(), 'state-file-'));
const isRoot = process.getuid?.() === 0;
/**
 * As root, permissions do not apply, so the unwritable-directory case runs the mock as nobody; that
 * needs a checkout nobody can read (a clone under `mktemp -d`, mode 0700, is not): probed once.
 */
const nobodyReadsCheckout =
  !isRoot ||
  spawnSync(
    process.execPath,
    ['-e', `require('node:fs').accessSync(${JSON.stringify(join(ROOT, 'node_modules', 'tsx', 'package.json'))})`],
    {
      uid: 65534,
      gid: 65534,
      stdio: 'ignore',
    },
  ).status === 0;
const subjectOf = async (url: string, token: string, ticket: number) =>
  (await call('GET', `/tickets/${ticket}/`, { baseUrl: url, token })).json.subject;
const seeded = createMockEngine().export();
const ticket = seeded.tickets?.[0] as Record<string, unknown>;
/** A journal line putting ticket `id` (a record the contract accepts) with `subject`. */
const put = (token: string, id: number, subject: unknown) =>
  `${JSON.stringify({ op: 'put', token, changes: [['tickets', String(id), { ...ticket, id, subject }]] })}\n`;

/** The child's stderr once it holds `text` (a pipe may deliver it after the answer). */
async function stderrOnce(mock: { stderr(): string }, text: string): Promise<string> {
  for (let i = 0; i < 100 && !mock.stderr().includes(text); i++) await new Promise((r) => setTimeout(r, 20));
  return mock.stderr();
}

/** Runs `mock --state file` to its exit (it is expected to refuse to start). */
const refusedStart = (file: string) =>
  runProcess(process.execPath, [...CLI, 'mock', '--port', '0', '--quiet', '--state', file], {
    cwd: ROOT,
    timeoutMs: 60_000,
  });

describe('the state file, hostile', () => {
  it('skips a corrupt middle line with a warning naming its offset, keeping every later write', async () => {
    const file = join(dir, 'corrupt.jsonl');
    let mock = await spawnMock(['--state', file]);
    for (let n = 1; n <= 6; n++) {
      const token = n % 2 ? 'odd' : 'even';
      const written = await call('PATCH', `/tickets/${n}/`, { baseUrl: mock.url, token, body: { subject: `w${n}` } });
      expect(written.status).toBe(200);
    }
    await mock.kill();
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    const second = (lines[0]?.length ?? 0) + 1 + (lines[1]?.length ?? 0) + 1; // the offset of the 2nd write
    const bytes = Buffer.from(text);
    bytes[second + 3] = 0x7e; // one byte of the 2nd write's line: `{"o~`
    writeFileSync(file, bytes);

    mock = await spawnMock(['--state', file]);
    try {
      expect(await stderrOnce(mock, 'skipped')).toContain(`${file}: line at byte ${second} skipped`);
      expect(statSync(file).size).toBe(bytes.length);
      expect(await subjectOf(mock.url, 'odd', 1)).toBe('w1');
      expect(await subjectOf(mock.url, 'even', 2)).not.toBe('w2');
      for (const n of [3, 4, 5, 6]) expect(await subjectOf(mock.url, n % 2 ? 'odd' : 'even', n)).toBe(`w${n}`);
    } finally {
      await mock.kill();
    }
  }, 60_000);

  it('refuses a second mock on the same file (exit 3, naming it), and takes over the lock of a killed one', async () => {
    const file = join(dir, 'twice.jsonl');
    const first = await spawnMock(['--state', file]);
    const second = await refusedStart(file);
    expect(second.code).toBe(3);
    expect(second.stderr).toContain(`${file}: in use by another mock (pid ${first.child.pid}`);
    expect(
      (await call('PATCH', '/tickets/1/', { baseUrl: first.url, token: 't', body: { subject: 'a' } })).status,
    ).toBe(200);
    await first.kill('SIGKILL');
    expect(existsSync(`${file}.lock`)).toBe(true); // a crash leaves it, naming a dead pid
    const third = await spawnMock(['--state', file]);
    expect(await subjectOf(third.url, 't', 1)).toBe('a');
    await third.kill('SIGTERM');
    expect(existsSync(`${file}.lock`)).toBe(false);
  }, 60_000);

  it('creates the file 0600, follows a symbolic link to it, and keeps both through a compaction', async () => {
    const target = join(dir, 'real.jsonl');
    const link = join(dir, 'link.jsonl');
    symlinkSync(target, link);
    const mock = await startMock({ port: 0, statePath: link });
    await call('PATCH', '/tickets/1/', { baseUrl: mock.url, token: 't', body: { subject: 'linked' } });
    await mock.close();
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    chmodSync(target, 0o640);
    const journal = Journal.open(link, { minCompactBytes: 1 });
    await journal.append({ op: 'put', token: 't', changes: [['tickets', '2', { id: 2, subject: 'x' }]] });
    await journal.startCompaction();
    await journal.close();
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(statSync(target).mode & 0o777).toBe(0o640);
    expect(readFileSync(target, 'utf8')).toContain('linked');
  });

  it('never writes through a planted FILE.compact link: the copy is created exclusively', async () => {
    const file = join(dir, 'planted.jsonl');
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    symlinkSync(victim, `${file}.compact`);
    const journal = Journal.open(file, { minCompactBytes: 1 });
    await journal.append({ op: 'put', token: 'secret-token', changes: [['tickets', '1', { id: 1, subject: 's' }]] });
    await journal.startCompaction();
    await journal.close();
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(readFileSync(file, 'utf8')).toContain('secret-token');
    expect(existsSync(`${file}.compact`)).toBe(false);
  });

  it('skips hand-edited lines that break the model, the contract or the limits, naming each', async () => {
    const file = join(dir, 'edited.jsonl');
    const card = seeded.giftCards?.[0] as Record<string, unknown>;
    const giftCards = Array.from({ length: 5 }, (_, i) => ({
      op: 'put',
      token: 'many',
      changes: [['giftCards', String(900000 + i), { ...card, id: 900000 + i }]],
    }));
    const lines = [
      HEADER,
      `${JSON.stringify({ op: 'put', token: 'proto', changes: [['__proto__', '1', { id: 1 }]] })}\n`,
      put('proto', 3, 5),
      put('proto', 4, 'kept'),
      ...giftCards.map((entry) => `${JSON.stringify(entry)}\n`),
      put('snaps', 1, 'snapped'),
      ...[1, 2, 3].map((id) => put('heavy', id, 'heavy')),
      ...Array.from(
        { length: 150 },
        (_, n) => `${JSON.stringify({ op: 'snapshot', token: 'snaps', name: `s${n}`, at: 'x' })}\n`,
      ),
    ];
    writeFileSync(file, lines.join(''));
    // Room for two of the heavy token's three tickets.
    const stateBytes = Math.floor(2.5 * JSON.stringify({ ...ticket, id: 1, subject: 'heavy' }).length);
    const mock = await spawnMock(['--state', file, '--max-records', '3', '--max-state-bytes', String(stateBytes)]);
    try {
      expect((await call('GET', '/tickets/3/', { baseUrl: mock.url, token: 'proto' })).status).toBe(200);
      expect(await subjectOf(mock.url, 'proto', 3)).not.toBe(5);
      expect(await subjectOf(mock.url, 'proto', 4)).toBe('kept');
      const cards = await call('GET', '/__mock/state', { baseUrl: mock.url, token: 'many' });
      const loaded = cards.json.giftCards.filter((c: { id: number }) => c.id >= 900000);
      expect(loaded.map((c: { id: number }) => c.id)).toEqual([900000, 900001, 900002]);
      expect(await subjectOf(mock.url, 'heavy', 2)).toBe('heavy');
      expect(await subjectOf(mock.url, 'heavy', 3)).not.toBe('heavy');
      const snaps = await call('GET', '/__mock/snapshots', { baseUrl: mock.url, token: 'snaps' });
      expect(snaps.json.snapshots).toHaveLength(100); // maxSnapshots: the other 50 lines skipped
      // Checked when a state loads, each line named once.
      const warned = await stderrOnce(mock, 'giftCards records');
      expect(warned).toContain(`line at byte ${HEADER.length} skipped (unknown collection "__proto__")`);
      expect(warned).toMatch(/line at byte \d+ skipped \(tickets \(id 3\): field subject breaks the contract/);
      expect(warned).toContain('skipped (more than 3 giftCards records created by one state (maxRecords))');
      expect(warned).toContain(`skipped (more than ${stateBytes} bytes of records of one state (maxStateBytes))`);
    } finally {
      await mock.kill();
    }
  }, 60_000);

  it('skips a line over the length bound naming the file and offset, and loads the lines after it', async () => {
    const file = join(dir, 'huge.jsonl');
    const fd = openSync(file, 'w');
    writeSync(fd, HEADER);
    writeSync(fd, put('huge', 1, 'before'));
    const at = statSync(file).size;
    const block = Buffer.alloc(8 * 1024 * 1024, 0x61);
    for (let i = 0; i < 9; i++) writeSync(fd, block); // 72 MiB, over the 64 MiB bound
    writeSync(fd, '\n');
    writeSync(fd, put('huge', 2, 'after'));
    closeSync(fd);
    const mock = await spawnMock(['--state', file]);
    try {
      expect(await stderrOnce(mock, 'skipped')).toContain(
        `${file}: line at byte ${at} skipped (${9 * 8 * 1024 * 1024 + 1} bytes, longer than`,
      );
      expect(await subjectOf(mock.url, 'huge', 1)).toBe('before');
      expect(await subjectOf(mock.url, 'huge', 2)).toBe('after');
    } finally {
      await mock.kill();
    }
  }, 60_000);

  // Skipped only as root in a checkout nobody can read (the mock must run as nobody to meet a permission).
  it.skipIf(!nobodyReadsCheckout)(
    'names the file and the cause when its directory cannot be written (exit 3)',
    async () => {
      const locked = join(dir, 'locked');
      chmodSync(dir, 0o755);
      mkdirSync(locked, { mode: 0o755 });
      const file = join(locked, 'state.jsonl');
      // As root, permissions do not apply: the mock runs as nobody.
      if (!isRoot) chmodSync(locked, 0o555);
      const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [...CLI, 'mock', '--port', '0', '--state', file], {
          cwd: ROOT,
          stdio: ['ignore', 'ignore', 'pipe'],
          ...(isRoot && { uid: 65534, gid: 65534, env: { ...process.env, HOME: tmpdir() } }),
        });
        let stderr = '';
        child.stderr.on('data', (chunk) => {
          stderr += chunk;
        });
        child.on('exit', (code) => resolve({ code, stderr }));
      });
      expect(run.stderr).not.toContain('listen');
      expect(run.stderr).toContain(`${file}: cannot create its lock file ${file}.lock (EACCES)`);
      expect(run.code).toBe(3);
    },
    60_000,
  );

  it('refuses the snapshot names "." and ".." (422 naming the rule), and caps snapshots per state', async () => {
    const mock = await startMock({ port: 0, limits: { maxSnapshots: 3 } });
    const base = { baseUrl: mock.url, token: 'snapper' };
    try {
      for (const name of ['.', '..']) {
        const refused = await call('POST', '/__mock/snapshots', { ...base, body: { name } });
        expect(refused.status).toBe(422);
        expect(refused.json.validation[0]).toMatchObject({ field: 'body.name', rule: 'pattern' });
        expect(refused.json.detail).toContain('not "." or ".."');
      }
      await call('PATCH', '/tickets/1/', { baseUrl: mock.url, token: 'other', body: { subject: 'other' } });
      for (const name of ['a', 'b', 'c']) {
        expect((await call('POST', '/__mock/snapshots', { ...base, body: { name } })).status).toBe(201);
      }
      const full = await call('POST', '/__mock/snapshots', { ...base, body: { name: 'd' } });
      expect(full.status).toBe(422);
      expect(full.json.validation[0]).toMatchObject({ rule: 'maxSnapshots' });
      expect((await call('POST', '/__mock/snapshots', { ...base, body: { name: 'a' } })).status).toBe(200);
      expect(await subjectOf(mock.url, 'other', 1)).toBe('other');
    } finally {
      await mock.close();
    }
  });
});
