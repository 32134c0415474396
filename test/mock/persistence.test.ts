/**
 * `--state FILE` (issue 18): every acknowledged write survives a kill -9; a torn tail loads its valid
 * prefix with a warning naming the byte offset; a file that is not a state file exits 2 naming it;
 * compaction keeps the file proportional to the live state; snapshots survive a restart.
 */
import { appendFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMock } from '../../src/mock/index.ts';
import { Journal } from '../../src/mock/persistence/journal.ts';
import { ROOT } from '../helpers/bundles.ts';
import { spawnMock } from '../helpers/mock-process.ts';
import { CLI, runProcess } from '../helpers/process.ts';
import { call } from './http.ts';

const dir = mkdtempSync(join(tmpdir(), 'mock-state-'));
const CONNECTIONS = 20;
const WRITES = 2000;
const TICKETS = 50;

/** One PATCH over a keep-alive agent; resolves with the status, rejects when the server is gone. */
function patch(agent: Agent, url: string, token: string, ticket: number, subject: string): Promise<number> {
  const body = JSON.stringify({ subject });
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/tickets/${ticket}/`,
      {
        agent,
        method: 'PATCH',
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          'Content-Length': body.length,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('--state FILE', () => {
  it('keeps every acknowledged write through a kill -9 (2,000 writes, 20 connections, killed at a random moment)', async () => {
    const file = join(dir, 'kill.jsonl');
    const mock = await spawnMock(['--state', file]);
    const killAt = 300 + Math.floor(Math.random() * 1400);
    const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    // acked[c][ticket] = the number of connection c's last acknowledged write of that ticket.
    const acked: Map<number, number>[] = Array.from({ length: CONNECTIONS }, () => new Map());
    let acks = 0;
    const worker = async (c: number) => {
      for (let n = 0; n < WRITES / CONNECTIONS; n++) {
        const ticket = (n % TICKETS) + 1;
        const status = await patch(agent, mock.url, `kill-${c}`, ticket, `w${c}-${n}`).catch(() => 0);
        if (status === 0) return; // the server is gone
        expect(status).toBe(200);
        acked[c]?.set(ticket, n);
        if (++acks === killAt) mock.child.kill('SIGKILL');
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, (_, c) => worker(c)));
    agent.destroy();
    await mock.kill();
    expect(acks).toBeGreaterThanOrEqual(killAt);

    const again = await spawnMock(['--state', file]);
    try {
      for (let c = 0; c < CONNECTIONS; c++) {
        const exported = await call('GET', '/__mock/state', { baseUrl: again.url, token: `kill-${c}` });
        const subjects = new Map<number, string>(
          exported.json.tickets.map((t: { id: number; subject: string }) => [t.id, t.subject]),
        );
        for (const [ticket, n] of acked[c] ?? []) {
          const found = /^w(\d+)-(\d+)$/.exec(subjects.get(ticket) ?? '');
          expect(found?.[1], `token kill-${c} ticket ${ticket}`).toBe(String(c));
          // The last acknowledged write, or a later one that was on disk but not yet answered.
          expect(Number(found?.[2]), `token kill-${c} ticket ${ticket}`).toBeGreaterThanOrEqual(n);
        }
      }
    } finally {
      await again.kill();
    }
  }, 120_000);

  it('loads the valid prefix of a torn file, warning with the byte offset, and appends after it', async () => {
    const file = join(dir, 'torn.jsonl');
    let mock = await startMock({ port: 0, statePath: file });
    const options = { baseUrl: mock.url, token: 'torn' };
    expect((await call('PATCH', '/tickets/4/', { ...options, body: { subject: 'kept' } })).status).toBe(200);
    await mock.close();
    const valid = statSync(file).size;
    appendFileSync(file, '{"op":"put","token":"torn","changes":[["tickets","4",{"id":4,"subj');
    const warnings: string[] = [];
    mock = await startMock({ port: 0, statePath: file, warn: (line) => warnings.push(line) });
    try {
      expect(warnings).toEqual([expect.stringContaining(`torn tail at byte ${valid}`)]);
      expect(warnings[0]).toContain(file);
      expect(statSync(file).size).toBe(valid);
      const next = { baseUrl: mock.url, token: 'torn' };
      expect((await call('GET', '/tickets/4/', next)).json.subject).toBe('kept');
      expect((await call('PATCH', '/tickets/5/', { ...next, body: { subject: 'after' } })).status).toBe(200);
    } finally {
      await mock.close();
    }
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line).op)).toEqual([undefined, 'put', 'put']);
  });

  it('exits 2 naming a file that is not a state file, and leaves it untouched', async () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'my notes\n');
    const run = await runProcess(process.execPath, [...CLI, 'mock', '--port', '0', '--state', file], {
      cwd: ROOT,
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toContain(`${file}: not a mock state file`);
    expect(readFileSync(file, 'utf8')).toBe('my notes\n');
  }, 60_000);

  it('compacts: 2,000 writes of one record keep the file near the size of the live state', async () => {
    const file = join(dir, 'compact.jsonl');
    const journal = Journal.open(file, { minCompactBytes: 64 * 1024 });
    const record = (n: number) => ({ id: 1, subject: `version ${n}`, padding: 'x'.repeat(200) });
    // 20 rounds of 100 concurrent appends (grouped into a few fdatasyncs each).
    for (let round = 0; round < 20; round++) {
      const appends = Array.from({ length: 100 }, (_, i) =>
        journal.append({ op: 'put', token: 't', changes: [['tickets', '1', record(round * 100 + i)]] }),
      );
      await Promise.all(appends);
    }
    await journal.append({ op: 'snapshot', token: 't', name: 'last', at: '2026-01-01T00:00:00Z' });
    await journal.close();
    expect(statSync(file).size).toBeLessThan(2 * 64 * 1024 + 1000);
    const reopened = Journal.open(file);
    const image = reopened.load('t');
    expect(image?.live.get('tickets')?.get('1')).toEqual(record(1999));
    expect(image?.snapshots.get('last')?.state.get('tickets')?.get('1')).toEqual(record(1999));
    await reopened.close();
  });

  it('restores snapshots and every token after a restart', async () => {
    const file = join(dir, 'snapshots.jsonl');
    let mock = await startMock({ port: 0, statePath: file });
    const a = { baseUrl: mock.url, token: 'alice' };
    await call('PATCH', '/tickets/1/', { ...a, body: { subject: 'saved' } });
    expect((await call('POST', '/__mock/snapshots', { ...a, body: { name: 'before' } })).status).toBe(201);
    await call('PATCH', '/tickets/1/', { ...a, body: { subject: 'later' } });
    await call('PUT', '/pages/2/', { baseUrl: mock.url, token: 'bob', body: { title: 'Bob' } });
    await mock.close();

    mock = await startMock({ port: 0, statePath: file });
    try {
      const b = { baseUrl: mock.url, token: 'alice' };
      expect((await call('GET', '/tickets/1/', b)).json.subject).toBe('later');
      const bob = await call('GET', '/__mock/state', { baseUrl: mock.url, token: 'bob' });
      expect(bob.json.pages.find((p: { id: number }) => p.id === 2).title).toBe('Bob');
      expect((await call('GET', '/__mock/snapshots', b)).json.snapshots.map((s: { name: string }) => s.name)).toEqual([
        'before',
      ]);
      expect((await call('POST', '/__mock/snapshots/before/restore', { ...b, body: {} })).status).toBe(200);
      expect((await call('GET', '/tickets/1/', b)).json.subject).toBe('saved');
    } finally {
      await mock.close();
    }
  });
});
