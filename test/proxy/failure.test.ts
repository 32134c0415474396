// The proxy's own failure on an exchange (here: a contract whose answer schema cannot be compiled,
// as a user's doctored bundles directory may hold) is a 500 problem with a body, not an empty
// answer labelled problem+json, and its log names the error.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { versionOf } from '../../src/contract/index.ts';
import { type ProxyServer, startProxy } from '../../src/proxy/index.ts';
import { ROOT } from '../helpers/bundles.ts';
import { type StandIn, startStandIn } from './stand-in.ts';

let upstream: StandIn;
let proxy: ProxyServer;
let dir: string;
const log: string[] = [];
/** The version a ticket is read in by default: its bundle is the one doctored. */
const version = versionOf('GET', '/tickets/{id}/');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'proxy-failure-'));
  await cp(join(ROOT, 'generated', 'openapi'), dir, { recursive: true });
  const file = join(dir, `${version}.json`);
  const bundle = JSON.parse(await readFile(file, 'utf8'));
  // A pattern that is not a regular expression: the answer's validator throws when compiled.
  bundle.components.schemas.Ticket.properties.subject = { type: 'string', pattern: '[' };
  await writeFile(file, JSON.stringify(bundle));
  upstream = await startStandIn();
  proxy = await startProxy({ upstream: upstream.url, port: 0, bundlesDir: dir, log: (line) => log.push(line) });
});
afterAll(async () => {
  await proxy?.close();
  await upstream?.close();
  await rm(dir, { recursive: true, force: true });
});

it('answers its own failure as a 500 problem with a body, and logs the error', async () => {
  const answer = await fetch(`${proxy.url}/tickets/12/`, {
    headers: { Authorization: 'Bearer t', 'X-Service-API-Version': version },
  });
  expect(answer.status).toBe(500);
  expect(answer.headers.get('content-type')).toBe('application/problem+json');
  const problem = await answer.json();
  expect(problem).toMatchObject({ status: 500, type: 'urn:store-admin-mock:internal-error' });
  expect(problem.detail).toMatch(/proxy/);
  expect(JSON.stringify(problem)).not.toMatch(/\bat \S+ \(|\/work\/|node_modules/);
  expect(log.join('\n')).toMatch(/GET \/tickets\/12\/ proxy error: .*regular expression/i);
});
