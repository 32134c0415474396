// Hostile sources (#13): a `$ref` that leaves openapi/ or names a URL, an alias bomb, an oversized
// file. Each case plants one into a scratch copy of openapi/ (never the real folder; the cases of a
// surface share one copy and one run, a time-bounded case runs alone) and runs one surface: the
// build (`scripts/build.ts`), the source check `npm run lint` runs before Redocly
// (`scripts/check-sources.ts`), Redocly's own lint (the house rule) or the types generator. Each
// asserts the exit code and its own message line (file, pointer, rule), that the secret marker of a
// file outside the repository shows up nowhere (output, generated files), and that the local HTTP
// server received no request.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redoclyApis } from '../../scripts/lib/redocly-apis.ts';
import { assertLocalRefs, checkSources, configuredRoots, SourceGuardError } from '../../scripts/lib/source-guard.ts';
import {
  BOMB_YAML,
  type Listener,
  listen,
  MARKER,
  plantRef,
  ROOT,
  type Run,
  removeDir,
  runScript,
  STORE_EXAMPLE,
  STORE_SCHEMA,
  scratchSource,
  secretDir,
} from './fixtures.ts';

let server: Listener;
let secret: { dir: string; file: string };
const scratches: string[] = [];

beforeAll(async () => {
  server = await listen();
  secret = await secretDir();
});
afterAll(async () => {
  await server.close();
  await Promise.all([secret.dir, ...scratches].map(removeDir));
});

/** Every file below `dir` (generated output), read as text. */
async function filesBelow(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out.set(relative(dir, path), await readFile(path, 'utf8'));
  }
  return out;
}

const POINTER = `${STORE_SCHEMA}#/properties/planted/$ref`;
/** The pointer of a `$ref` planted as the Store property `property`. */
const pointerOf = (property: string) => `${STORE_SCHEMA}#/properties/${property}/$ref`;

interface Case {
  name: string;
  /**
   * Plants the hostile input into the scratch copy `dir`; a `$ref` goes in as the property
   * `property` (one per case, so that cases sharing a scratch copy stay apart).
   */
  plant: (dir: string, property: string) => Promise<void>;
  /** `build`: scripts/build.ts; `lint`: scripts/check-sources.ts (first step of npm run lint). */
  surface: 'build' | 'lint';
  code: number;
  /**
   * Fragments of one line of the error output (`{pointer}` is the planted `$ref`'s pointer, `{url}`
   * the local server, `{secret}` the outside file); the first names this case alone.
   */
  stderr: string[];
  /** Upper bound of the run, in ms: such a case runs alone, so the bound is its own. */
  withinMs?: number;
}

const toSecret = (dir: string, from: string) => relative(join(dir, from, '..'), secret.file);
const fill = (text: string) => text.replaceAll('{url}', server.url).replaceAll('{secret}', secret.file);

const CASES: Case[] = [
  {
    name: 'a relative $ref climbing out of the repository',
    surface: 'build',
    plant: (dir, property) => plantRef(dir, toSecret(dir, STORE_SCHEMA), STORE_SCHEMA, property),
    code: 3,
    stderr: ['{pointer}: $ref "../', `leaves openapi/ (resolves to {secret}) (rule no-external-ref)`],
  },
  {
    name: 'an absolute path',
    surface: 'build',
    plant: (dir, property) => plantRef(dir, secret.file, STORE_SCHEMA, property),
    code: 3,
    stderr: ['{pointer}: $ref "{secret}" leaves openapi/ (resolves to {secret}) (rule no-external-ref)'],
  },
  {
    name: 'a percent-encoded climb (..%2F)',
    surface: 'build',
    plant: (dir, property) => plantRef(dir, toSecret(dir, STORE_SCHEMA).replaceAll('/', '%2F'), STORE_SCHEMA, property),
    code: 3,
    stderr: ['{pointer}: $ref "..%2F..%2F', `leaves openapi/ (resolves to {secret}) (rule no-external-ref)`],
  },
  {
    name: 'a file: URL',
    surface: 'build',
    plant: (dir, property) => plantRef(dir, `file://${secret.file}`, STORE_SCHEMA, property),
    code: 3,
    stderr: ['{pointer}: $ref "file://{secret}" names a URL; nothing is fetched (rule no-external-ref)'],
  },
  {
    name: 'an http URL (local server)',
    surface: 'build',
    plant: (dir, property) => plantRef(dir, `${server.url}/schema.yaml`, STORE_SCHEMA, property),
    code: 3,
    stderr: ['{pointer}: $ref "{url}/schema.yaml" names a URL; nothing is fetched (rule no-external-ref)'],
  },
  {
    name: 'a protocol-relative URL (//host)',
    surface: 'build',
    plant: (dir, property) =>
      plantRef(dir, `${server.url.slice('http:'.length)}/schema.yaml#/x`, STORE_SCHEMA, property),
    code: 3,
    stderr: ['{pointer}: $ref "//127.0.0.1:', 'names a URL; nothing is fetched (rule no-external-ref)'],
  },
  {
    name: 'a symbolic link inside openapi/ to a file outside',
    surface: 'build',
    plant: async (dir, property) => {
      await symlink(secret.file, join(dir, 'openapi/components/schemas/Linked.yaml'));
      await plantRef(dir, './Linked.yaml', STORE_SCHEMA, property);
    },
    code: 3,
    stderr: [
      '{pointer}: $ref "./Linked.yaml" leaves openapi/ through a symbolic link (to {secret}) (rule no-external-ref)',
    ],
  },
  {
    name: 'a URL two files away from the root (Store -> StoreContactAddress)',
    surface: 'build',
    plant: (dir) => plantRef(dir, `${server.url}/deep.yaml`, 'openapi/components/schemas/StoreContactAddress.yaml'),
    code: 3,
    stderr: [
      'openapi/components/schemas/StoreContactAddress.yaml#/properties/planted/$ref: $ref "{url}/deep.yaml" names a URL',
    ],
  },
  {
    name: 'the 18-line alias bomb as an example',
    surface: 'build',
    plant: (dir) => writeFile(join(dir, STORE_EXAMPLE), BOMB_YAML),
    code: 3,
    stderr: [
      `${STORE_EXAMPLE}#: YAML aliases expand beyond the limit (maxAliasCount 100): an alias bomb? (rule yaml-alias-limit)`,
    ],
    // Before the guard: Redocly ran out of heap after ~58 s. Process start-up included.
    withinMs: 10_000,
  },
  {
    name: 'a source file over 1 MiB',
    surface: 'build',
    plant: async (dir) => {
      const file = join(dir, STORE_EXAMPLE);
      const text = await readFile(file, 'utf8');
      await writeFile(file, `${text}\n# ${'x'.repeat(1024 * 1024)}\n`);
    },
    code: 3,
    stderr: [`${STORE_EXAMPLE}#: `, 'bytes, over the limit of 1048576 bytes for a source file (rule source-too-large)'],
  },
  {
    name: 'an http URL, before redocly lint runs',
    surface: 'lint',
    plant: (dir, property) => plantRef(dir, `${server.url}/schema.yaml`, STORE_SCHEMA, property),
    code: 3,
    stderr: ['{pointer}: $ref "{url}/schema.yaml" names a URL; nothing is fetched (rule no-external-ref)'],
  },
  {
    name: 'a file outside, before redocly lint runs',
    surface: 'lint',
    plant: (dir, property) => plantRef(dir, toSecret(dir, STORE_SCHEMA), STORE_SCHEMA, property),
    code: 3,
    stderr: ['{pointer}: $ref "../', 'leaves openapi/ (resolves to {secret}) (rule no-external-ref)'],
  },
  {
    name: 'the alias bomb, before redocly lint runs',
    surface: 'lint',
    plant: (dir) => writeFile(join(dir, STORE_EXAMPLE), BOMB_YAML),
    code: 3,
    stderr: [`${STORE_EXAMPLE}#: YAML aliases expand beyond the limit`],
    withinMs: 10_000,
  },
];

/** What one run of a surface did, and what the local server received meanwhile. */
interface Outcome {
  run: Run;
  requests: string[];
  generated: Map<string, string>;
}

/**
 * One scratch copy and one process per surface for the cases without a time bound, all planted
 * together (the guard lists every problem at once, so each case's own line must still be there; a
 * case the guard let through would be missing from it); a case with a time bound runs alone. About
 * 1 s of CPU per process: 4 runs instead of 13.
 */
const runs = new Map<string, Promise<Outcome>>();
const groupOf = (row: Case) => (row.withinMs ? `${row.surface}: ${row.name}` : row.surface);
const propertyOf = (row: Case) => `planted${CASES.indexOf(row)}`;

function outcomeOf(row: Case): Promise<Outcome> {
  const group = groupOf(row);
  let outcome = runs.get(group);
  if (!outcome) {
    outcome = (async () => {
      const dir = await scratchSource();
      scratches.push(dir);
      for (const each of CASES.filter((c) => groupOf(c) === group)) await each.plant(dir, propertyOf(each));
      const before = server.requests.length;
      const out = join(dir, 'generated');
      const run =
        row.surface === 'build'
          ? await runScript('scripts/build.ts', ['--out', out], dir)
          : await runScript('scripts/check-sources.ts', [], dir);
      return { run, requests: server.requests.slice(before), generated: await filesBelow(out) };
    })();
    runs.set(group, outcome);
  }
  return outcome;
}

describe('hostile sources are refused before anything is resolved', () => {
  it.each(CASES)('$surface: $name', { timeout: 120_000 }, async (row) => {
    const { run, requests, generated } = await outcomeOf(row);
    const [first = '', ...rest] = row.stderr.map((text) =>
      fill(text).replaceAll('{pointer}', pointerOf(propertyOf(row))),
    );
    const line = run.stderr.split('\n').find((l) => l.includes(first));
    expect(line, `no line with "${first}" in:\n${run.stderr}`).toBeDefined();
    for (const fragment of rest) expect(line).toContain(fragment);
    expect(run.code, run.stderr).toBe(row.code);
    if (row.withinMs) expect(run.ms).toBeLessThan(row.withinMs);
    expect(requests, 'requests received by the local server').toEqual([]);
    expect(`${run.stdout}${run.stderr}`).not.toContain(MARKER);
    // Nothing was bundled: no generated file, let alone one holding the marker.
    for (const [file, text] of generated) expect(text, file).not.toContain(MARKER);
    expect([...generated.keys()].filter((f) => f.startsWith('openapi/'))).toEqual([]);
  });
});

describe('the guard in-process', () => {
  it('accepts the real source (with its YAML anchors) and reads its roots from redocly.yaml', async () => {
    const cwd = process.cwd();
    process.chdir(ROOT);
    try {
      const roots = await configuredRoots();
      // Every API of redocly.yaml, in its order (a new version is one more root).
      expect(roots).toEqual(redoclyApis().map((api) => api.root));
      expect(roots).toEqual(
        expect.arrayContaining(['openapi/versions/2024-04-01.yaml', 'openapi/versions/unstable.yaml']),
      );
      await expect(checkSources(roots)).resolves.toBeUndefined();
    } finally {
      process.chdir(cwd);
    }
  });

  it('stops the alias bomb in well under 2 s, naming the file', async () => {
    const dir = await scratchSource();
    scratches.push(dir);
    await writeFile(join(dir, STORE_EXAMPLE), BOMB_YAML);
    const started = performance.now();
    const error = await checkSources([join(dir, 'openapi/versions/2024-04-01.yaml')], {
      sourceDir: join(dir, 'openapi'),
    }).catch((e: unknown) => e);
    const ms = performance.now() - started;
    expect(error).toBeInstanceOf(SourceGuardError);
    expect((error as SourceGuardError).problems).toEqual([
      expect.objectContaining({ file: join(dir, STORE_EXAMPLE), pointer: '#', rule: 'yaml-alias-limit' }),
    ]);
    expect(ms).toBeLessThan(2000);
  });

  it('lists every problem at once, each with its file, pointer and rule', async () => {
    const dir = await scratchSource();
    scratches.push(dir);
    await plantRef(dir, `${server.url}/a.yaml`);
    await plantRef(dir, secret.file, 'openapi/components/schemas/Page.yaml');
    const error = (await checkSources([join(dir, 'openapi/versions/2024-04-01.yaml')], {
      sourceDir: join(dir, 'openapi'),
    }).catch((e: unknown) => e)) as SourceGuardError;
    expect(error).toBeInstanceOf(SourceGuardError);
    expect(error.problems.map((p) => `${relative(dir, p.file)}${p.pointer} ${p.rule}`).sort()).toEqual([
      'openapi/components/schemas/Page.yaml#/properties/planted/$ref no-external-ref',
      `${POINTER} no-external-ref`,
    ]);
    expect(server.requests).toEqual([]);
  });

  it('refuses a root document outside the source folder', async () => {
    const error = (await checkSources([secret.file], { sourceDir: join(ROOT, 'openapi') }).catch(
      (e: unknown) => e,
    )) as SourceGuardError;
    expect(error.problems).toEqual([
      expect.objectContaining({
        pointer: '#',
        rule: 'no-external-ref',
        message: 'the root document lies outside openapi/',
      }),
    ]);
  });
});

// The build checks each bundle (assertLocalRefs) before openapi-typescript sees it.
describe('type generation', () => {
  const bundle = async () => JSON.parse(await readFile(join(ROOT, 'generated/openapi/2024-04-01.json'), 'utf8'));
  const TYPE_CASES = [
    { name: 'an http URL', ref: () => `${server.url}/types.yaml`, says: 'names a URL; nothing is fetched' },
    { name: 'a file outside', ref: () => secret.file, says: 'points outside the bundle' },
    { name: 'a relative file', ref: () => '../../schemas/Store.yaml', says: 'points outside the bundle' },
  ];
  it.each(TYPE_CASES)('refuses a bundle referring to $name', async ({ ref, says }) => {
    const document = await bundle();
    document.components.schemas.Store.properties.planted = { $ref: ref() };
    const error = (() => {
      try {
        assertLocalRefs(document, 'the 2024-04-01 bundle');
      } catch (e) {
        return e as Error;
      }
    })() as Error;
    expect(error).toBeInstanceOf(SourceGuardError);
    expect(error.message).toContain(
      `the 2024-04-01 bundle#/components/schemas/Store/properties/planted/$ref: $ref ${JSON.stringify(ref())} ${says} (rule no-external-ref)`,
    );
    expect(error.message).not.toContain(MARKER);
    expect(server.requests).toEqual([]);
  });
});

/** Runs the Redocly CLI by hand in `dir` (no guard of ours in front of it). */
function redocly(dir: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const started = performance.now();
  return new Promise((done) =>
    execFile(
      process.execPath,
      [join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'), ...args],
      {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
        timeout: 60_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) =>
        done({ code: error ? Number(error.code) : 0, stdout, stderr, ms: performance.now() - started }),
    ),
  );
}

interface RedoclyCase {
  name: string;
  command: 'lint' | 'bundle';
  /** false: openapi/ and redocly.yaml alone, as test/contract/lint.test.ts copies them. */
  nodeModules: boolean;
  plant: (dir: string) => Promise<void>;
  stderr: string[];
}

/** `file:line: ` of the planted `$ref` (plantRef writes it two lines below `properties:`). */
const STORE_LINE = (() => {
  const lines = readFileSync(join(ROOT, STORE_SCHEMA), 'utf8').split('\n');
  return `${STORE_SCHEMA}:${lines.indexOf('properties:') + 3}: `;
})();
const REDOCLY_CASES: RedoclyCase[] = [
  {
    name: 'an http URL',
    command: 'lint',
    nodeModules: true,
    plant: (dir) => plantRef(dir, `${server.url}/schema.yaml`),
    stderr: [`${STORE_LINE}$ref "{url}/schema.yaml" names a URL; nothing is fetched (rule no-external-ref)`],
  },
  {
    name: 'an http URL, without node_modules',
    command: 'lint',
    nodeModules: false,
    plant: (dir) => plantRef(dir, `${server.url}/schema.yaml`),
    stderr: [`${STORE_LINE}$ref "{url}/schema.yaml" names a URL; nothing is fetched (rule no-external-ref)`],
  },
  {
    name: 'a file outside the repository',
    command: 'bundle',
    nodeModules: true,
    plant: (dir) => plantRef(dir, toSecret(dir, STORE_SCHEMA)),
    stderr: [STORE_LINE, 'leaves openapi/ (resolves to {secret}) (rule no-external-ref)'],
  },
  {
    name: 'a symbolic link to a file outside, without node_modules',
    command: 'bundle',
    nodeModules: false,
    plant: async (dir) => {
      await symlink(secret.file, join(dir, 'openapi/components/schemas/Linked.yaml'));
      await plantRef(dir, './Linked.yaml');
    },
    stderr: [`${STORE_LINE}$ref "./Linked.yaml" leaves openapi/ through a symbolic link (to {secret})`],
  },
  {
    name: 'an escaped $ref key (a "\\u0024ref" the scan cannot see through)',
    command: 'lint',
    nodeModules: false,
    plant: async (dir) => {
      const file = join(dir, STORE_SCHEMA);
      const text = await readFile(file, 'utf8');
      await writeFile(file, `${text}\n  sneaky: {"\\u0024ref": "${server.url}/x.yaml"}\n`.replace('\n\n', '\n'));
    },
    stderr: ['an escaped `$` (a `$ref` the scan cannot see); write `$ref` as is (rule no-external-ref)'],
  },
  {
    name: 'the alias bomb',
    command: 'bundle',
    nodeModules: true,
    plant: (dir) => writeFile(join(dir, STORE_EXAMPLE), BOMB_YAML),
    stderr: [`${STORE_EXAMPLE}:1: YAML aliases expand beyond the limit (maxAliasCount 100)`],
  },
];

describe('the Redocly CLI run by hand refuses before resolving (the plugin loads openapi/rules/source-scan.js)', () => {
  it.each(REDOCLY_CASES)('redocly $command: $name', { timeout: 90_000 }, async (row) => {
    const dir = await scratchSource();
    scratches.push(dir);
    if (!row.nodeModules) await rm(join(dir, 'node_modules'));
    await row.plant(dir);
    const args =
      row.command === 'lint' ? ['lint'] : ['bundle', 'openapi/versions/2024-04-01.yaml', '-o', join(dir, 'out.json')];
    const run = await redocly(dir, args);
    for (const line of row.stderr) expect(run.stderr).toContain(fill(line));
    expect(run.stderr).toContain('refusing the contract source (openapi/rules/source-scan.js)');
    expect(run.code).not.toBe(0);
    expect(run.ms).toBeLessThan(20_000);
    expect(server.requests).toEqual([]);
    expect(`${run.stdout}${run.stderr}`).not.toContain(MARKER);
    expect(await readFile(join(dir, 'out.json'), 'utf8').catch(() => 'absent')).toBe('absent');
  });
});

describe('house/no-external-ref (openapi/rules/house-rules.js), in-process', () => {
  const RULE_CASES = [
    { ref: '../schemas/Id.yaml', from: 'components/parameters/IdPath.yaml', report: undefined },
    { ref: '#/components/schemas/Id', from: 'versions/unstable.yaml', report: undefined },
    { ref: './Id.yaml#/x', from: 'components/schemas/Store.yaml', report: undefined },
    {
      ref: 'https://example.com/s.yaml',
      from: 'components/schemas/Store.yaml',
      report: 'names a URL; nothing is fetched',
    },
    { ref: 'file:///etc/passwd', from: 'components/schemas/Store.yaml', report: 'names a URL; nothing is fetched' },
    { ref: '//example.com/s.yaml', from: 'components/schemas/Store.yaml', report: 'names a URL; nothing is fetched' },
    { ref: '../../../package.json', from: 'components/schemas/Store.yaml', report: 'leaves openapi/' },
    { ref: '/etc/passwd', from: 'components/schemas/Store.yaml', report: 'leaves openapi/' },
    { ref: '..%2F..%2F..%2Fpackage.json', from: 'components/schemas/Store.yaml', report: 'leaves openapi/' },
    { ref: './Id.yaml', from: 'http://example.com/s.yaml', report: 'is read from a URL' },
  ];
  it.each(RULE_CASES)('$ref in $from: $report', async ({ ref, from, report }) => {
    const plugin = await import(pathToFileURL(join(ROOT, 'openapi/rules/house-rules.js')).href);
    const visitor = plugin.default().rules.oas3['no-external-ref']();
    const reports: { message: string; location: unknown }[] = [];
    const absoluteRef = from.startsWith('http') ? from : join(ROOT, 'openapi', from);
    visitor.ref.enter(
      { $ref: ref },
      {
        location: { source: { absoluteRef }, child: (path: string[]) => ({ path }) },
        report: (problem: { message: string; location: unknown }) => reports.push(problem),
      },
    );
    if (!report) expect(reports).toEqual([]);
    else {
      expect(reports).toEqual([
        {
          message: `\`$ref\` ${JSON.stringify(ref)} ${report}: sources must stay inside openapi/.`,
          location: { path: ['$ref'] },
        },
      ]);
    }
  });
});
