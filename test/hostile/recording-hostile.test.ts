/**
 * The proxy's recordings against hostile traffic, round three (issue #31 items 9, 10 and 20), with a
 * real upstream on loopback and the real `proxy` process where the exit matters:
 * - payment and credential data never reach a recording (the contract's credential-like fields and
 *   credential-like query parameters), as stable fakes of the same kind, whatever `--redact` says;
 * - the recording is bounded in bytes (`recordMaxBytes`), not only in count;
 * - a failed write is printed under `--quiet`, and SIGTERM then stops with a message, exit 3;
 * - a restart with the same `--record` refuses to replace the previous recording (exit 3) unless `--force`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Recording, startProxy } from '../../src/proxy/index.ts';
import { ROOT } from '../helpers/bundles.ts';
import { CLI } from '../helpers/process.ts';
import { type StandIn, startStandIn } from '../proxy/stand-in.ts';

const dir = mkdtempSync(join(tmpdir(), 'recording-hostile-'));
const HEADERS = { Authorization: 'Bearer rec-token', 'X-Service-API-Version': '2024-04-01' };
const SECRETS = ['ctok_9f2c41a7d3', '424242', '"4242"', '083914', 'ctk_4f9a1c2e7b', 'env_live_8d3b6a', 'abc-secret'];
let standIn: StandIn;

beforeAll(async () => {
  standIn = await startStandIn();
});
const children: ReturnType<typeof spawn>[] = [];
afterAll(async () => {
  // A child that failed its test must not outlive the suite.
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await standIn.close();
});

describe('redaction of payment and credential data', () => {
  it('fakes card and credential fields and credential query parameters, even with --redact none', async () => {
    for (const redact of [undefined, []]) {
      const file = join(dir, `redacted-${redact ? 'none' : 'default'}.json`);
      const proxy = await startProxy({ upstream: standIn.url, port: 0, record: file, ...(redact && { redact }) });
      for (const path of ['/subscriptions/1/transactions/', '/store/?access_token=abc-secret&api_key=abc-secret'])
        expect((await fetch(`${proxy.url}${path}`, { headers: HEADERS })).status).toBe(200);
      await proxy.close();
      const text = readFileSync(file, 'utf8');
      for (const secret of SECRETS) expect(text).not.toContain(secret);
      const recording = JSON.parse(text) as Recording;
      const [transactions, store] = recording.$recording.exchanges;
      expect(store?.target).toMatch(/^\/store\/\?access_token=redacted-[0-9a-f]{12}&api_key=redacted-[0-9a-f]{12}$/);
      const page = transactions?.body as { results: { payment_details: Record<string, string> }[] } | undefined;
      const details = (page?.results ?? []).map((t) => t.payment_details);
      expect(details.length).toBeGreaterThan(0);
      // Digits stay digits of the same length; one input, one fake across the recording.
      expect(details[0]?.bankcard_last_four).toMatch(/^\d{4}$/);
      expect(details[0]?.bankcard_first_six).toMatch(/^\d{6}$/);
      expect(new Set(details.map((d) => d.card_token)).size).toBe(1);
      expect(recording.$recording.redacted).toEqual(
        expect.arrayContaining([
          'auth_code',
          'bankcard_first_six',
          'card_token',
          'certificate_token',
          'environment_key',
        ]),
      );
    }
  });
});

/** An upstream answering every ticket with a JSON body of `size` bytes. */
async function bigUpstream(size: number): Promise<{ url: string; server: Server }> {
  const body = JSON.stringify({ id: 1, padding: 'x'.repeat(size) });
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('the recording is bounded in bytes', () => {
  it('drops exchanges past recordMaxBytes: the file stays about that size', async () => {
    const { url, server } = await bigUpstream(200_000);
    const file = join(dir, 'bounded.json');
    const proxy = await startProxy({ upstream: url, port: 0, record: file, recordMaxBytes: 500_000 });
    for (let id = 1; id <= 10; id++) expect((await fetch(`${proxy.url}/tickets/${id}/`)).status).toBe(200);
    const report = await proxy.close();
    server.close();
    expect(report.recording).toMatchObject({ exchanges: 2, dropped: 8 });
    expect(statSync(file).size).toBeLessThan(600_000);
    expect((JSON.parse(readFileSync(file, 'utf8')) as Recording).$recording.maxBytes).toBe(500_000);
  });
});

/** Starts the `proxy` command; its output so far, its URL, and its exit. */
async function startCommand(args: string[]) {
  const child = spawn(process.execPath, [...CLI, 'proxy', '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const output = { out: '', err: '' };
  child.stdout.on('data', (chunk) => {
    output.out += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output.err += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const started = await Promise.race([
    vi
      .waitFor(() => expect(output.out).toMatch(/listening on (http:\/\/\S+),/), { timeout: 30_000, interval: 100 })
      .then(() => true),
    exited.then(() => false),
  ]);
  const url = started ? (/listening on (http:\/\/\S+),/.exec(output.out)?.[1] as string) : '';
  return { child, output, exited, url };
}

describe('the proxy command and its recording file', () => {
  it('prints a failed write under --quiet, and SIGTERM stops with a message and exit 3', async () => {
    const { url, server } = await bigUpstream(10);
    const sub = join(dir, 'vanishing');
    mkdirSync(sub);
    const run = await startCommand(['--upstream', url, '--quiet', '--record', join(sub, 'rec.json')]);
    rmSync(sub, { recursive: true });
    expect((await fetch(`${run.url}/tickets/1/`)).status).toBe(200);
    await vi.waitFor(
      () => expect(run.output.err).toMatch(/recording not written: cannot write the recording .*ENOENT/),
      {
        timeout: 5_000,
      },
    );
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(3);
    server.close();
    expect(run.output.err).toMatch(/Proxy stopped \(SIGTERM\), but the recording was not written: .*rec\.json/);
    expect(run.output.err).not.toMatch(/\n\s+at /); // no stack trace
  }, 60_000);

  it('refuses to replace a previous recording (exit 3, file untouched) unless --force', async () => {
    const file = join(dir, 'previous.json');
    writeFileSync(file, '{"previous": true}\n');
    const refused = await startCommand(['--upstream', standIn.url, '--record', file]);
    expect(await refused.exited).toBe(3);
    expect(refused.output.err).toMatch(/previous\.json already holds a recording .*--force/);
    expect(readFileSync(file, 'utf8')).toBe('{"previous": true}\n');
    const forced = await startCommand(['--upstream', standIn.url, '--record', file, '--force']);
    expect(forced.url).toMatch(/^http:/);
    forced.child.kill('SIGTERM');
    expect(await forced.exited).toBe(0);
    expect((JSON.parse(readFileSync(file, 'utf8')) as Recording).$recording.exchanges).toEqual([]);
  }, 60_000);
});
