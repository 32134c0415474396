/**
 * Drift: what a recording of the real API (`proxy --record`) shows that the contract does not say
 * (unknown fields, fields never present, nulls, types, enum values, bounds, schema breaks), the
 * values seen of fields whose allowed values are not shown, and, replayed against a server, how
 * its answers' shapes differ from the recorded ones; with --propose, the findings as edits of the
 * contract's source judged by the breaking-change guard. The `drift` command; docs/proxy.md.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Contract } from '../conformance/index.ts';
import { type Bundle, type Json, loadBundles, packageRoot } from '../contract/index.ts';
import { analyzeRecording } from './analyze.ts';
import { type DriftReport, Findings } from './findings.ts';
import { assertCheckout, judge, unifiedDiff, writeProposal } from './judge.ts';
import { type Proposal, planEdits } from './propose.ts';
import { readRecording } from './recording.ts';
import { type ReplayOptions, replayReads } from './replay.ts';

export { analyzeRecording } from './analyze.ts';
export { DRIFT_KINDS, type DriftKind, type DriftReport, type Finding, INFORMATION } from './findings.ts';
export { formatDrift, formatProposal } from './format.ts';
export type { Declined, Edit, Proposal } from './propose.ts';
export { RecordingError, readRecording } from './recording.ts';
export { diffShapes, type ReplayOptions, shapeOf } from './replay.ts';
export { ALWAYS_PRESENT_MIN, CLOSED_SET, type FieldStats, NEVER_NULL_MIN, VALUES_KEPT } from './stats.ts';

export interface DriftOptions {
  recording: string;
  /** Replay the recorded reads against this server. */
  replay?: ReplayOptions;
  bundles?: Bundle[];
}

/** Reads a recording, analyzes it, and replays its reads when asked. */
export async function runDrift(options: DriftOptions): Promise<DriftReport> {
  const recording = await readRecording(options.recording);
  const bundles = options.bundles ?? loadBundles();
  const report = analyzeRecording(recording, bundles, options.recording);
  if (!options.replay) return report;
  const findings = new Findings();
  const requests = await replayReads(recording, options.replay, findings, new Contract(bundles));
  return {
    ...report,
    replayed: { baseUrl: options.replay.baseUrl, requests },
    findings: [...report.findings, ...findings.list()],
  };
}

export interface ProposeOptions {
  recording: string;
  /** The contract checkout to edit (its openapi/, scripts/build.ts and generated/). Default: this package. */
  root?: string;
}

export interface ProposeResult {
  report: DriftReport;
  proposal: Proposal;
  /** The unified diff of the edits. */
  diff: string;
  /** Each version's bundle rebuilt with the edits: the versions an edit reaches (its changelog lines). */
  heads: Map<string, Json>;
}

/** `drift --propose`: the findings as edits of openapi/, judged by the guard; a dry run. */
export async function proposeFromRecording(options: ProposeOptions): Promise<ProposeResult> {
  const root = options.root ?? packageRoot();
  assertCheckout(root);
  const bundles = loadBundles(join(root, 'generated/openapi'));
  const recording = await readRecording(options.recording);
  const report = analyzeRecording(recording, bundles, options.recording);
  const pathFiles = await sourceFiles(root, 'openapi/paths');
  const proposal = planEdits(report, root, pathFiles);
  const heads = await judge(
    proposal,
    root,
    bundles.map((b) => b.version),
  );
  const diff = await unifiedDiff(proposal);
  return { report, proposal, diff, heads };
}

/**
 * `drift --propose --write`: a judged proposal (its verdicts, no second judging) written: the edited
 * sources, the changelog lines, and the contract rebuilt.
 */
export async function writeProposed(judged: ProposeResult, options: ProposeOptions): Promise<void> {
  await writeProposal(judged.proposal, options.root ?? packageRoot(), judged.heads, options.recording);
}

async function sourceFiles(root: string, dir: string): Promise<string[]> {
  const entries = await readdir(join(root, dir), { recursive: true });
  return entries.filter((name) => name.endsWith('.yaml')).map((name) => join(dir, name));
}
