/**
 * The table of `npm run bench:peers` (scripts/bench/peers.ts), from its measures alone: per request,
 * each server's median over the interleaved rounds (req/s, p50, p99, server CPU per request, the
 * answer's size) and its throughput as a ratio to the bare node:http server of the same round set;
 * then the targets read from the same medians. Pure (no process, no clock), so it is unit-tested.
 */
import type { BenchRow } from './bench-table.ts';

/** One wrk run of one server on one request. */
export interface PeerRun {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Server CPU (user + system) per request, µs. */
  cpuPerRequest: number;
  /** Answers that were not 2xx/3xx, and socket errors. */
  failures: number;
}

/** What one server measured on one request, over the rounds. */
export interface PeerMeasure {
  request: string;
  server: string;
  /** The bytes of its answer's body to this request (read once after the runs). */
  bytes: number;
  /** Its answer's body is the mock's, byte for byte. */
  sameBytes?: boolean;
  runs: PeerRun[];
}

export interface PeerMedian {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  cpuPerRequest: number;
  failures: number;
}

/** The name of the reference server every ratio divides by. */
export const BARE = 'bare node:http';

const middle = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const half = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 ? (sorted[half] as number) : ((sorted[half - 1] as number) + (sorted[half] as number)) / 2;
};

/** The median of each figure over the runs (failures summed: one failed answer taints the figure). */
export function medianOf(runs: readonly PeerRun[]): PeerMedian {
  return {
    requestsPerSecond: middle(runs.map((r) => r.requestsPerSecond)),
    p50Ms: middle(runs.map((r) => r.p50Ms)),
    p99Ms: middle(runs.map((r) => r.p99Ms)),
    cpuPerRequest: middle(runs.map((r) => r.cpuPerRequest)),
    failures: runs.reduce((sum, r) => sum + r.failures, 0),
  };
}

const fmt = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : 'n/a';

/** Throughput of `server` as a ratio to bare's on the same request; NaN when either is missing. */
export function ratioToBare(measures: readonly PeerMeasure[], request: string, server: string): number {
  const of = (name: string) => measures.find((m) => m.request === request && m.server === name);
  const bare = of(BARE);
  const measured = of(server);
  if (!bare || !measured) return Number.NaN;
  return medianOf(measured.runs).requestsPerSecond / medianOf(bare.runs).requestsPerSecond;
}

/** One row per request and server, in the order measured: figures, then the ratio to bare. */
export function peerRows(measures: readonly PeerMeasure[]): BenchRow[] {
  return measures.map((m) => {
    const median = medianOf(m.runs);
    const failed = median.failures ? `, ${fmt(median.failures)} FAILED` : '';
    return {
      part: m.request,
      measure: `${m.server} (${fmt(m.bytes)} B${m.sameBytes ? ", the mock's bytes" : ''})`,
      value: `${fmt(median.requestsPerSecond)} req/s (p50 ${fmt(median.p50Ms, 2)} ms, p99 ${fmt(median.p99Ms, 2)} ms, CPU ${fmt(median.cpuPerRequest)} µs/req${failed})`,
      target:
        m.server === BARE ? '1.00 (the ceiling)' : `${fmt(ratioToBare(measures, m.request, m.server), 2)} of bare`,
    };
  });
}

/** A target: `server` at least `times` the throughput of `peer` on `request` (skipped when either was not measured). */
export interface PeerTarget {
  request: string;
  server: string;
  peer: string;
  times: number;
}

/** The targets, each as a row: the ratio found, met or MISSED (a failed answer misses it). */
export function targetRows(measures: readonly PeerMeasure[], targets: readonly PeerTarget[]): BenchRow[] {
  return targets.map(({ request, server, peer, times }) => {
    const of = (name: string) => measures.find((m) => m.request === request && m.server === name);
    const [mine, theirs] = [of(server), of(peer)];
    const measure = `${server} / ${peer}`;
    const goal = times === 1 ? `> 1 (ahead of ${peer})` : `>= ${times}x ${peer}`;
    if (!mine || !theirs) return { part: request, measure, value: `${peer} not measured`, target: `${goal}: skipped` };
    const [a, b] = [medianOf(mine.runs), medianOf(theirs.runs)];
    const ratio = a.requestsPerSecond / b.requestsPerSecond;
    const met = (times === 1 ? ratio > 1 : ratio >= times) && a.failures === 0;
    return {
      part: request,
      measure,
      value: `${fmt(ratio, 2)}x req/s (CPU/req: ${fmt(b.cpuPerRequest / a.cpuPerRequest, 2)}x)`,
      target: `${goal}: ${met ? 'met' : 'MISSED'}`,
    };
  });
}
