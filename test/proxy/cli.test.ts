// The `proxy` command as a user runs it: a process in front of the stand-in, recording with a
// limit; SIGTERM prints the summary, writes the recording and exits 0. Bad flags exit 2, a
// recording that cannot be written 3.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/index.ts';
import type { Recording } from '../../src/proxy/index.ts';
import { ROOT } from '../helpers/bundles.ts';
import { CLI } from '../helpers/process.ts';
import { type StandIn, startStandIn } from './stand-in.ts';

const dir = mkdtempSync(join(tmpdir(), 'proxy-cli-'));
let upstream: StandIn;

beforeAll(async () => {
  upstream = await startStandIn();
});
afterAll(() => upstream.close());

it('runs until SIGTERM, then prints the summary and writes a recording bounded by --record-limit', async () => {
  const file = join(dir, 'limited.json');
  const child = spawn(
    process.execPath,
    [...CLI, 'proxy', '--upstream', upstream.url, '--port', '0', '--record', file, '--record-limit', '2'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr.on('data', (chunk) => {
    out += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  await vi.waitFor(() => expect(out).toMatch(/listening on (http:\/\/\S+),/), { timeout: 30_000, interval: 100 });
  const url = /listening on (http:\/\/\S+),/.exec(out)?.[1] as string;
  for (const id of [1, 2, 3]) {
    const answer = await fetch(`${url}/tickets/${id}/`, { headers: { Authorization: 'Bearer cli-token' } });
    expect(answer.status).toBe(200);
  }
  await fetch(`${url}/stockrecords/3/`, { headers: { Authorization: 'Bearer cli-token' } });
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(out).toContain(`Proxy summary (upstream ${upstream.url}): 4 exchanges, 1 contract violations`);
  expect(out).toContain('violation getStockRecord [2023-02-10] response body.num_in_stock type');
  expect(out).not.toContain('cli-token');
  const recording = JSON.parse(readFileSync(file, 'utf8')) as Recording;
  expect(recording.$recording.exchanges).toHaveLength(2);
  expect(recording.tickets?.map((t) => t.id)).toEqual([1, 2]);
  expect(recording.$recording.dropped).toBe(3); // the third exchange and ticket, the stock record's exchange
}, 60_000);

it('exits 2 on a bad or missing flag, 3 when the recording cannot be written', async () => {
  const errors: string[] = [];
  const spy = vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line));
  try {
    expect(await runCli(['proxy'])).toBe(2);
    expect(errors.at(-1)).toMatch(/proxy needs --upstream URL/);
    expect(await runCli(['proxy', '--upstream', 'ftp://example.test'])).toBe(2);
    expect(await runCli(['proxy', '--upstream', upstream.url, '--record-limit', '0'])).toBe(2);
    expect(
      await runCli([
        'proxy',
        '--upstream',
        upstream.url,
        '--port',
        '0',
        '--record',
        join(dir, 'no', 'such', 'dir.json'),
      ]),
    ).toBe(3);
    expect(errors.at(-1)).toMatch(/Cannot write the recording .*dir\.json: ENOENT/);
  } finally {
    spy.mockRestore();
  }
});
