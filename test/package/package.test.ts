/**
 * The published package as a user gets it: `npm pack` (which runs prepack: tsc + the bin bundle),
 * then the tarball installed into throwaway downstream projects: one with the optional peers
 * (typescript, Prism, openapi-typescript, fast-check, msw), one without, one with msw and vitest
 * only (TypeScript 7 sits in a fourth). From there: the tarball's
 * contents, publint and attw, a consumer of the client, the types and a bundle, the docs samples and
 * the MSW overrides type-checked under TypeScript 5.9 and 7 (strict, exact optional properties), every
 * export resolved at run time, and the bin's `--version`, `types` and `mock` (one real request
 * through the packaged client, then stopped), and the install hints of the missing peers. A fifth
 * project, `today`, is what a consumer on Node 22 or 24 installs now (msw 3, orval 8, the newest
 * peers): the bin, the client, the MSW handlers (msw 2 and 3) and orval 8 run on Node 22 and 24
 * (binaries from the npm registry, cached: test/helpers/node-binaries.ts), concurrently.
 * One pack and five installs (in parallel) in beforeAll serve every test; the npm cache makes them
 * offline.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/net.ts';
import { EXIT } from '../../src/cli/index.ts';
import { VERSIONS, versionOf } from '../../src/contract/index.ts';
import { GENERATED_CODE_OPTIONS, problemsOf } from '../ecosystem/checks.ts';
import type { ToolReport } from '../ecosystem/generate.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { NEWER_NODES, type NewerNode, nodeBinary, pathWith } from '../helpers/node-binaries.ts';
import { mustRun, type Run, runProcess } from '../helpers/process.ts';
import { allSamples } from '../helpers/samples.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGE = '@store-admin/contract';
const BIN = 'store-admin-contract';
const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const PEERS = [
  'typescript@5.9.3',
  '@stoplight/prism-http@5.12.0',
  'openapi-typescript@7.13.0',
  'fast-check@4.10.2',
  `msw@${manifest.devDependencies.msw}`,
  `@types/node@${manifest.devDependencies['@types/node']}`,
];
/**
 * The TypeScript a user gets from a plain `npm i -D typescript` today: the repository's own
 * devDependency `typescript-7` (an npm alias of it, the compiler of `npm run typecheck`), run on
 * the downstream projects by its path.
 */
const TYPESCRIPT_7 = manifest.devDependencies['typescript-7']?.replace(/^npm:typescript@/, '') ?? '';
const TSC_7 = join(ROOT, 'node_modules', 'typescript-7', 'bin', 'tsc');
/**
 * What a consumer on Node 22 or 24 gets from a plain `npm i <name>` today (2026-11-25): msw 3 and
 * orval 8 (both need Node 22), the newest prism-http (5.16, declares Node 24) and fast-check,
 * TypeScript 5.9 (orval's), @types/node 24 and the faker orval's MSW mocks import. Exact, so a run
 * is repeatable. Not openapi-typescript: its newest release is the 7.13.0 PEERS has (its Redocly
 * core alone is 18 MB to unpack again).
 */
const TODAY = [
  'msw@3.0.5',
  'orval@8.38.0',
  '@stoplight/prism-http@5.16.0',
  'fast-check@4.10.2',
  'typescript@5.9.3',
  '@types/node@24.19.2',
  `@faker-js/faker@${manifest.devDependencies['@faker-js/faker']}`,
];
const NODES = Object.keys(NEWER_NODES).map(Number) as NewerNode[];

/** The environment without what an enclosing `npm test` exports (its prefix, package, lifecycle). */
const cleanEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^npm_/i.test(key) || /^npm_config_(cache|registry|userconfig)$/i.test(key),
    ),
  ),
  ...extra,
});

const run = (command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> =>
  runProcess(command, args, { cwd, env: cleanEnv(env) });

/** A command that must succeed, run with `cleanEnv(env)` (test/helpers/process.ts `mustRun`). */
const ok = (command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> =>
  mustRun(command, args, { cwd, env: cleanEnv(env) });

async function newProject(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const project = { name: 'downstream', version: '1.0.0', private: true, type: 'module' };
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(project, null, 2)}\n`);
}

const INSTALL_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
/**
 * npm's installs with one libuv thread: with four, its file writes went through futex hand-offs
 * between them (880,000 futex calls an install under strace); with one, an install of `consumer`
 * took ~8.2 s of CPU instead of ~9.5 s, and no longer (2026-12-02, on the RAM disk).
 */
const INSTALL_ENV = { UV_THREADPOOL_SIZE: '1' };
const installArgs = (specs: string[]) => ['install', ...specs, ...INSTALL_FLAGS];
const npmInstall = (dir: string, specs: string[], env: Record<string, string> = {}) =>
  ok('npm', installArgs(specs), dir, { ...INSTALL_ENV, ...env });

let tmp = '';
let tarball = '';
/** Installed the tarball and every optional peer. */
let consumer = '';
/** Installed the tarball alone. */
let bare = '';
/** Installed the tarball, msw and vitest (and no other peer): a downstream test suite on msw/node. */
let withMsw = '';
/** Installed on Node 24 with today's releases (TODAY): msw 3, orval 8, the newest peers. */
let today = '';
/** npm's answer to that install: before issue #27, ERESOLVE on msw 3. */
let todayInstall: Run;
/** The `node` binaries of Node 22 and 24, and a PATH that runs each. */
const node = {} as Record<NewerNode, { binary: string; PATH: string }>;
const binOf = (project: string) => join(project, 'node_modules', '.bin', BIN);
const installed = (project: string) => join(project, 'node_modules', '@store-admin', 'contract');

// Every install starts as soon as what it needs exists, all in parallel: the pack and the installs
// are most of this file's wall time.
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'store-admin-package-'));
  const nodes = Promise.all(
    NODES.map(async (major) => {
      const binary = await nodeBinary(NEWER_NODES[major]);
      node[major] = { binary, PATH: pathWith(binary) };
    }),
  );
  // Today's releases install while the pack runs (the bulk of that project); the tarball joins them
  // after it, with Node 24's npm (a consumer's own, not the repo's Node 20): the install that got
  // ERESOLVE on msw 3 before issue #27.
  today = join(tmp, 'today');
  const todayReady = Promise.all([nodes, newProject(today)]).then(() =>
    npmInstall(today, TODAY, { PATH: node[24].PATH }),
  );
  await ok('npm', ['pack', '--pack-destination', tmp, '--loglevel=error'], ROOT);
  const packed = (await readdir(tmp)).filter((name) => name.endsWith('.tgz'));
  expect(packed).toHaveLength(1);
  tarball = join(tmp, packed[0] ?? '');
  consumer = join(tmp, 'consumer');
  bare = join(tmp, 'bare');
  withMsw = join(tmp, 'with-msw');
  await Promise.all([newProject(consumer), newProject(bare), newProject(withMsw)]);
  const installToday = todayReady.then(async () => {
    // run, not ok: a test reads npm's answer (ERESOLVE before issue #27).
    todayInstall = await run('npm', installArgs([tarball]), today, { ...INSTALL_ENV, PATH: node[24].PATH });
  });
  await Promise.all([
    installToday,
    npmInstall(consumer, [tarball, ...PEERS]),
    npmInstall(bare, [tarball]),
    npmInstall(withMsw, [tarball, `msw@${manifest.devDependencies.msw}`, `vitest@${manifest.devDependencies.vitest}`]),
  ]);
}, 400_000);

/** The mocks started by the tests, killed here too if a test failed before stopping one. */
const mockProcesses = new Set<ChildProcess>();

afterAll(async () => {
  for (const child of mockProcesses) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/**
 * Starts a project's bin as `mock --quiet <args>` on $PORT (`env` may set PATH: which Node runs it)
 * and waits for its banner; `stop` sends SIGTERM and resolves to the exit status.
 */
async function startBinMock(project: string, args: string[] = [], env: Record<string, string> = {}) {
  const port = await freePort();
  const child = spawn(binOf(project), ['mock', '--quiet', ...args], {
    cwd: project,
    env: cleanEnv({ ...env, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  mockProcesses.add(child);
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const stop = async (): Promise<number | null> => {
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const code = await exited;
    clearTimeout(killer);
    return code;
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`mock did not start in 30 s:\n${output}`)), 30_000);
      const check = () => {
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child.stdout.on('data', check);
      void exited.then((code) => reject(new Error(`mock exited ${code}:\n${output}`)));
    });
    return { url, port, pid: child.pid, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** One request through the packaged client (request.mjs, written by the first mock test): its status, version header and data. */
const REQUEST = `import { createAdminClient } from '${PACKAGE}';
const client = createAdminClient({ baseUrl: process.argv[2], token: 'test-token' });
const { data, response } = await client.GET('/store/');
console.log(JSON.stringify({ node: process.version, status: response.status, version: response.headers.get('x-service-api-version'), data }));
`;

describe('the tarball', () => {
  it('ships the compiled client, the bin, the types and the bundles, and nothing else', async () => {
    const { stdout } = await ok('tar', ['-tzf', tarball], tmp);
    const files = stdout
      .split('\n')
      .filter(Boolean)
      .map((path) => path.replace(/^package\//, ''));
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'dist/src/client/index.js',
        'dist/src/client/index.d.ts',
        'dist/src/mock/index.js',
        'dist/src/mock/index.d.ts',
        'dist/src/cli/bin.js',
        'dist/docs/index.html',
        '.spectral.yaml',
        'CONTRIBUTING.md',
        'docs/mock.md',
        'docs/ecosystem.md',
        ...VERSIONS.flatMap((v) => [
          `generated/openapi/${v}.json`,
          `generated/openapi/${v}.yaml`,
          `dist/generated/types/${v}.d.ts`,
          `dist/generated/types/${v}.js`,
        ]),
      ]),
    );
    const unexpected = files.filter(
      (path) =>
        !/^(package\.json|README\.md|LICENSE|CHANGELOG[^/]*\.md|CONTRIBUTING\.md|\.spectral\.yaml)$/.test(path) &&
        // The pages the README links to, and the screenshots they show.
        !/^docs\/([a-z-]+\.md|images\/[\w-]+\.png)$/.test(path) &&
        // A subsystem may have folders of its own (src/mock/model, src/mock/stages).
        !/^dist\/(src\/[a-z]+(\/[a-z-]+)*|generated\/types)\/[^/]+\.(js|d\.ts)$/.test(path) &&
        !/^dist\/docs\/(index\.html|assets\/[\w.-]+\.(js|css|txt))$/.test(path) &&
        !/^generated\/openapi\/[^/]+\.(json|yaml)$/.test(path),
    );
    expect(unexpected).toEqual([]);
    // The docs site (dist/docs: Stoplight Elements, ~0.7 MB gzipped) is most of it, then the
    // screenshots of docs/ (~0.5 MB).
    expect((await stat(tarball)).size).toBeLessThan(2_000_000);
  });

  it('depends on openapi-fetch and the validator (ajv) only; Prism, msw, openapi-typescript and fast-check are optional peers, in the ranges the tests cover', async () => {
    const packed = JSON.parse(await readFile(join(installed(consumer), 'package.json'), 'utf8'));
    // openapi-fetch: the client; ajv + ajv-formats: the mock engine's and conformance's validation.
    expect(Object.keys(packed.dependencies)).toEqual(['ajv', 'ajv-formats', 'openapi-fetch']);
    // From the release this repository pins (Node 20) to the one TODAY installs on Node 22 and 24.
    expect(packed.peerDependencies).toEqual({
      '@stoplight/prism-http': `^${manifest.devDependencies['@stoplight/prism-http']}`,
      'fast-check': `^${manifest.devDependencies['fast-check']}`,
      msw: `^${manifest.devDependencies.msw} || ^3.0.0`,
      'openapi-typescript': `^${manifest.devDependencies['openapi-typescript']}`,
    });
    for (const peer of Object.keys(packed.peerDependencies)) {
      expect(packed.peerDependenciesMeta[peer]).toEqual({ optional: true });
      expect(existsSync(join(bare, 'node_modules', peer)), `${peer} installed without being asked`).toBe(false);
    }
    expect(packed.bin).toEqual({ [BIN]: 'dist/src/cli/bin.js' });
    expect(Object.keys(packed.exports)).toEqual([
      '.',
      './mock',
      './msw',
      './proxy',
      './openapi/*.json',
      './openapi/*.yaml',
      './types/*',
      './package.json',
    ]);
  });

  it('passes publint (strict)', async () => {
    const result = await run(join(ROOT, 'node_modules', '.bin', 'publint'), ['run', tarball, '--strict'], tmp);
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });

  it('passes @arethetypeswrong/cli (ESM-only profile)', async () => {
    const attw = join(ROOT, 'node_modules', '.bin', 'attw');
    // attw does not expand wildcard subpaths: name each version's types and JSON bundle (the YAML is a
    // file to read, not a module, so no resolver "resolves" it).
    const entrypoints = VERSIONS.flatMap((v) => [`./types/${v}`, `./openapi/${v}.json`]);
    const args = [tarball, '--profile', 'esm-only', '--format', 'ascii', '--include-entrypoints', ...entrypoints];
    const result = await run(attw, args, tmp);
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });
});

describe('the docs in the tarball', () => {
  it('ships every page, screenshot and file its Markdown links to (relative links resolve inside the package)', async () => {
    const { stdout } = await ok('tar', ['-tzf', tarball], tmp);
    const files = new Set(stdout.split('\n').map((path) => path.replace(/^package\//, '')));
    const pages = [...files].filter((path) => path.endsWith('.md'));
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/mock.md', 'docs/msw.md']));
    const broken: string[] = [];
    let links = 0;
    for (const page of pages) {
      const text = await readFile(join(installed(consumer), page), 'utf8');
      for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const path = target.split('#')[0] ?? '';
        if (path === '' || /^[a-z]+:/i.test(path)) continue; // an anchor on the page, or a URL
        links++;
        const resolved = posix.normalize(posix.join(posix.dirname(page), path));
        if (!files.has(resolved)) broken.push(`${page}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
    expect(links).toBeGreaterThan(20);
  });

  // test/ecosystem/spectral.test.ts lints every bundle, JSON and YAML, with the same file in the repo.
  it('ships the .spectral.yaml docs/ecosystem.md tells users to pass: the documented spectral lint with it finds nothing', async () => {
    const spectral = join(ROOT, 'node_modules', '.bin', 'spectral');
    const packaged = join('node_modules', PACKAGE);
    const bundle = `${packaged}/generated/openapi/${VERSIONS[0]}.json`;
    const args = ['lint', bundle, '--ruleset', `${packaged}/.spectral.yaml`, '--format', 'json', '--quiet'];
    const result = await run(spectral, args, consumer);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout || '[]')).toEqual([]);
    expect(result.code).toBe(0);
  }, 60_000);
});

describe('a downstream project', () => {
  it('resolves every export at run time', async () => {
    await writeFile(
      join(consumer, 'resolve.mjs'),
      `import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const client = await import('${PACKAGE}');
const out = { createAdminClient: typeof client.createAdminClient, versions: client.VERSIONS, files: {} };
for (const v of ${JSON.stringify(VERSIONS)}) {
  const { default: bundle } = await import('${PACKAGE}/openapi/' + v + '.json', { with: { type: 'json' } });
  out.files[v] = {
    json: bundle.openapi,
    yaml: existsSync(fileURLToPath(import.meta.resolve('${PACKAGE}/openapi/' + v + '.yaml'))),
    types: Object.keys(await import('${PACKAGE}/types/' + v)).length,
  };
}
console.log(JSON.stringify(out));
`,
    );
    const { stdout } = await ok(process.execPath, ['resolve.mjs'], consumer);
    const out = JSON.parse(stdout);
    expect(out.createAdminClient).toBe('function');
    expect(out.versions).toEqual([...VERSIONS]);
    for (const version of VERSIONS) expect(out.files[version]).toEqual({ json: '3.1.0', yaml: true, types: 0 });
  });
});

/** Writes the project tsc checks (tsconfig.strict.json) into `dir`, an installed downstream project. */
async function writeTypeCheckProject(dir: string): Promise<void> {
  await mkdir(join(dir, 'strict', 'samples'), { recursive: true });
  await Promise.all(
    allSamples().map((sample, i) =>
      writeFile(
        join(dir, 'strict', 'samples', `sample-${String(i).padStart(3, '0')}.ts`),
        `// ${sample.file}:${sample.line}\n${sample.code}\nexport {};\n`,
      ),
    ),
  );
  await writeFile(
    join(dir, 'consumer.ts'),
    `import { AdminApiError, createAdminClient, unwrap, VERSIONS, type ApiVersion } from '${PACKAGE}';
import type { paths, Store } from '${PACKAGE}/types/2024-04-01';
import type { paths as OldPaths } from '${PACKAGE}/types/2023-02-10';
import bundle from '${PACKAGE}/openapi/2024-04-01.json' with { type: 'json' };

type StoreList = paths['/store/']['get']['responses'][200]['content']['application/json'];
const client = createAdminClient({ baseUrl: 'http://127.0.0.1:4010', token: 'token' });

export async function storeNames(): Promise<(string | null)[]> {
const stores: Store[] = unwrap(await client.GET('/store/'));
const list: StoreList = stores;
return list.map((store) => store.name);
}
export async function failedStatus(): Promise<number | undefined> {
try {
  unwrap(await client.withVersion('2023-02-10').GET('/subscriptions/'));
} catch (error) {
  if (error instanceof AdminApiError) return error.status;
}
return undefined;
}
export const versions: readonly ApiVersion[] = VERSIONS;
export const title: string = bundle.info.title;
export type OldPathNames = keyof OldPaths;

// @ts-expect-error: not a path of the API
void client.GET('/no-such-path/');
// @ts-expect-error: a store's name is a string
export const wrong: Store['name'] = 42;
`,
  );
  await writeFile(
    join(dir, 'strict', 'structural.ts'),
    `import { createAdminClient, unwrap } from '${PACKAGE}';
import type { SubscriptionPage, Ticket } from '${PACKAGE}/types/2024-04-01';

const client = createAdminClient({ baseUrl: 'http://127.0.0.1:4010', token: 'token' });
// The structural fields read with no ?. and no ??: a page's results, a record's id.
export async function ids(): Promise<number[]> {
const page: SubscriptionPage = unwrap(await client.GET('/subscriptions/'));
const out: number[] = [];
for (const subscription of page.results) out.push(subscription.id);
return out;
}
export const ticketId = (ticket: Ticket): number => ticket.id;
// A field the staging recording never showed null reads plainly (docs/fidelity.md)…
export const subject = (ticket: Ticket): string => ticket.subject;
// @ts-expect-error: …one it showed null keeps the nullability policy
export const fromEmail = (ticket: Ticket): string => ticket.from_email;
`,
  );
  await writeFile(
    join(dir, 'strict', 'overrides.ts'),
    `import { override } from '${PACKAGE}/msw';
import type { Ticket } from '${PACKAGE}/types/unstable';

declare const ticket: Ticket;
export const handlers = [
override('get', '/tickets/{id}/', ({ params }) => ({ ...ticket, id: params.id })),
override('patch', '/tickets/{id}/', ({ body }) => ({ ...ticket, subject: body.subject ?? ticket.subject })),
// @ts-expect-error: a ticket's status is one of its states
override('get', '/tickets/{id}/', () => ({ ...ticket, status: 'archived' })),
// @ts-expect-error: /store/ has no PATCH
override('patch', '/store/', () => []),
];
`,
  );
  await writeFile(
    join(dir, 'tsconfig.strict.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        types: ['node'],
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        noEmit: true,
        skipLibCheck: false,
        // TypeScript's own lib.*.d.ts need no check (about 2 s of CPU per run); every other
        // declaration file, the package's first, is still checked.
        skipDefaultLibCheck: true,
        resolveJsonModule: true,
      },
      include: ['consumer.ts', 'strict/**/*.ts'],
    }),
  );
}

describe('TypeScript 5.9 and 7 on the tarball', () => {
  /**
   * A consumer of the client, the types and a bundle; a strict reader of the structural fields;
   * typed MSW overrides; every sample of README.md and docs/*.md (their only NodeNext check:
   * test/docs-samples checks them under the bundler setting). TypeScript 7 checks the library
   * files too (no skipLibCheck; TypeScript's own lib files excepted): the package's declarations
   * must compile for a consumer who checks them. 5.9 checks the same code with --skipLibCheck, as
   * in the Node 22 check below: its lib check of the same declarations was ~9 s of CPU (13 -> 3.5 s
   * at load ~8); the package's declarations are TypeScript 7's output (scripts/prepack.ts), which 5.9
   * read without an error under strict, lib check included, on 2026-12-02 (CONTRIBUTING.md, "Test time").
   */
  beforeAll(() => Promise.all([writeTypeCheckProject(consumer), writeTypeCheckProject(today)]));

  /**
   * tsc's output with each sample named by its Markdown file and line, as test/docs-samples names
   * them (`docs/mock.md:42 (strict/samples/sample-007.ts(3,5))`): this is the samples' NodeNext check.
   */
  const namingSamples = (output: string) => {
    const samples = allSamples();
    return output.replace(/strict\/samples\/sample-(\d+)\.ts(?:\((\d+),\d+\)|:(\d+):\d+)/g, (found, i, a, b) => {
      const sample = samples[Number(i)];
      // Line 1 of a sample's file is the comment naming it; line 2 is the block's first line.
      return sample ? `${sample.file}:${sample.line + Number(a ?? b) - 2} (${found})` : found;
    });
  };

  it.each([
    ['5.9.3', () => join(consumer, 'node_modules', 'typescript', 'bin', 'tsc'), ['--skipLibCheck']],
    [TYPESCRIPT_7, () => TSC_7, []],
  ])(
    'TypeScript %s type-checks a consumer, the docs samples and the MSW overrides (NodeNext, strict, exact optionals)',
    async (version, tsc, flags) => {
      const reported = await ok(process.execPath, [tsc(), '--version'], consumer);
      expect(reported.stdout.trim()).toBe(`Version ${version}`);
      const result = await run(process.execPath, [tsc(), '-p', 'tsconfig.strict.json', ...flags], consumer);
      expect(namingSamples(result.stdout + result.stderr)).toBe('');
      expect(result.code).toBe(0);
      expect(allSamples().length).toBeGreaterThan(10);
    },
    180_000,
  );

  it('TypeScript 5.9 (on Node 22) and 7 (on Node 24) type-check the same project against msw 3 and @types/node 24', async () => {
    // TypeScript 7 (native, seconds) checks every declaration file, the package's against msw 3 first;
    // 5.9 checks the code with --skipLibCheck, sparing the ~10 s of CPU the same declarations cost it.
    const checks = [
      [22, join(today, 'node_modules', 'typescript', 'bin', 'tsc'), ['--skipLibCheck']],
      [24, TSC_7, []],
    ] as const;
    const results = await Promise.all(
      checks.map(([major, tsc, flags]) =>
        run(node[major].binary, [tsc, '-p', 'tsconfig.strict.json', ...flags], today),
      ),
    );
    for (const result of results) {
      expect(namingSamples(result.stdout + result.stderr)).toBe('');
      expect(result.code).toBe(0);
    }
  }, 180_000);
});

describe(`the ${BIN} bin`, () => {
  it('--version prints the package version and its API versions', async () => {
    const { stdout } = await ok('npx', ['--no', '--', BIN, '--version'], consumer);
    expect(stdout).toContain(`${PACKAGE} ${manifest.version}`);
    expect(stdout).toContain(`API versions: ${VERSIONS.join(', ')}`);
  });

  it('types writes the types of a version, the same as the packaged ones', { timeout: 120_000 }, async () => {
    await ok('npx', ['--no', '--', BIN, 'types', '--version', '2023-02-10', '--out', 'x.ts'], consumer);
    const written = await readFile(join(consumer, 'x.ts'), 'utf8');
    expect(written.split('\n')[0]).toBe(
      `// Generated by \`${BIN} types --version 2023-02-10\` from ${PACKAGE}@${manifest.version}. Do not edit.`,
    );
    const source = await readFile(join(ROOT, 'generated', 'types', '2023-02-10.ts'), 'utf8');
    // The same text as generated/types/2023-02-10.ts, which `tsc -p .` checks under strict with the
    // same TypeScript (test/architecture/typecheck.test.ts): no second compiler run here (~2 s of CPU).
    expect(written.slice(written.indexOf('\n'))).toBe(source.slice(source.indexOf('\n')));
    // openapi-typescript on a loaded machine: more than the default 30 s.
  });

  it('refuses bad input with a clear message and a non-zero exit', async () => {
    const cases: [string[], RegExp][] = [
      [['types', '--version', '1999-01-01', '--out', 'y.ts'], /unknown API version "1999-01-01".*2024-04-01/],
      [['types', '--version', '2024-04-01'], /--out FILE/],
      [['types', '--out', 'y.ts'], /--version V/],
      [['mock', '--port', 'eighty'], /Invalid port "eighty": set --port to a number/],
      [['mock', '--nope'], /Unknown option '--nope'/],
      [['serve'], /unknown command "serve"/],
    ];
    for (const [args, message] of cases) {
      const result = await run(binOf(consumer), args, consumer);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toContain(`${BIN} --help`);
    }
    expect(existsSync(join(consumer, 'y.ts'))).toBe(false);
  });

  it('fuzz loads fast-check and the packaged fuzzer: an unreachable server is exit 3, one line', async () => {
    const result = await run(binOf(consumer), ['fuzz', '--base-url', 'http://127.0.0.1:1', '--token', 't'], consumer);
    expect(result.code).toBe(EXIT.internal);
    expect(result.stderr.trim()).toMatch(
      /^store-admin-contract: Fuzz run failed: cannot reach http:\/\/127\.0\.0\.1:1: /,
    );
  });

  it('mock serves the packaged bundles on $PORT, answers the packaged client, and stops on SIGTERM', async () => {
    const mock = await startBinMock(consumer);
    try {
      expect(mock.url).toBe(`http://127.0.0.1:${mock.port}`);
      await writeFile(join(consumer, 'request.mjs'), REQUEST);
      const { stdout } = await ok(process.execPath, ['request.mjs', mock.url], consumer);
      const answer = JSON.parse(stdout);
      expect(answer.status).toBe(200);
      expect(answer.version).toBe(versionOf('get', '/store/'));
      expect(Array.isArray(answer.data) && typeof answer.data[0]?.name).toBe('string');
      expect(mock.output()).toContain(`versions: ${VERSIONS.join(', ')}`);
      // The reference, prebuilt into the tarball (the renderer is a devDependency), with try-it on this origin.
      const docs = await fetch(`${mock.url}/docs/`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toContain('<elements-api');
      expect(await (await fetch(`${mock.url}/docs/assets/config.js`)).text()).toContain('"defaultBaseUrl":null');
    } finally {
      expect(await mock.stop(), 'exit status after SIGTERM').toBe(0);
    }
    await expect(fetch(`http://127.0.0.1:${mock.port}/store/`)).rejects.toThrow();
  }, 60_000);

  it('works without the optional peers until a command needs one, then prints an install hint', async () => {
    const version = await ok(binOf(bare), ['--version'], bare);
    expect(version.stdout).toContain(manifest.version);

    // The data-backed mock needs no peer; its example mode (Prism) does.
    const listing = await run(binOf(bare), ['mock', '--examples'], bare);
    expect(listing.code, listing.stderr).toBe(EXIT.ok);
    const mock = await run(binOf(bare), ['mock', '--static', '--port', '0'], bare);
    expect(mock.code).toBe(EXIT.internal);
    expect(mock.stderr).toContain('"mock --static" needs @stoplight/prism-http');
    expect(mock.stderr).toContain(
      `npm install --save-dev "@stoplight/prism-http@${manifest.peerDependencies['@stoplight/prism-http']}"`,
    );

    const types = await run(binOf(bare), ['types', '--version', '2024-04-01', '--out', 'z.ts'], bare);
    expect(types.code).toBe(EXIT.internal);
    expect(types.stderr).toContain('"types" needs openapi-typescript');
    expect(types.stderr).toContain(
      `npm install --save-dev "openapi-typescript@${manifest.peerDependencies['openapi-typescript']}"`,
    );
    expect(existsSync(join(bare, 'z.ts'))).toBe(false);

    const fuzz = await run(binOf(bare), ['fuzz', '--base-url', 'http://127.0.0.1:1', '--token', 't'], bare);
    expect(fuzz.code).toBe(EXIT.internal);
    expect(fuzz.stderr).toContain('"fuzz" needs fast-check');
    expect(fuzz.stderr).toContain(`npm install --save-dev "fast-check@${manifest.peerDependencies['fast-check']}"`);
  });
});

/**
 * A downstream script on msw/node (check.mjs, CHECK_MSW written by the caller): the mock's handlers, no process spawned, through the
 * packaged client: pages, a write, both versions, the hard cases. Run in `project` by `nodeBinary`
 * (the repo's Node 20 by default); returns what it printed, with the msw version the project has.
 */
async function checkMsw(project: string, nodeBinary = process.execPath) {
  const { stdout } = await ok(nodeBinary, ['check.mjs'], project);
  const msw = JSON.parse(await readFile(join(project, 'node_modules', 'msw', 'package.json'), 'utf8')).version;
  return { ...JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}'), msw };
}
const CHECK_MSW = `import { setupServer } from 'msw/node';
import { createAdminClient, paginate } from '${PACKAGE}';
import { createHandlers } from '${PACKAGE}/msw';
const baseUrl = 'http://downstream.test/api';
const server = setupServer(...createHandlers({ baseUrl }));
// msw 3 renamed msw 2's onUnhandledRequest; each ignores the other's.
server.listen({ onUnhandledRequest: 'error', onUnhandledFrame: 'error' });
const client = createAdminClient({ baseUrl, token: 'downstream', retry: false });
const ids = [];
for await (const s of paginate(client, '/subscriptions/')) ids.push(s.id);
await client.PATCH('/tickets/{id}/', { params: { path: { id: 7 } }, body: { subject: 'downstream' } });
const ticket = await client.GET('/tickets/{id}/', { params: { path: { id: 7 } } });
const old = await client.withVersion('2023-02-10').GET('/subscriptions/');
const limited = await client.GET('/store/', { headers: { Prefer: 'fail=429' } });
const scoped = createAdminClient({ baseUrl, token: 'scopes:store:read', retry: false });
const denied = await scoped.GET('/tickets/{id}/', { params: { path: { id: 1 } } });
server.close();
console.log(JSON.stringify({ node: process.version, ids: ids.length, distinct: new Set(ids).size, subject: ticket.data.subject,
  oldProduct: Boolean(old.data.results[0].lines[0].product), limited: limited.response.status,
  denied: denied.response.status }));
`;

function expectFullMock(result: Record<string, unknown> & { ids: number }): void {
  expect(result.ids).toBeGreaterThanOrEqual(30);
  expect(result).toMatchObject({
    distinct: result.ids,
    subject: 'downstream',
    oldProduct: true,
    limited: 429,
    denied: 403,
  });
}

describe('a downstream project with only the tarball and msw', () => {
  let project = '';
  beforeAll(() => {
    project = withMsw;
  });

  it('runs a downstream vitest suite on the mock through msw/node, and a bad fixture fails tsc naming the field', async () => {
    await writeFile(
      join(project, 'app.test.ts'),
      `import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAdminClient, paginate } from '${PACKAGE}';
import { createHandlers } from '${PACKAGE}/msw';

const baseUrl = 'http://downstream.test/api';
const handlers = createHandlers({ baseUrl });
const server = setupServer(...handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
const client = createAdminClient({ baseUrl, token: 'vitest', retry: false });

it('pages to the end', async () => {
  const ids: number[] = [];
  for await (const s of paginate(client, '/subscriptions/')) ids.push(s.id as number);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.length).toBeGreaterThanOrEqual(30);
});

it('persists a write', async () => {
  await client.PATCH('/tickets/{id}/', { params: { path: { id: 7 } }, body: { subject: 'vitest' } });
  expect((await client.GET('/tickets/{id}/', { params: { path: { id: 7 } } })).data?.subject).toBe('vitest');
});
`,
    );
    const tests = await run(join(project, 'node_modules', '.bin', 'vitest'), ['run', 'app.test.ts'], project);
    expect(tests.code, tests.stdout + tests.stderr).toBe(0);
    expect(tests.stdout).toMatch(/Tests\s+.*2 passed/);

    await writeFile(
      join(project, 'fixture.ts'),
      `import { createHandlers } from '${PACKAGE}/msw';
import type { Ticket } from '${PACKAGE}/types/unstable';
declare const ticket: Ticket;
createHandlers({ baseUrl: 'http://x.test', data: { tickets: [{ ...ticket, priority: 'urgent' }] } });
`,
    );
    const tsc = join(consumer, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = ['--noEmit', '--strict', '--module', 'nodenext', '--skipLibCheck', 'fixture.ts'];
    const check = await run(process.execPath, [tsc, ...args], project);
    expect(check.code).not.toBe(0);
    expect(check.stdout).toMatch(/fixture\.ts\(4,.*'"urgent"' is not assignable/);
  }, 120_000);

  // docs/mock.md "Forks": the vitest example as a user copies it (its three blocks, verbatim), run by
  // the project's own vitest against the packaged mock: a global setup prepares and saves a global
  // snapshot once, two test files (so two workers) fork it and each sees only its own write.
  it('runs the forks vitest example of docs/mock.md as written: one prepared store, a fork per test', async () => {
    const docs = await readFile(join(installed(project), 'docs', 'mock.md'), 'utf8');
    const section = docs.slice(docs.indexOf('### A vitest suite: prepare once, fork per test'));
    const [setup, helper, test] = [...section.matchAll(/```ts nocheck\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
    expect(setup).toContain('globalSetup');
    expect(helper).toContain('export async function forkPrepared');
    expect(test).toContain("from './fork.ts'");
    await writeFile(join(project, 'global-setup.ts'), setup ?? '');
    await writeFile(join(project, 'fork.ts'), helper ?? '');
    for (const name of ['forks-a.test.ts', 'forks-b.test.ts']) await writeFile(join(project, name), test ?? '');
    const config = "export default { test: { globalSetup: ['./global-setup.ts'], include: ['forks-*.test.ts'] } };\n";
    await writeFile(join(project, 'vitest.forks.config.mjs'), config);
    const vitest = join(project, 'node_modules', '.bin', 'vitest');
    const result = await run(vitest, ['run', '--config', 'vitest.forks.config.mjs'], project);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Test Files\s+.*2 passed/);
    expect(result.stdout).toMatch(/Tests\s+.*2 passed/);
  }, 120_000);

  it('gets the full mock under msw/node, no process spawned: pages, a write, both versions, the hard cases', async () => {
    await writeFile(join(project, 'check.mjs'), CHECK_MSW);
    expectFullMock(await checkMsw(project));
  }, 60_000);

  it("serves a page built from the tarball through msw's service worker in Chromium", async () => {
    await writeFile(
      join(project, 'page.mjs'),
      `import { setupWorker } from 'msw/browser';
import { createAdminClient, paginate } from '${PACKAGE}';
import { createHandlers } from '${PACKAGE}/msw';
const baseUrl = location.origin + '/api';
await setupWorker(...createHandlers({ baseUrl })).start({ serviceWorker: { url: '/mockServiceWorker.js' }, quiet: true });
const client = createAdminClient({ baseUrl, token: 'page', retry: false });
const ids = [];
for await (const s of paginate(client, '/subscriptions/')) ids.push(s.id);
await client.PATCH('/tickets/{id}/', { params: { path: { id: 7 } }, body: { subject: 'from the tarball' } });
const ticket = await client.GET('/tickets/{id}/', { params: { path: { id: 7 } } });
document.getElementById('result').textContent = JSON.stringify({ ids: ids.length, distinct: new Set(ids).size, subject: ticket.data.subject });
`,
    );
    const bundle = await build({
      entryPoints: [join(project, 'page.mjs')],
      absWorkingDir: project,
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    const worker = await readFile(join(project, 'node_modules', 'msw', 'lib', 'mockServiceWorker.js'), 'utf8');
    const files: Record<string, [string, string]> = {
      '/': ['text/html', '<!doctype html><pre id="result"></pre><script type="module" src="/page.js"></script>'],
      '/page.js': ['text/javascript', bundle.outputFiles[0]?.text ?? ''],
      '/mockServiceWorker.js': ['text/javascript', worker],
    };
    const served: string[] = [];
    const site = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      served.push(path);
      const file = files[path];
      response.writeHead(file ? 200 : 404, { 'Content-Type': file?.[0] ?? 'text/plain' });
      response.end(file?.[1] ?? '');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const browser = await launchBrowser();
    try {
      const page = await browser.context.newPage();
      await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
      await page.waitForFunction(() => document.getElementById('result')?.textContent !== '', null, {
        timeout: 30_000,
      });
      const result = JSON.parse((await page.textContent('#result')) ?? '{}');
      expect(result.ids).toBeGreaterThanOrEqual(30);
      expect(result).toMatchObject({ distinct: result.ids, subject: 'from the tarball' });
      expect(served.filter((path) => path.startsWith('/api'))).toEqual([]);
    } finally {
      await browser.close();
      await new Promise((resolve) => site.close(resolve));
    }
  }, 90_000);

  it('bundles `./msw` for the browser with the bundles inside, no node: module, no Prism', async () => {
    await writeFile(
      join(project, 'app.mjs'),
      `import { createHandlers } from '${PACKAGE}/msw';\nexport default createHandlers;\n`,
    );
    const result = await build({
      entryPoints: [join(project, 'app.mjs')],
      absWorkingDir: project,
      bundle: true,
      platform: 'browser',
      format: 'esm',
      external: ['msw'],
      write: false,
      logLevel: 'silent',
      metafile: true,
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((file) => file.includes('@stoplight') || file.startsWith('node:'))).toEqual([]);
    expect(inputs.some((file) => file.endsWith('generated/openapi/2024-04-01.json'))).toBe(true);
  }, 60_000);
});

describe(`Node 22 and 24, with the releases npm installs today (${TODAY.join(', ')})`, () => {
  const versionOfPackage = async (project: string, name: string): Promise<string> =>
    JSON.parse(await readFile(join(project, 'node_modules', name, 'package.json'), 'utf8')).version;

  it('installs beside msw 3, orval 8 and the newest peers, with no --legacy-peer-deps (npm on Node 24)', async () => {
    expect(todayInstall.code, todayInstall.stdout + todayInstall.stderr).toBe(0);
    expect(await versionOfPackage(today, 'msw')).toBe('3.0.5');
    expect(await versionOfPackage(today, '@stoplight/prism-http')).toBe('5.16.0');
  });

  it('runs the bin and the packaged client on each: mock on $PORT answers a request, then stops on SIGTERM', async () => {
    await writeFile(join(today, 'request.mjs'), REQUEST);
    await Promise.all(
      NODES.map(async (major) => {
        const mock = await startBinMock(today, [], { PATH: node[major].PATH });
        try {
          // The bin's `#!/usr/bin/env node` found this Node first on PATH.
          expect(await realpath(`/proc/${mock.pid}/exe`)).toBe(await realpath(node[major].binary));
          const { stdout } = await ok(node[major].binary, ['request.mjs', mock.url], today);
          expect(JSON.parse(stdout)).toMatchObject({
            node: `v${NEWER_NODES[major]}`,
            status: 200,
            version: versionOf('get', '/store/'),
          });
        } finally {
          expect(await mock.stop(), `Node ${major}: exit status after SIGTERM`).toBe(0);
        }
      }),
    );
  }, 60_000);

  it('serves the full mock under msw/node on each, with msw 2.15 and msw 3', async () => {
    await Promise.all([withMsw, today].map((project) => writeFile(join(project, 'check.mjs'), CHECK_MSW)));
    const runs = await Promise.all(
      NODES.flatMap((major) => [withMsw, today].map((project) => checkMsw(project, node[major].binary))),
    );
    for (const result of runs) expectFullMock(result);
    expect(runs.map(({ node, msw }) => `${node} msw ${msw}`)).toEqual(
      NODES.flatMap((major) => [
        `v${NEWER_NODES[major]} msw ${manifest.devDependencies.msw}`,
        `v${NEWER_NODES[major]} msw 3.0.5`,
      ]),
    );
  }, 90_000);

  it('runs the commands of the newest peers on Node 24: mock --static (prism-http 5.16), fuzz (fast-check)', async () => {
    const env = { PATH: node[24].PATH };
    const [fuzz, mock] = await Promise.all([
      run(binOf(today), ['fuzz', '--base-url', 'http://127.0.0.1:1', '--token', 't'], today, env),
      startBinMock(today, ['--static'], env),
    ]);
    try {
      const answer = await fetch(`${mock.url}/store/`, { headers: { Authorization: 'Bearer static' } });
      expect(answer.status).toBe(200);
      expect(Array.isArray(await answer.json())).toBe(true);
    } finally {
      expect(await mock.stop(), 'exit status after SIGTERM').toBe(0);
    }
    expect(fuzz.code).toBe(EXIT.internal);
    expect(fuzz.stderr.trim()).toMatch(
      /^store-admin-contract: Fuzz run failed: cannot reach http:\/\/127\.0\.0\.1:1: /,
    );
  }, 90_000);

  it('generates with orval 8 on each from the packaged bundles, with the options of docs/ecosystem.md: no error, no warning, and the output type-checks', async () => {
    // test/ecosystem/generate.ts holds the documented calls; copied here, its `orval` is orval 8.
    await copyFile(join(ROOT, 'test', 'ecosystem', 'generate.ts'), join(today, 'generate.ts'));
    const bundles = join(installed(today), 'generated', 'openapi');
    const reports = await Promise.all(
      NODES.map(async (major) => {
        const args = ['generate.ts', 'orval', bundles, `out-${major}`, VERSIONS.join(','), 'http://127.0.0.1:4010'];
        const { stdout } = await ok(node[major].binary, args, today);
        return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, ToolReport>;
      }),
    );
    expect(await versionOfPackage(today, 'orval')).toMatch(/^8\./);
    for (const [i, report] of reports.entries()) {
      for (const version of VERSIONS) {
        expect(report[version], `Node ${NODES[i]}, ${version}`).toBeDefined();
        expect(problemsOf(report[version]), `Node ${NODES[i]}, ${version}`).toEqual([]);
      }
    }
    const tsconfig = { compilerOptions: GENERATED_CODE_OPTIONS, include: ['out-24/**/*.ts'] };
    await writeFile(join(today, 'tsconfig.orval.json'), JSON.stringify(tsconfig));
    // TypeScript 7, the one `npm i typescript` gives beside orval 8 (native: seconds, where 5.9 takes ~15).
    const check = await run(node[24].binary, [TSC_7, '-p', 'tsconfig.orval.json'], today);
    expect(check.stdout + check.stderr).toBe('');
    expect(check.code).toBe(0);
    // One file per version, its MSW mocks inline, as orval 7 writes it.
    expect(await readdir(join(today, 'out-24', 'orval', '2024-04-01'))).toEqual(['client.ts']);
    expect(await readFile(join(today, 'out-24', 'orval', '2024-04-01', 'client.ts'), 'utf8')).toContain('MockHandler');
  }, 120_000);
});
