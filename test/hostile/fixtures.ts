/**
 * Hostile inputs for the source and diff surfaces, shared by test/hostile/ and
 * scripts/bench/hostile.ts: an alias bomb, a `$ref` graph that branches two ways per level, a
 * secret file outside the repository, a local HTTP server that counts what it receives, and
 * scratch copies of the source (never the real openapi/ folder) and of a git repository of bundles.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { VERSIONS } from '../helpers/bundles.ts';
import { type BundledSource, bundled, type Run, runProcess } from '../helpers/process.ts';

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are built as untyped JSON.
type Json = any;

export const ROOT = resolve(import.meta.dirname, '../..');

/** The string a file outside the repository holds: it must never show up in any output. */
export const MARKER = 'SECRET-MARKER-6f1d2c9a';

/**
 * "Billion laughs": 18 lines of YAML whose aliases expand to 9^9 (387 million) strings. As an
 * example file it is valid OpenAPI, so only a bounded parser stops it.
 */
export const BOMB_YAML = `summary: Laughs
description: An alias bomb.
value:
  a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]
  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
  d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
  e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
  f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
  g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
  h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
  i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
  j: [*i]
# 18 lines: each level multiplies the previous one by 9.
#
#
#
`;

/** The example file the bomb replaces, and the source files hostile `$ref`s are planted in. */
export const STORE_EXAMPLE = 'openapi/components/examples/StoreList.yaml';
export const STORE_PATH = 'openapi/paths/store/store.yaml';
/** The schema of `GET /store/`'s response, where a hostile `$ref` is added as a property. */
export const STORE_SCHEMA = 'openapi/components/schemas/Store.yaml';

export type { Run };

/**
 * Runs a TypeScript script of this repository (bundled for the run: test/setup/cli.ts) in `cwd`;
 * never throws on exit codes.
 */
export function runScript(script: BundledSource, args: string[], cwd: string, timeoutMs = 240_000): Promise<Run> {
  return runProcess(process.execPath, [bundled(script), ...args], {
    cwd,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    timeoutMs,
  });
}

/** A local HTTP server (port 0) that records every request it receives. */
export interface Listener {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

export async function listen(): Promise<Listener> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/yaml' });
    res.end(`type: string\ndescription: ${MARKER}\n`);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/** A directory outside the repository holding `secret.yaml` (a schema whose text is the marker). */
export async function secretDir(): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'hostile-outside-'));
  const file = join(dir, 'secret.yaml');
  await writeFile(file, `type: string\ndescription: ${MARKER}\nexample: ${MARKER}\n`);
  return { dir, file };
}

/**
 * A scratch copy of the contract source (openapi/, redocly.yaml; node_modules linked so the build
 * can run there). Returns its directory.
 */
export async function scratchSource(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hostile-source-'));
  await cp(join(ROOT, 'openapi'), join(dir, 'openapi'), { recursive: true });
  await cp(join(ROOT, 'redocly.yaml'), join(dir, 'redocly.yaml'));
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/**
 * Adds a property (`planted` unless named) whose schema is `{$ref: ref}` to the Store schema (or
 * `file`) of a scratch source.
 */
export async function plantRef(dir: string, ref: string, file = STORE_SCHEMA, property = 'planted'): Promise<void> {
  const path = join(dir, file);
  const text = await readFile(path, 'utf8');
  const anchor = '\nproperties:\n';
  if (!text.includes(anchor)) throw new Error(`${file} has no top-level properties: update the fixture`);
  await writeFile(path, text.replace(anchor, `${anchor}  ${property}:\n    $ref: ${JSON.stringify(ref)}\n`));
}

export const removeDir = (dir: string) => rm(dir, { recursive: true, force: true });

/**
 * A copy of `bundle` with one more operation, `GET /hostile/`, whose response is the root of a
 * `$ref` graph two ways wide per level: `N0 -> {left, right} -> N1 -> … -> N<depth>`. Walked as a
 * tree it has 2^depth paths. `leaf` is the schema at the bottom.
 */
export function branchingBundle(bundle: Json, depth: number, leaf: Json = { type: ['string', 'null'] }): Json {
  const copy = structuredClone(bundle);
  copy.components = copy.components ?? {};
  const schemas: Record<string, Json> = copy.components.schemas ?? {};
  copy.components.schemas = schemas;
  for (let i = 0; i < depth; i++) {
    const next = { $ref: `#/components/schemas/Hostile${i + 1}` };
    schemas[`Hostile${i}`] = {
      type: 'object',
      properties: { left: next, right: next },
      required: ['left', 'right'],
    };
  }
  schemas[`Hostile${depth}`] = leaf;
  copy.paths['/hostile/'] = {
    get: {
      operationId: 'getHostile',
      responses: {
        '200': {
          description: 'A deep graph.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Hostile0' } } },
        },
      },
    },
  };
  return copy;
}

function git(cwd: string, ...args: string[]): Promise<void> {
  return new Promise((done, reject) => {
    const child = spawn('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], {
      cwd,
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? done() : reject(new Error(`git ${args.join(' ')}: exit ${code}`))));
  });
}

/**
 * A scratch git repository of bundles for `scripts/diff.ts --dir`: the committed bundles of this
 * repository, rewritten by `base` and committed, then rewritten by `head` in the working tree.
 */
export async function scratchDiffRepo(
  base: (bundle: Json, version: string) => Json,
  head: (bundle: Json, version: string) => Json,
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hostile-diff-'));
  const bundles = join(dir, 'generated', 'openapi');
  await mkdir(bundles, { recursive: true });
  await git(dir, 'init', '-q');
  const originals = new Map<string, Json>();
  for (const version of VERSIONS) {
    originals.set(version, JSON.parse(await readFile(join(ROOT, 'generated', 'openapi', `${version}.json`), 'utf8')));
  }
  const write = async (change: (bundle: Json, version: string) => Json) => {
    for (const [version, bundle] of originals) {
      const out = change(structuredClone(bundle), version);
      await writeFile(join(bundles, `${version}.json`), typeof out === 'string' ? out : JSON.stringify(out));
    }
  };
  await write(base);
  await git(dir, 'add', '.');
  await git(dir, 'commit', '-q', '-m', 'base');
  await write(head);
  return dir;
}
