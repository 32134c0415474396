// `drift --propose` on a recording this test writes, in a scratch checkout of the contract (openapi/,
// src/, scripts/ and generated/ copied, node_modules linked): each planted divergence (a field never
// null, a closed set, an undeclared status, a bound broken) is proposed exactly once, as an edit of
// the source YAML that keeps its comments, with the breaking-change guard's verdict after a real
// rebuild; --write applies the judged proposal, adds the changelog lines and rebuilds.
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deref, type Json, loadBundles } from '../../src/contract/index.ts';
import {
  analyzeRecording,
  type Edit,
  type ProposeResult,
  proposeFromRecording,
  writeProposed,
} from '../../src/drift/index.ts';
import { RECORDING_FORMAT } from '../../src/proxy/index.ts';
import { ROOT } from '../helpers/bundles.ts';

function example(version: string, path: string): Json {
  const bundle = loadBundles().find((b) => b.version === version);
  const content = bundle?.document.paths[path].get.responses['200'].content['application/json'];
  return structuredClone(deref(bundle?.document, Object.values<Json>(content.examples)[0]).value);
}

/**
 * 30 stock records (one over int32), 15 pages of 2 subscription transactions (`subscription` never
 * null; `type`, whose allowed values are not shown, taking 3 values), one ticket answered 203.
 */
function plantedRecording() {
  const record = example('2023-02-10', '/stockrecords/{id}/');
  const ticket = example('unstable', '/tickets/{id}/');
  const page = example('2024-04-01', '/subscriptions/{id}/transactions/');
  const exchanges = [];
  for (let i = 0; i < 30; i++) {
    const body = { ...record, num_allocated: i === 0 ? 2147483648 : 3 };
    exchanges.push({
      operation: 'getStockRecord',
      version: '2023-02-10',
      method: 'GET',
      target: '/stockrecords/1/',
      status: 200,
      body,
    });
  }
  for (let i = 0; i < 15; i++) {
    const results = page.results.map((t: Json, k: number) => ({
      ...t,
      type: ['sale', 'capture', 'refund'][(2 * i + k) % 3],
    }));
    const target = '/subscriptions/48213/transactions/';
    exchanges.push({
      operation: 'listSubscriptionTransactions',
      version: '2024-04-01',
      method: 'GET',
      target,
      status: 200,
      body: { ...page, results },
    });
  }
  exchanges.push({
    operation: 'getTicket',
    version: 'unstable',
    method: 'GET',
    target: '/tickets/7/',
    status: 203,
    body: ticket,
  });
  return { $recording: { format: RECORDING_FORMAT, exchanges } };
}

let dir: string;
let root: string;
let recording: string;
let result: ProposeResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'drift-propose-test-'));
  root = join(dir, 'contract');
  // No node_modules: `npm run bench:peers` installs its peers under scripts/bench/peers/ (~200 MB),
  // and the build needs none of them.
  const notInstalled = (path: string) => !path.includes('/node_modules');
  for (const part of ['openapi', 'src', 'scripts', 'generated', 'redocly.yaml', 'package.json', 'tsconfig.json']) {
    await cp(join(ROOT, part), join(root, part), { recursive: true, filter: notInstalled });
  }
  await symlink(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  recording = join(dir, 'planted.json');
  await writeFile(recording, JSON.stringify(plantedRecording()));
  result = await proposeFromRecording({ recording, root });
}, 240_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const editsOf = (kind: string, file: string, mark: string): Edit[] =>
  result.proposal.edits.filter((e) => e.finding.kind === kind && e.file === file && e.description.includes(mark));

describe('drift --propose', () => {
  it('proposes each planted divergence exactly once, with the guard verdict after a rebuild', () => {
    const never = editsOf('never-null', 'openapi/components/schemas/Transaction.yaml', 'Transaction.subscription:');
    expect(never).toHaveLength(1);
    expect(never[0]?.description).toMatch(/never null in 30 observations/);
    expect(never[0]?.verdict).toBe('info'); // a response narrowed: clients are safe
    const closed = editsOf('closed-set', 'openapi/components/schemas/Transaction.yaml', 'Transaction.type:');
    expect(closed).toHaveLength(1);
    expect(closed[0]?.description).toMatch(/3 values: "capture" x10, "refund" x10, "sale" x10/);
    expect(closed[0]?.verdict).toBe('warning'); // the guard reads the open set's added variant as a widening
    const status = editsOf('status', 'openapi/paths/tickets/tickets@{id}.unstable.yaml', 'getTicket 203');
    expect(status).toHaveLength(1);
    expect(status[0]?.verdict).toBe('warning');
    const bound = editsOf('bounds', 'openapi/components/schemas/StockCounter.yaml', 'widen the bound');
    expect(bound).toHaveLength(1);
    expect(bound[0]?.changes?.join('\n')).toMatch(/maximum/);
  });

  it('edits the source in place: comments, order and quoting kept; the diff shows only the edits', () => {
    const transaction = result.proposal.files.get('openapi/components/schemas/Transaction.yaml');
    const comments = (text = '') => text.split('\n').filter((l) => l.startsWith('#'));
    expect(comments(transaction?.after)).toEqual(comments(transaction?.before));
    expect(transaction?.after).toContain(
      '  type:\n    anyOf:\n      - {type: string, enum: [capture, refund, sale]}\n      - {type: string}\n    description:',
    );
    expect(transaction?.after).toMatch(
      / {2}subscription:\n {4}description: [^\n]*\n {4}\$ref: \.\/SubscriptionRef\.yaml\n/,
    );
    const counter = result.proposal.files.get('openapi/components/schemas/StockCounter.yaml');
    expect(counter?.after).toContain('maximum: 2147483648');
    expect(counter?.after).toContain("type: [integer, 'null']");
    expect(result.diff).toMatch(/^--- a\/openapi\/components\/schemas\/StockCounter\.yaml$/m);
    expect(result.diff).toMatch(/^-maximum: 2147483647\n\+maximum: 2147483648$/m);
  });

  it('--write applies the edits, adds each to the changelog of the versions it reaches, and rebuilds', async () => {
    // The dry run wrote nothing; --write applies the proposal judged above (no second judging).
    const transaction = result.proposal.files.get('openapi/components/schemas/Transaction.yaml');
    const before = await readFile(join(root, 'openapi/components/schemas/Transaction.yaml'), 'utf8');
    expect(before).toBe(transaction?.before);
    await writeProposed(result, { recording, root });
    const source = await readFile(join(root, 'openapi/components/schemas/Transaction.yaml'), 'utf8');
    expect(source).toMatch(/ {2}subscription:\n {4}description: [^\n]*\n {4}\$ref: \.\/SubscriptionRef\.yaml\n/);
    // Transaction is in the bundles of 2023-02-10 (capture) and 2024-04-01: both changelogs say it.
    for (const version of ['2023-02-10', '2024-04-01']) {
      const changelog = await readFile(join(root, 'openapi/changelogs', `${version}.md`), 'utf8');
      expect(changelog, version).toMatch(
        /## Learned from planted\.json\n\n(- .*\n)*- Not breaking \(the guard: info\): Transaction\.subscription: drop null \(never null in 30 observations/,
      );
    }
    const bundle = JSON.parse(await readFile(join(root, 'generated/openapi/2024-04-01.json'), 'utf8'));
    expect(bundle.components.schemas.Transaction.properties.subscription.$ref).toBe(
      '#/components/schemas/SubscriptionRef',
    );
    // Drift over the rebuilt contract: the findings are gone.
    const planted = JSON.parse(await readFile(recording, 'utf8'));
    const again = analyzeRecording(planted, loadBundles(join(root, 'generated/openapi')));
    const fields = ['body.results[].subscription', 'body.results[].type', 'status'];
    expect(again.findings.filter((f) => fields.includes(f.field))).toEqual([]);
    // The maximum is widened; the value still breaks `format: int32`, a rule no edit widens.
    const counter = again.findings.filter((f) => f.field === 'body.num_allocated');
    expect(counter.map((f) => [f.kind, f.detail])).toEqual([['schema', expect.stringMatching(/^format:/)]]);
  }, 240_000);
});
