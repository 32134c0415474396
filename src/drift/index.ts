/**
 * Drift: what a recording of the real API (`proxy --record`) shows that the contract does not say
 * (unknown fields, fields never present, nulls, types, enum values, bounds, schema breaks), the
 * values seen of fields whose allowed values are not shown, and, replayed against a server, how
 * its answers' shapes differ from the recorded ones. The `drift` command; docs/proxy.md.
 */
import { type Bundle, loadBundles } from '../contract/index.ts';
import { analyzeRecording } from './analyze.ts';
import { type DriftReport, Findings } from './findings.ts';
import { readRecording } from './recording.ts';
import { type ReplayOptions, replayReads } from './replay.ts';

export { analyzeRecording } from './analyze.ts';
export { DRIFT_KINDS, type DriftKind, type DriftReport, type Finding, INFORMATION } from './findings.ts';
export { formatDrift } from './format.ts';
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
  const report = analyzeRecording(recording, options.bundles ?? loadBundles(), options.recording);
  if (!options.replay) return report;
  const findings = new Findings();
  const requests = await replayReads(recording, options.replay, findings);
  return {
    ...report,
    replayed: { baseUrl: options.replay.baseUrl, requests },
    findings: [...report.findings, ...findings.list()],
  };
}
