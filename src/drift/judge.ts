/**
 * The proposal judged and applied: the edited contract rebuilt in a scratch copy by the package's
 * own build (`scripts/build.ts`, run as a process: the build is not shipped, so --propose needs a
 * checkout of the contract), each version's new bundle compared with the current one by the
 * breaking-change guard, and each change the guard names attributed to the edit whose field it is
 * at (the most specific one). Also the unified diff of a dry run, and `--write`.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { type Change, compareDocuments, type Json, operationsOf } from '../guard/index.ts';
import type { Edit, Proposal } from './propose.ts';

const run = promisify(execFile);
const RANK = ['none', 'info', 'warning', 'breaking'] as const;

/** A contract checkout --propose can rebuild: its build script and its bundles. */
export function assertCheckout(root: string): void {
  if (!existsSync(join(root, 'scripts/build.ts')) || !existsSync(join(root, 'redocly.yaml'))) {
    throw new Error(
      `${root} is not a checkout of the contract (no scripts/build.ts or redocly.yaml): --propose edits openap/ and rebuilds there`,
    );
  }
}

/**
 * Builds `dir` (a contract with redocly.yaml) with the checkout's build: everything into
 * `dir/generated`, or only the bundles into `out` (what the guard compares; the types are half of a build).
 */
async function build(root: string, dir: string, out?: string): Promise<void> {
  const args = out ? ['--out', out, '--bundles-only'] : [];
  try {
    await run(process.execPath, ['--import', 'tsx', join(root, 'scripts/build.ts'), ...args], {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const { stderr = '', stdout = '' } = error as { stderr?: string; stdout?: string };
    throw new Error(`the edited contract does not build:\n${stdout}${stderr}`.trim());
  }
}

/** The rules of the guard each kind of edit makes (two edits of one field split its changes by rule). */
const RULES: Record<string, RegExp> = {
  'never-null': /^null-/,
  null: /^null-/,
  'closed-set': /^(enum|variant|type)-/,
  enum: /^enum-/,
  type: /^type-/,
};

/** The edit a change is about: same operation and version, the longest field the change's location starts with. */
function owner(edits: Edit[], operation: string, version: string, change: Change): Edit | undefined {
  const at = /^response (\d{3})(?: (.*))?$/.exec(change.location);
  if (!at) return undefined;
  const [, status, field = ''] = at;
  let best: { edits: Edit[]; length: number } | undefined;
  for (const edit of edits) {
    for (const p of edit.places) {
      if (p.operation !== operation || p.version !== version) continue;
      const hit =
        p.field === `status ${status}` ||
        field === p.field ||
        field.startsWith(`${p.field}.`) ||
        field.startsWith(`${p.field}[`);
      if (!hit || (best && p.field.length < best.length)) continue;
      best =
        best && p.field.length === best.length
          ? { ...best, edits: [...best.edits, edit] }
          : { edits: [edit], length: p.field.length };
    }
  }
  const candidates = [...new Set(best?.edits ?? [])];
  return candidates.find((e) => RULES[e.finding.kind]?.test(change.rule)) ?? candidates[0];
}

function attribute(edits: Edit[], version: string, head: Json, changes: Change[]): void {
  const ids = new Map([...operationsOf(head).values()].map((op) => [op.label, op.operation.operationId as string]));
  for (const change of changes) {
    const edit = owner(edits, ids.get(change.operation) ?? '', version, change);
    if (!edit) continue;
    edit.changes = [
      ...(edit.changes ?? []),
      `${change.severity}: ${change.operation} ${change.location}: ${change.message}`,
    ];
    if (RANK.indexOf(change.severity) > RANK.indexOf(edit.verdict ?? 'none')) edit.verdict = change.severity;
  }
}

/** Rebuilds the edited contract in a scratch copy and gives each edit the guard's verdict; returns the new bundles. */
export async function judge(proposal: Proposal, root: string, versions: readonly string[]): Promise<Map<string, Json>> {
  const scratch = await mkdtemp(join(tmpdir(), 'drift-propose-'));
  try {
    await cp(join(root, 'openapi'), join(scratch, 'openapi'), { recursive: true });
    await cp(join(root, 'redocly.yaml'), join(scratch, 'redocly.yaml'));
    await symlink(join(root, 'node_modules'), join(scratch, 'node_modules'), 'dir');
    for (const [file, { after }] of proposal.files) await writeFile(join(scratch, file), after);
    await build(root, scratch, join(scratch, 'generated'));
    const heads = new Map<string, Json>();
    for (const version of versions) {
      const read = async (dir: string) =>
        JSON.parse(await readFile(join(dir, 'generated/openapi', `${version}.json`), 'utf8'));
      const head = await read(scratch);
      heads.set(version, head);
      attribute(proposal.edits, version, head, compareDocuments(await read(root), head));
    }
    for (const edit of proposal.edits) edit.verdict ??= 'none';
    return heads;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The unified diff of the proposal (`a/openapi/…` → `b/openapi/…`), by git's diff. */
export async function unifiedDiff(proposal: Proposal): Promise<string> {
  const scratch = await mkdtemp(join(tmpdir(), 'drift-diff-'));
  try {
    let out = '';
    for (const [file, { before, after }] of proposal.files) {
      for (const [side, text] of [
        ['a', before],
        ['b', after],
      ] as const) {
        await mkdir(dirname(join(scratch, side, file)), { recursive: true });
        await writeFile(join(scratch, side, file), text);
      }
      try {
        await run('git', ['diff', '--no-index', '--no-color', '--no-prefix', join('a', file), join('b', file)], {
          cwd: scratch,
        });
      } catch (error) {
        out += (error as { stdout?: string }).stdout ?? ''; // exit 1: the files differ
      }
    }
    return out;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The versions whose bundle holds an edit's file: a shared schema's edit reaches all of them. */
function versionsOf(edit: Edit, heads: Map<string, Json>): string[] {
  const component = /components\/schemas\/(.+)\.yaml$/.exec(edit.file)?.[1];
  if (!component) return [edit.finding.version];
  return [...heads].filter(([, bundle]) => bundle?.components?.schemas?.[component]).map(([version]) => version);
}

/** How a changelog line names the guard's verdict on its edit. */
const VERDICTS: Record<(typeof RANK)[number], string> = {
  breaking: '**Breaking** (the guard)',
  warning: 'Warning from the guard (a client may see a new shape)',
  info: 'Not breaking (the guard: info)',
  none: 'Not breaking (the guard sees no change)',
};

/** Writes the edited sources, one changelog line per edit in each version it reaches, and rebuilds. */
export async function writeProposal(
  proposal: Proposal,
  root: string,
  heads: Map<string, Json>,
  recording: string,
): Promise<void> {
  for (const [file, { after }] of proposal.files) await writeFile(join(root, file), after);
  const lines = new Map<string, string[]>();
  for (const edit of proposal.edits) {
    const verdict = VERDICTS[edit.verdict ?? 'none'];
    for (const version of versionsOf(edit, heads)) {
      lines.set(version, [...(lines.get(version) ?? []), `- ${verdict}: ${edit.description}.`]);
    }
  }
  for (const [version, entries] of lines) {
    const file = join(root, 'openapi/changelogs', `${version}.md`);
    const text = await readFile(file, 'utf8');
    const heading = `## Learned from ${recording.split('/').at(-1)}`;
    const at = text.indexOf('\n## ');
    const block = `${heading}\n\n${entries.join('\n')}\n\n`;
    await writeFile(file, at < 0 ? `${text}\n${block}` : `${text.slice(0, at + 1)}${block}${text.slice(at + 1)}`);
  }
  await build(root, root);
}
