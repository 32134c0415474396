// Hostile inputs to the breaking-change guard (#13). The diff compares bundles from git, so each
// case builds a scratch git repository of bundles (this repository's, rewritten) and runs the real
// `scripts/diff.ts --dir` on it: a `$ref` graph two ways wide per level (linear, bounded output,
// right verdict), `$ref`s leaving the bundle (a URL of a local server that must receive nothing, a
// file outside the repository whose marker must show up nowhere), input that cannot be compared.
// Every case asserts the exact exit code of the shared table (src/cli/exit-codes.ts) and the
// message; an error never exits 1, the code meaning "breaking change found".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes.ts';
import type { Json } from '../../src/guard/index.ts';
import { compareDocuments, MAX_DEPTH, MAX_LISTED } from '../../src/guard/index.ts';
import { VERSIONS } from '../helpers/bundles.ts';
import {
  branchingBundle,
  type Listener,
  listen,
  MARKER,
  ROOT,
  removeDir,
  runScript,
  scratchDiffRepo,
  secretDir,
} from './fixtures.ts';

const NEWEST = '2024-04-01';
let server: Listener;
let secret: { dir: string; file: string };
const repos: string[] = [];

beforeAll(async () => {
  server = await listen();
  secret = await secretDir();
});
afterAll(async () => {
  await server.close();
  await Promise.all([secret.dir, ...repos].map(removeDir));
});

/** Rewrites only the newest version's bundle. */
const newest =
  (change: (bundle: Json) => Json | string) =>
  (bundle: Json, version: string): Json =>
    version === NEWEST ? change(bundle) : bundle;
const same = (bundle: Json) => bundle;

/** A property of the Store schema whose schema is `{$ref}`. */
const withRef = (ref: string) => (bundle: Json) => {
  bundle.components.schemas.Store.properties.planted = { $ref: ref };
  return bundle;
};

/** A chain of `length` components, each holding the next: nesting without any branching. */
const chain = (length: number) => (bundle: Json) => {
  for (let i = 0; i < length; i++) {
    bundle.components.schemas[`Chain${i}`] = {
      type: 'object',
      properties: { next: { $ref: `#/components/schemas/Chain${i + 1}` } },
    };
  }
  bundle.components.schemas[`Chain${length}`] = { type: 'string' };
  bundle.components.schemas.Store.properties.chain = { $ref: '#/components/schemas/Chain0' };
  return bundle;
};

/** A chain of `length` components, each only `allOf` the next; the last has `leaf: <type>`. */
const allOfChain = (length: number, leafType: string) => (bundle: Json) => {
  for (let i = 0; i < length; i++) {
    bundle.components.schemas[`Link${i}`] = { allOf: [{ $ref: `#/components/schemas/Link${i + 1}` }] };
  }
  bundle.components.schemas[`Link${length}`] = { type: 'object', properties: { leaf: { type: leafType } } };
  bundle.components.schemas.Store.properties.chain = { $ref: '#/components/schemas/Link0' };
  return bundle;
};

interface Case {
  name: string;
  base: (bundle: Json, version: string) => Json;
  head: (bundle: Json, version: string) => Json;
  args?: string[];
  code: number;
  /** Text the output (stdout for reports, stderr for errors) must contain; `{url}`: the server. */
  output: string[];
  withinMs?: number;
}

const STRING_OR_NULL = { type: ['string', 'null'] };
const INTEGER = { type: 'integer' };

const CASES: Case[] = [
  {
    name: 'a two-way branching $ref graph of depth 24, unchanged',
    base: newest((b) => branchingBundle(b, 24)),
    head: newest((b) => branchingBundle(b, 24)),
    code: EXIT.ok,
    output: [`${VERSIONS.length} versions, 0 changes: 0 breaking, 0 warnings, 0 non-breaking. OK`],
    withinMs: 10_000,
  },
  {
    name: 'a two-way branching $ref graph of depth 24, its leaf changed (2^24 paths reach it)',
    base: newest((b) => branchingBundle(b, 24, STRING_OR_NULL)),
    head: newest((b) => branchingBundle(b, 24, INTEGER)),
    code: EXIT.contractBreak,
    output: [
      `at other locations reaching the same shared schemas, not listed (over ${MAX_LISTED} rows)`,
      `${2 ** 25 - MAX_LISTED} more changes (${2 ** 24 - MAX_LISTED / 2} breaking, 0 warnings, ${2 ** 24 - MAX_LISTED / 2} non-breaking)`,
      'FAIL: breaking changes within an existing API version',
    ],
    withinMs: 10_000,
  },
  {
    name: 'a $ref naming a URL in the working-tree bundle',
    base: same,
    head: newest(withRef('{url}/schema.json')),
    code: EXIT.internal,
    output: [
      `diff: refusing generated/openapi/${NEWEST}.json: 1 problem`,
      `generated/openapi/${NEWEST}.json#/components/schemas/Store/properties/planted/$ref: $ref "{url}/schema.json" names a URL; nothing is fetched (rule no-external-ref)`,
    ],
  },
  {
    name: 'a $ref to a file outside the repository in the base bundle (from git)',
    base: newest(withRef('{secret}')),
    head: same,
    code: EXIT.internal,
    output: [
      `#/components/schemas/Store/properties/planted/$ref: $ref "{secret}" points outside the bundle (rule no-external-ref)`,
      `generated/openapi/${NEWEST}.json at `,
    ],
  },
  {
    name: 'a relative file $ref in a bundle',
    base: same,
    head: newest(withRef('../../openapi/components/schemas/Store.yaml')),
    code: EXIT.internal,
    output: ['$ref "../../openapi/components/schemas/Store.yaml" points outside the bundle (rule no-external-ref)'],
  },
  {
    name: `schemas nested deeper than ${MAX_DEPTH} levels`,
    base: newest(chain(MAX_DEPTH + 50)),
    head: newest(chain(MAX_DEPTH + 50)),
    code: EXIT.internal,
    output: [`diff: GET /store/: schema nested deeper than ${MAX_DEPTH} levels at response 200 body[].chain.next`],
  },
  {
    name: `an allOf chain deeper than ${MAX_DEPTH} levels (with a type change at its end)`,
    base: newest(allOfChain(MAX_DEPTH + 10, 'string')),
    head: newest(allOfChain(MAX_DEPTH + 10, 'integer')),
    code: EXIT.internal,
    output: [`allOf chain nested deeper than ${MAX_DEPTH} levels`],
  },
  {
    name: 'a $ref loop',
    base: same,
    head: newest((b) => {
      b.components.schemas.LoopA = { $ref: '#/components/schemas/LoopB' };
      b.components.schemas.LoopB = { $ref: '#/components/schemas/LoopA' };
      return withRef('#/components/schemas/LoopA')(b);
    }),
    code: EXIT.internal,
    output: ['diff: $ref loop at #/components/schemas/Loop'],
  },
  {
    name: 'a corrupt bundle',
    base: same,
    head: newest(() => '{"openapi": "3.1.0", "paths": {'),
    code: EXIT.internal,
    output: [`diff: generated/openapi/${NEWEST}.json: not JSON (`],
  },
  {
    name: 'a malformed bundle that makes the comparison throw (parameters not a list)',
    base: same,
    head: newest((b) => {
      b.paths['/store/'].get.parameters = 5;
      return b;
    }),
    code: EXIT.internal,
    output: ['diff: internal error: TypeError'],
  },
  {
    name: 'a bad flag',
    base: same,
    head: same,
    args: ['--nope'],
    code: EXIT.usage,
    output: ["diff: Unknown option '--nope'"],
  },
  {
    name: 'an unknown ref',
    base: same,
    head: same,
    args: ['--base', 'no-such-ref-42'],
    code: EXIT.usage,
    output: ['diff: unknown git ref "no-such-ref-42"'],
  },
];

const fill = (text: string) => text.replaceAll('{url}', server.url).replaceAll('{secret}', secret.file);

describe('npm run diff on hostile bundles', () => {
  it.each(CASES)('$name: exit $code', { timeout: 120_000 }, async (row) => {
    const fillAll = (f: (bundle: Json, version: string) => Json) => (bundle: Json, version: string) => {
      const out = f(bundle, version);
      return typeof out === 'string' ? out : JSON.parse(fill(JSON.stringify(out)));
    };
    const repo = await scratchDiffRepo(fillAll(row.base), fillAll(row.head));
    repos.push(repo);
    const args = row.args?.includes('--base') ? row.args : ['--base', 'HEAD', ...(row.args ?? [])];
    const run = await runScript('scripts/diff.ts', [...args, '--dir', repo], repo);
    const output = `${run.stdout}${run.stderr}`;
    for (const text of row.output) expect(output).toContain(fill(text));
    expect(run.code, run.stderr).toBe(row.code);
    // A message naming the problem; a stack trace only for an unexpected exception (a bug to report).
    if (!output.includes('diff: internal error:')) expect(run.stderr).not.toMatch(/^\s+at /m);
    if (row.withinMs) expect(run.ms).toBeLessThan(row.withinMs);
    expect(output).not.toContain(MARKER);
    expect(server.requests).toEqual([]);
  });
});

describe('comparison cost on a branching $ref graph', () => {
  const bundle = async () =>
    JSON.parse(await (await import('node:fs/promises')).readFile(`${ROOT}/generated/openapi/${NEWEST}.json`, 'utf8'));

  it.each([20, 24])('depth %i compares in under 1 s, and counts every path', async (depth) => {
    const original = await bundle();
    const base = branchingBundle(original, depth, STRING_OR_NULL);
    const head = branchingBundle(original, depth, INTEGER);
    const started = performance.now();
    const changes = compareDocuments(base, head);
    const ms = performance.now() - started;
    expect(ms).toBeLessThan(1000);
    const listed = changes.filter((c) => c.rule !== 'changes-not-listed');
    expect(listed).toHaveLength(MAX_LISTED);
    // Each of the 2^depth paths to the leaf has two changes: the type, and null no longer allowed.
    const rest = changes.find((c) => c.rule === 'changes-not-listed');
    expect(rest?.message).toMatch(new RegExp(`^${2 ** (depth + 1) - MAX_LISTED} more changes `));
    expect(rest?.severity).toBe('breaking');
    expect(listed[0]?.location).toMatch(new RegExp(`^response 200 body(\\.(left|right)){${depth}}$`));
  });

  it('lists a shared component at every location it is used when the graph is small', () => {
    const leafA = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    const leafB = { type: 'object', properties: {}, required: [] };
    const docOf = (leaf: Json) => ({
      openapi: '3.1.0',
      paths: {
        '/x/': {
          get: {
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Pair' } } },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          Pair: {
            type: 'object',
            properties: {
              first: { $ref: '#/components/schemas/Leaf' },
              second: { anyOf: [{ $ref: '#/components/schemas/Leaf' }, { type: 'null' }] },
            },
          },
          Leaf: leaf,
        },
      },
    });
    const found = compareDocuments(docOf(leafA), docOf(leafB)).map((c) => `${c.severity} ${c.location} ${c.rule}`);
    expect(found.sort()).toEqual([
      'breaking response 200 body.first.a property-removed',
      'breaking response 200 body.second.a property-removed',
    ]);
  });
});
