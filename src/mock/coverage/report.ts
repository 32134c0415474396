/**
 * The coverage report, derived when read from a scope's counters (./counts.ts) over the universe
 * (./universe.ts): per operation and version each item with its count, what was seen outside the
 * universe, and the percentage: items exercised at least once over items in the universe, every
 * item weighing the same (`coverage --min` compares it).
 */
import { shortHash } from '../tokens/hash.ts';
import type { Counts } from './counts.ts';
import { DIMENSIONS, type Dimension, REQUESTS_SLOT, type Universe } from './universe.ts';

export type { Dimension } from './universe.ts';

/** Items exercised over items in all; `percent` is 100 × covered / total (100 for an empty universe). */
export interface CoverageShare {
  covered: number;
  total: number;
  percent: number;
}

export interface OperationCoverage extends CoverageShare {
  operation: string;
  version: string;
  method: string;
  path: string;
  /** Every item of the universe of this operation and version, with the times it was exercised. */
  items: { dimension: Dimension; name: string; count: number }[];
  /**
   * What was seen that is no item: each write's state transitions (`open → closed`), its
   * refusals by row (`refused from closed`) or by its own rule (`refused by rule body.lines minItems`),
   * statuses outside the universe (`status 409`).
   */
  observed: { name: string; count: number }[];
}

export interface CoverageReport extends CoverageShare {
  /** The whole process, or one token state (`state`: its id, as `GET /__mock/states` shows it). */
  scope: 'process' | 'state';
  state?: string;
  /** API requests recorded. */
  requests: number;
  dimensions: Record<Dimension, CoverageShare>;
  operations: OperationCoverage[];
  /** Requests no operation answered (routing's 404 and 405, a version refused), by status. */
  unrouted: { status: number; count: number }[];
}

const share = (covered: number, total: number): CoverageShare => ({
  covered,
  total,
  percent: total === 0 ? 100 : (100 * covered) / total,
});

/** The report of one scope; `stateKey` names the token state it is for (omitted: the whole process). */
export function coverageReport(universe: Universe, scope: Counts, stateKey?: string): CoverageReport {
  const byDimension = Object.fromEntries(DIMENSIONS.map((d) => [d, { covered: 0, total: 0 }])) as Record<
    Dimension,
    { covered: number; total: number }
  >;
  const operations = universe.targets.map((target): OperationCoverage => {
    const items = target.items.map(({ dimension, name, slot }) => ({
      dimension,
      name,
      count: scope.counts[slot] ?? 0,
    }));
    for (const item of items) {
      byDimension[item.dimension].total++;
      if (item.count > 0) byDimension[item.dimension].covered++;
    }
    const observed = [...(scope.observed.get(target) ?? [])].map(([name, count]) => ({ name, count }));
    const { operation, version, method, path } = target;
    const covered = items.filter((i) => i.count > 0).length;
    return { operation, version, method, path, ...share(covered, items.length), items, observed };
  });
  const covered = operations.reduce((sum, o) => sum + o.covered, 0);
  const total = operations.reduce((sum, o) => sum + o.total, 0);
  return {
    scope: stateKey === undefined ? 'process' : 'state',
    ...(stateKey !== undefined && { state: shortHash(stateKey) }),
    requests: scope.counts[REQUESTS_SLOT] ?? 0,
    ...share(covered, total),
    dimensions: Object.fromEntries(
      DIMENSIONS.map((d) => [d, share(byDimension[d].covered, byDimension[d].total)]),
    ) as Record<Dimension, CoverageShare>,
    operations,
    unrouted: [...scope.unrouted].map(([status, count]) => ({ status, count })).sort((a, b) => a.status - b.status),
  };
}
