// The real `npm run diff` command: against the repository itself (HEAD vs HEAD: nothing changes,
// exit 0), on bad input (exit 2 with a message), and in a scratch git repository where an
// operation is removed (exit 1) and a version is added (reported as new, not breaking).
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versionOf } from '../../src/contract/index.ts';
import { ROOT, VERSIONS } from '../helpers/bundles.ts';
import { bundled } from '../helpers/process.ts';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function diff(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bundled('scripts/diff.ts'), ...args], { cwd: ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

const git = (cwd: string, ...args: string[]) =>
  new Promise<string>((resolve, reject) =>
    execFile('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], { cwd }, (e, out) =>
      e ? reject(e) : resolve(out),
    ),
  );

describe('npm run diff on this repository', () => {
  it('finds no change between HEAD and itself (exit 0)', async () => {
    const run = await diff('--base', 'HEAD', '--head', 'HEAD');
    expect(run.stderr).not.toMatch(/^diff:/m);
    expect(run.code).toBe(0);
    for (const version of VERSIONS) expect(run.stdout).toMatch(new RegExp(`^${version}: no changes`, 'm'));
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(
      new RegExp(`^${VERSIONS.length} versions, 0 changes: 0 breaking, 0 warnings, 0 non-breaking\\. OK$`),
    );
  });

  it('fails clearly without --base (exit 2)', async () => {
    const run = await diff();
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('missing --base <git-ref>');
  });

  it('fails clearly on an unknown ref (exit 2)', async () => {
    const run = await diff('--base', 'no-such-ref-42');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown git ref "no-such-ref-42"');
  });
});

// The scratch repository's story, over whatever versions the package has: the last version is
// new in the working tree, GET /store/ leaves its default version, the others stay as they are.
const ADDED = VERSIONS[VERSIONS.length - 1] as string;
const CHANGED = versionOf('get', '/store/');
const UNCHANGED = VERSIONS.filter((v) => v !== ADDED && v !== CHANGED);

describe('npm run diff in a scratch repository', () => {
  let repo: string;
  beforeAll(async () => {
    repo = await mkdtemp(join(tmpdir(), 'contract-diff-'));
    const bundles = join(repo, 'generated', 'openapi');
    await mkdir(bundles, { recursive: true });
    await git(repo, 'init', '-q');
    for (const version of VERSIONS.filter((v) => v !== ADDED)) {
      await copyFile(join(ROOT, 'generated', 'openapi', `${version}.json`), join(bundles, `${version}.json`));
    }
    await git(repo, 'add', '.');
    await git(repo, 'commit', '-q', '-m', 'base');
    // Working tree: a version appears, an operation of an existing version disappears.
    await copyFile(join(ROOT, 'generated', 'openapi', `${ADDED}.json`), join(bundles, `${ADDED}.json`));
    const bundle = JSON.parse(await readFile(join(bundles, `${CHANGED}.json`), 'utf8'));
    delete bundle.paths['/store/'];
    await writeFile(join(bundles, `${CHANGED}.json`), JSON.stringify(bundle));
  });
  afterAll(() => rm(repo, { recursive: true, force: true }));

  it('exits 1 on a removed operation and treats a new version as new', async () => {
    const run = await diff('--base', 'HEAD', '--dir', repo);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^ {2}yes +GET \/store\/ +\(operation\) +operation removed$/m);
    expect(run.stdout).toMatch(new RegExp(`^${ADDED}: new API version \\(\\d+ operations?\\)`, 'm'));
    for (const version of UNCHANGED) expect(run.stdout).toMatch(new RegExp(`^${version}: no changes`, 'm'));
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(/1 breaking, 0 warnings, 0 non-breaking\. FAIL/);
  });

  it('allows breaking changes in a breaking package release (exit 0)', async () => {
    await writeFile(join(repo, 'package.json'), JSON.stringify({ name: 'x', version: '0.1.0' }));
    await git(repo, 'add', 'package.json');
    await git(repo, 'commit', '-q', '-m', 'package.json');
    try {
      await writeFile(join(repo, 'package.json'), JSON.stringify({ name: 'x', version: '0.1.1' }));
      expect((await diff('--base', 'HEAD', '--dir', repo)).code, 'a patch release does not allow it').toBe(1);
      await writeFile(join(repo, 'package.json'), JSON.stringify({ name: 'x', version: '0.2.0' }));
      const run = await diff('--base', 'HEAD', '--dir', repo);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(
        '1 breaking, 0 warnings, 0 non-breaking. OK: allowed by the breaking package release 0.1.0 -> 0.2.0',
      );
    } finally {
      await writeFile(join(repo, 'package.json'), JSON.stringify({ name: 'x', version: '0.1.0' }));
    }
  });

  it('prints JSON on request', async () => {
    const run = await diff('--base', 'HEAD', '--dir', repo, '--json');
    const report = JSON.parse(run.stdout);
    expect(report.counts).toEqual({ breaking: 1, warning: 0, info: 0 });
    expect(report.results.map((r: { status: string }) => r.status)).toEqual(
      VERSIONS.map((v) => (v === ADDED ? 'new' : 'compared')),
    );
  });
});
