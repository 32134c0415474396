/**
 * Breaking-change guard: compares each API version bundle (generated/openapi/<version>.json) with
 * the same bundle at a git ref and lists the changes, flagging those that break existing clients
 * of an existing API version (rules: src/guard/). A version absent at the ref is new, not
 * breaking. Exits 1 when a breaking change is found, so CI can run it against the previous commit,
 * unless package.json makes a breaking release at the same time (major bump; minor bump in 0.x):
 * semver is the one way to ship a deliberate breaking change.
 * Usage: tsx scripts/diff.ts --base <git-ref> [--head <git-ref>] [--json] [--dir <path>]
 *   --base  the ref to compare with (required), e.g. HEAD~1, main, v0.1.0
 *   --head  compare with the bundles at this ref instead of the working tree
 *   --json  print the findings as JSON instead of tables
 *   --dir   the package checkout holding generated/openapi/ (default: this package; tests use a
 *           scratch repository)
 * Exit codes (src/cli/exit-codes.ts): 0 no breaking change (or a breaking release), 1 breaking
 * change(s), 2 usage error (bad flag, missing --base, unknown ref), 3 the comparison could not be
 * made (a missing, corrupt or oversized bundle, a `$ref` leaving the bundle, a schema nested too
 * deep, any unexpected exception). An error never exits 1: 1 always means "breaking change found".
 */
import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { EXIT } from '../src/cli/index.ts';
import { packageRoot, VERSIONS } from '../src/contract/index.ts';
import {
  type Change,
  compareDocuments,
  countBySeverity,
  DiffInputError,
  formatReport,
  type Json,
  operationsOf,
  type VersionResult,
} from '../src/guard/index.ts';
import { assertLocalRefs, SourceGuardError } from './lib/source-guard.ts';

const USAGE = 'usage: npm run diff -- --base <git-ref> [--head <git-ref>] [--json] [--dir <path>]';
const BUNDLES = 'generated/openapi';
/** Largest bundle read (a bundle of this contract is ~200 KB). */
const MAX_BUNDLE_BYTES = 64 * 1024 * 1024;

/** A usage error: bad flag or argument (exit 2). */
function fail(message: string): never {
  console.error(`diff: ${message}`);
  process.exit(EXIT.usage);
}

/** Input that cannot be compared (exit 3): never reported as a breaking change. */
class BadInput extends Error {}

/** Anything else that goes wrong ends here: one message and exit 3, never the "breaking" code 1. */
process.on('uncaughtException', (error) => {
  const expected = error instanceof BadInput || error instanceof DiffInputError || error instanceof SourceGuardError;
  console.error(`diff: ${expected ? error.message : `internal error: ${error.stack ?? error}`}`);
  process.exit(EXIT.internal);
});

let values: { base?: string; head?: string; json?: boolean; dir?: string };
try {
  ({ values } = parseArgs({
    options: {
      base: { type: 'string' },
      head: { type: 'string' },
      json: { type: 'boolean', default: false },
      dir: { type: 'string' },
    },
  }));
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
if (!values.base) fail(`missing --base <git-ref>\n${USAGE}`);
const ROOT = resolve(values.dir ?? packageRoot());

const git = async (...args: string[]): Promise<string> => {
  const { stdout } = await promisify(execFile)('git', args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
};

/** The commit a ref names, or a clear failure (unknown ref, not a git checkout). */
async function commitOf(ref: string): Promise<string> {
  if (ref.startsWith('-')) fail(`invalid git ref ${JSON.stringify(ref)}`);
  try {
    return (await git('rev-parse', '--verify', '--quiet', `${ref}^{commit}`)).trim();
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? '');
    if (/not a git repository/i.test(stderr)) fail(`${ROOT} is not a git checkout; --base needs git history`);
    fail(`unknown git ref ${JSON.stringify(ref)} (try a branch, a tag or a commit such as HEAD~1)`);
  }
}

/** The bundle files (`<version>.json`) present at a commit. */
async function versionsAt(commit: string): Promise<string[]> {
  try {
    const names = await git('ls-tree', '--name-only', `${commit}:./${BUNDLES}`);
    return names
      .split('\n')
      .filter((n) => n.endsWith('.json'))
      .map((n) => n.slice(0, -'.json'.length));
  } catch {
    return []; // no generated/openapi/ at that commit: every version is new
  }
}

/**
 * A bundle parsed and checked: JSON, within the size limit, and self-contained (every `$ref` points
 * inside it, so nothing outside is read or fetched while comparing).
 */
function parseBundle(text: string, label: string): Json {
  if (text.length > MAX_BUNDLE_BYTES) throw new BadInput(`${label}: over ${MAX_BUNDLE_BYTES} bytes`);
  let document: Json;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new BadInput(`${label}: not JSON (${(error as Error).message})`);
  }
  if (!document || typeof document !== 'object') throw new BadInput(`${label}: not an OpenAPI document`);
  assertLocalRefs(document, label);
  return document;
}

async function readAt(commit: string, version: string): Promise<Json> {
  const file = `${BUNDLES}/${version}.json`;
  const label = `${file} at ${commit.slice(0, 7)}`;
  let text: string;
  try {
    text = await git('show', `${commit}:./${file}`);
  } catch (error) {
    throw new BadInput(`${label}: cannot be read (${String((error as Error).message).split('\n')[0]})`);
  }
  return parseBundle(text, label);
}

async function readWorkingTree(version: string): Promise<Json | undefined> {
  const file = `${BUNDLES}/${version}.json`;
  let text: string;
  try {
    const path = join(ROOT, file);
    if ((await stat(path)).size > MAX_BUNDLE_BYTES) throw new BadInput(`${file}: over ${MAX_BUNDLE_BYTES} bytes`);
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (error instanceof BadInput) throw error;
    throw new BadInput(`${file}: ${(error as Error).message}`);
  }
  return parseBundle(text, file);
}

/** Reads both sides of every version and compares them. */
async function compareVersions(baseCommit: string, headCommit?: string): Promise<VersionResult[]> {
  const baseVersions = await versionsAt(baseCommit);
  const headVersions = headCommit ? await versionsAt(headCommit) : [...VERSIONS];
  const ordered = [...headVersions, ...baseVersions.filter((v) => !headVersions.includes(v))];
  const results: VersionResult[] = [];
  for (const version of ordered) {
    const inHead = headVersions.includes(version);
    const head = inHead ? (headCommit ? await readAt(headCommit, version) : await readWorkingTree(version)) : undefined;
    if (inHead && !head) throw new BadInput(`${BUNDLES}/${version}.json is missing: run \`npm run build\``);
    const base = baseVersions.includes(version) ? await readAt(baseCommit, version) : undefined;
    if (!base) {
      results.push({ version, status: 'new', operations: operationsOf(head).size, changes: [] });
    } else if (!head) {
      const operations = operationsOf(base);
      const changes: Change[] = [...operations.values()].map((op) => ({
        operation: op.label,
        location: '',
        rule: 'version-removed',
        message: `API version ${version} removed`,
        severity: 'breaking',
      }));
      results.push({ version, status: 'removed', operations: operations.size, changes });
    } else {
      const changes = compareDocuments(base, head);
      results.push({ version, status: 'compared', operations: operationsOf(head).size, changes });
    }
  }
  return results;
}

const baseCommit = await commitOf(values.base);
const headCommit = values.head ? await commitOf(values.head) : undefined;
// Unreadable input (a corrupt bundle, an unresolvable $ref) is bad input, not a breaking change:
// it ends in the handler above (exit 3).
const results = await compareVersions(baseCommit, headCommit);

/** The package version at a commit (undefined: working tree), if there is a package.json. */
async function packageVersion(commit?: string): Promise<string | undefined> {
  try {
    const text = commit
      ? await git('show', `${commit}:./package.json`)
      : await readFile(join(ROOT, 'package.json'), 'utf8');
    return (JSON.parse(text) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** `0.1.0 -> 0.2.0` when going from `from` to `to` is a breaking release under semver. */
function breakingRelease(from?: string, to?: string): string | undefined {
  const parse = (v?: string) =>
    v
      ?.match(/^(\d+)\.(\d+)\.\d+/)
      ?.slice(1, 3)
      .map(Number);
  const [a, b] = [parse(from), parse(to)];
  if (!a || !b) return undefined;
  const [fromMajor = 0, fromMinor = 0] = a;
  const [toMajor = 0, toMinor = 0] = b;
  const breaking = toMajor > fromMajor || (fromMajor === 0 && toMajor === 0 && toMinor > fromMinor);
  return breaking ? `${from} -> ${to}` : undefined;
}

const counts = countBySeverity(results);
const release =
  counts.breaking > 0 ? breakingRelease(await packageVersion(baseCommit), await packageVersion(headCommit)) : undefined;
if (values.json) {
  const report = {
    base: values.base,
    head: values.head ?? 'working tree',
    counts,
    allowedByRelease: release ?? null,
    results,
  };
  console.log(JSON.stringify(report, null, 2));
} else {
  const short = (ref: string, commit?: string) => (commit ? `${ref} (${commit.slice(0, 7)})` : ref);
  const head = values.head ? short(values.head, headCommit) : 'working tree';
  console.log(formatReport(short(values.base, baseCommit), head, results, release));
}
process.exitCode = counts.breaking > 0 && !release ? EXIT.contractBreak : EXIT.ok;
