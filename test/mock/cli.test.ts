/**
 * `npm start` as a frontend developer runs it: it prints the URL, the versions and how to stop;
 * Ctrl-C (SIGINT to the whole process group, as a terminal sends it) stops it with no process or
 * port left behind; PORT/HOST move it; a busy port is one line naming the port and PORT, exit 1.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../scripts/lib/net.ts';
import { EXIT } from '../../src/cli/index.ts';
import { VERSIONS, versionOf } from '../../src/contract/index.ts';
import { startMock } from '../../src/mock/index.ts';
import { SPEC_OPERATIONS } from '../contract/inventory.ts';
import { CLI } from '../helpers/process.ts';

/** The default version of GET /store/, the request these tests send with no version. */
const STORE_VERSION = versionOf('get', '/store/');

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const running = new Set<ChildProcess>();

interface Started {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns in its own process group (detached), so the test can signal the group like a terminal. */
function start(command: string, args: string[], env: Record<string, string> = {}): Started {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, NO_COLOR: '1' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    err += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

const groupAlive = (pid: number) => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean, what: () => string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting: ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function portIsFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

afterEach(async () => {
  for (const child of running) {
    if (child.pid && groupAlive(child.pid)) process.kill(-child.pid, 'SIGKILL');
  }
  running.clear();
});

describe('npm start', () => {
  it('serves on PORT, prints the URL, versions and how to stop, and Ctrl-C leaves nothing behind', async () => {
    const port = await freePort();
    const mock = start('npm', ['start', '--silent'], { PORT: String(port) });
    await until(
      () => mock.stdout().includes('press Ctrl-C to stop'),
      () => mock.stdout() + mock.stderr(),
    );
    const url = `http://127.0.0.1:${port}`;
    expect(mock.stdout()).toContain(`listening on ${url}`);
    expect(mock.stdout()).toContain(`versions: ${VERSIONS.join(', ')}`);
    expect(mock.stdout()).toContain(`${SPEC_OPERATIONS.length} operations`);

    const response = await fetch(`${url}/store/`, { headers: { Authorization: 'Bearer t' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-service-api-version')).toBe(STORE_VERSION);
    await until(
      () => mock.stdout().includes(`GET /store/ [${STORE_VERSION}] 200`),
      () => mock.stdout(),
    );

    const pid = mock.child.pid as number;
    process.kill(-pid, 'SIGINT');
    // The mock exits 0; npm then ends itself with the signal it received (as in a terminal).
    const { code, signal } = await mock.exited;
    expect(code === 0 || signal === 'SIGINT').toBe(true);
    await until(
      () => !groupAlive(pid),
      () => `process group ${pid} still alive`,
    );
    expect(mock.stdout()).toContain('Mock stopped (SIGINT).');
    expect(await portIsFree(port)).toBe(true);
  });

  it('serves generated data with --dynamic, the same for the same --seed, and stops on SIGTERM too', async () => {
    const args = [...CLI, 'mock', '--port', '0', '--quiet', '--dynamic', '--seed', 'frontend'];
    const mock = start(process.execPath, args);
    await until(
      () => mock.stdout().includes('press Ctrl-C to stop'),
      () => mock.stdout() + mock.stderr(),
    );
    expect(mock.stdout()).toContain('dynamic data (seed "frontend")');
    const url = /listening on (\S+)/.exec(mock.stdout())?.[1];
    const store = async (base: string) =>
      (await fetch(`${base}/store/`, { headers: { Authorization: 'Bearer t' } })).text();
    const reference = await startMock({ port: 0, dynamic: true, seed: 'frontend' });
    try {
      const generated = await store(url as string);
      expect(generated).toBe(await store(reference.url));
      expect(generated).not.toBe(await store(inject('mockUrl')));
    } finally {
      await reference.close();
    }
    process.kill(-(mock.child.pid as number), 'SIGTERM');
    expect((await mock.exited).code).toBe(0);
  });

  it('--strict-query refuses a query parameter the operation does not declare (400 naming it)', async () => {
    const mock = start(process.execPath, [...CLI, 'mock', '--port', '0', '--quiet', '--strict-query']);
    await until(
      () => mock.stdout().includes('press Ctrl-C to stop'),
      () => mock.stdout() + mock.stderr(),
    );
    expect(mock.stdout()).toContain('unknown query parameters refused');
    const url = /listening on (\S+)/.exec(mock.stdout())?.[1];
    const refused = await fetch(`${url}/subscriptions/?statuss=active`, { headers: { Authorization: 'Bearer t' } });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ validation: [{ field: 'query.statuss', rule: 'unknown' }] });
    process.kill(-(mock.child.pid as number), 'SIGTERM');
    expect((await mock.exited).code).toBe(0);
  });

  it('takes HOST and PORT from the environment, and --port over PORT', async () => {
    const port = await freePort();
    const mock = start(process.execPath, [...CLI, 'mock', '--port', String(port), '--quiet'], {
      PORT: '1',
      HOST: '127.0.0.1',
    });
    await until(
      () => mock.stdout().includes('press Ctrl-C to stop'),
      () => mock.stdout() + mock.stderr(),
    );
    expect(mock.stdout()).toContain(`listening on http://127.0.0.1:${port}`);
    process.kill(-(mock.child.pid as number), 'SIGINT');
    expect((await mock.exited).code).toBe(0);
  });

  describe('a busy port', () => {
    let blocker: Server;
    let port: number;
    afterEach(async () => {
      await new Promise((resolve) => blocker?.close(resolve));
    });

    it('is one line naming the port and the variable to change, exit 3 (could not do its job)', async () => {
      blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
      port = (blocker.address() as { port: number }).port;
      const mock = start(process.execPath, [...CLI, 'mock'], { PORT: String(port) });
      expect((await mock.exited).code).toBe(EXIT.internal);
      const lines = mock.stderr().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`Port ${port}`);
      expect(lines[0]).toContain('set PORT');
      expect(mock.stdout()).toBe('');

      const viaNpm = start('npm', ['start', '--silent'], { PORT: String(port) });
      expect((await viaNpm.exited).code).toBe(EXIT.internal);
      expect(viaNpm.stderr()).toContain(`Port ${port} on 127.0.0.1 is already in use: set PORT`);
    });
  });

  it('refuses a port that is not a number, naming it, as a usage error (exit 2) under the bin and npm start', async () => {
    const mock = start(process.execPath, [...CLI, 'mock'], { PORT: 'http' });
    expect((await mock.exited).code).toBe(EXIT.usage);
    expect(mock.stderr().trim().split('\n')[0]).toBe(
      'store-admin-contract: Invalid port "http": set PORT to a number from 0 to 65535.',
    );
    const viaNpm = start('npm', ['start', '--silent', '--', '--bogus-flag']);
    expect((await viaNpm.exited).code).toBe(EXIT.usage);
    expect(viaNpm.stderr()).toContain("Unknown option '--bogus-flag'");
  });

  it('lists the example names for Prefer: example=<name>', async () => {
    const listing = start(process.execPath, [...CLI, 'mock', '--examples']);
    expect((await listing.exited).code).toBe(0);
    expect(listing.stdout()).toMatch(/2024-04-01\s+GET\s+\/subscriptions\/\s+200: active, past_due/);
    expect(listing.stdout()).toMatch(/unstable\s+GET\s+\/tickets\/\{id\}\/\s+200: open, solved/);
  });
});
