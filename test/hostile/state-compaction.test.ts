/**
 * The state file's compaction and its failures (issue 31): beside the answers, under a sustained
 * load, with many snapshots, and a full disk (a real tmpfs, as root) that recovers once freed.
 * The minutes-long probe (4,000 tokens, a reset of every state, the worst answer) is
 * `npm run bench -- state --parts compaction` (scripts/bench/state.ts).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Change } from '../../src/mock/persistence/entries.ts';
import { Journal } from '../../src/mock/persistence/journal.ts';
import { spawnMock } from '../helpers/mock-process.ts';
import { call } from '../mock/http.ts';

/** The state file's first line (its format and version). */
const HEADER = '{"format":"store-admin-mock-state","version":1}\n';
const dir = mkdtempSync(join(tmpdir(), 'state-compaction-'));
const record = (id: number, text: string) => ({ id, subject: text, padding: 'x'.repeat(200) });

describe('state file compaction', () => {
  it('compacts 4,000 tokens beside the answers: timers run while it is under way', async () => {
    const journal = Journal.open(join(dir, 'many.jsonl'), { minCompactBytes: Number.MAX_SAFE_INTEGER });
    const appends = [];
    for (let t = 0; t < 4000; t++) {
      const token = `token-${t}`;
      appends.push(journal.append({ op: 'put', token, changes: [['tickets', '1', record(1, token)]] }));
      appends.push(journal.append({ op: 'snapshot', token, name: 'kept', at: '2026-01-01T00:00:00Z' }));
    }
    await Promise.all(appends);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const compaction = journal.startCompaction();
    // A write arriving meanwhile lands, and is in the compacted file.
    await journal.append({ op: 'put', token: 'late', changes: [['tickets', '2', record(2, 'late')]] });
    await compaction;
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
    expect(journal.load('late')?.live.get('tickets')?.get('2')).toEqual(record(2, 'late'));
    expect(journal.load('token-3999')?.snapshots.get('kept')?.state.get('tickets')?.get('1')).toEqual(
      record(1, 'token-3999'),
    );
    await journal.close();
    const reopened = Journal.open(join(dir, 'many.jsonl'));
    expect(reopened.tokens().length).toBe(4001);
    expect(reopened.load('late')?.live.get('tickets')?.get('2')).toEqual(record(2, 'late'));
    await reopened.close();
  });

  it('forgets the entries before a reset of a state without snapshots (a load never reads them)', async () => {
    const journal = Journal.open(join(dir, 'reset.jsonl'));
    await journal.append({ op: 'put', token: 'a', changes: [['tickets', '1', record(1, 'a')]] });
    await journal.append({ op: 'put', token: 'b', changes: [['tickets', '1', record(1, 'b')]] });
    await journal.append({ op: 'snapshot', token: 'b', name: 's', at: '2026-01-01T00:00:00Z' });
    await journal.append({ op: 'reset', all: true });
    expect(journal.tokens()).toEqual(['b']);
    expect(journal.load('b')?.live.size).toBe(0);
    await journal.close();
  });

  it('compacts under a sustained write load (never idle), not only once it stops', async () => {
    const file = join(dir, 'sustained.jsonl');
    const journal = Journal.open(file, { minCompactBytes: 64 * 1024 });
    let shrank = false;
    let largest = 0;
    const sample = () => {
      const size = statSync(file).size;
      if (size < largest) shrank = true;
      largest = Math.max(largest, size);
    };
    // 200 writes outstanding at every moment (as from many connections): never idle until the end.
    const window: Promise<void>[] = [];
    for (let n = 0; n < 6000; n++) {
      const changes: Change[] = [['tickets', String(n % 10), record(n % 10, `v${n}`)]];
      window.push(journal.append({ op: 'put', token: 'load', changes }));
      if (window.length < 200) continue;
      await window.shift();
      sample();
    }
    await Promise.all(window);
    await journal.close();
    expect(shrank).toBe(true);
    expect(largest).toBeLessThan(8 * 64 * 1024);
  });

  it('writes 100 snapshots of one state as their differences, not 100 copies', async () => {
    const file = join(dir, 'snapshots.jsonl');
    const journal = Journal.open(file, { minCompactBytes: Number.MAX_SAFE_INTEGER });
    const changes = Array.from({ length: 200 }, (_, i) => ['tickets', String(i + 1), record(i + 1, 'same')] as const);
    await journal.append({ op: 'put', token: 't', changes: changes.map((c) => [...c]) });
    const live = statSync(file).size;
    for (let s = 0; s < 100; s++) await journal.append({ op: 'snapshot', token: 't', name: `s${s}`, at: 'x' });
    await journal.startCompaction();
    await journal.close();
    expect(statSync(file).size).toBeLessThan(live + 100 * 100);
    const reopened = Journal.open(file);
    expect(reopened.load('t')?.snapshots.get('s99')?.state.get('tickets')?.size).toBe(200);
    await reopened.close();
  });

  const isRoot = process.getuid?.() === 0;
  it.skipIf(!isRoot)(
    'a full disk: 503 (admin too, not 500), and 200 again once space is freed',
    async (context) => {
      const mount = mkdtempSync(join(tmpdir(), 'tiny-disk-'));
      if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mount]).status !== 0) {
        context.skip('cannot mount a tmpfs here');
      }
      const file = join(mount, 'state.jsonl');
      // A token longer than a page: its reset line cannot fit in the last page's free bytes.
      const token = `t${'k'.repeat(5000)}`;
      const base = { token };
      let mock = await spawnMock(['--state', file]);
      try {
        const filler = openSync(join(mount, 'filler'), 'w');
        try {
          for (;;) writeSync(filler, Buffer.alloc(4096, 1));
        } catch {}
        closeSync(filler);
        let status = 200;
        for (let n = 0; n < 20 && status === 200; n++) {
          const patch = { ...base, baseUrl: mock.url, body: { subject: `full ${n} ${'y'.repeat(2000)}` } };
          status = (await call('PATCH', '/tickets/1/', patch)).status;
        }
        expect(status).toBe(503);
        const reset = await call('POST', '/__mock/reset', { ...base, baseUrl: mock.url, body: {} });
        expect(reset.status).toBe(503);
        expect(reset.json.type).toContain('state-file-unavailable');
        rmSync(join(mount, 'filler'));
        const freed = await call('PATCH', '/tickets/1/', { ...base, baseUrl: mock.url, body: { subject: 'freed' } });
        expect(freed.status).toBe(200);
        expect(
          (await call('POST', '/__mock/snapshots', { ...base, baseUrl: mock.url, body: { name: 'ok' } })).status,
        ).toBe(201);
        await mock.kill();
        mock = await spawnMock(['--state', file]);
        expect((await call('GET', '/tickets/1/', { ...base, baseUrl: mock.url })).json.subject).toBe('freed');
        expect(statSync(file).size).toBeGreaterThan(HEADER.length);
      } finally {
        await mock.kill();
        spawnSync('umount', [mount]);
      }
    },
    60_000,
  );
});
