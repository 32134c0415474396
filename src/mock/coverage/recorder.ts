/**
 * The coverage recorder: after each API answer (../stages/intake.ts), integer increments at the
 * slots of the universe (./universe.ts), for the whole process and for the caller's token state,
 * keyed by what the stages already computed (the target, the status, the scenario, the parsed
 * query, the page's links, the record a write addressed). Nothing is built per request on a read;
 * a write's state transition and a refusal's rule, and a status outside the universe, are named
 * in a small map (they are rare, and are not slots: the model does not declare them). The report
 * is derived when read (./report.ts).
 */
import { bodyText } from '../../http/index.ts';
import { type AnyRecord, collectionOf } from '../model/index.ts';
import type { CoverageSink, RawResponse, RequestContext, Target } from '../stages/context.ts';
import { Counts } from './counts.ts';
import { type CoverageReport, coverageReport } from './report.ts';
import { REQUESTS_SLOT, type TargetUniverse, type Universe, universeOf } from './universe.ts';

export type { CoverageReport } from './report.ts';

/** One more at `slot`, in the process's counts and the state's (when the request has one). */
function bump(all: Int32Array, mine: Int32Array | undefined, slot: number): void {
  all[slot] = (all[slot] as number) + 1;
  if (mine) mine[slot] = (mine[slot] as number) + 1;
}

function note(scope: Counts, universe: TargetUniverse, text: string): void {
  const seen = scope.observed.get(universe) ?? new Map<string, number>();
  scope.observed.set(universe, seen);
  seen.set(text, (seen.get(text) ?? 0) + 1);
}

/** A record's state for a transition: its `status`, `request_status` and `type`, those it has. */
export function stateName(record: AnyRecord | undefined): string {
  if (!record) return '-';
  const parts: string[] = [];
  for (const field of ['status', 'request_status', 'type'])
    if (typeof record[field] === 'string') parts.push(record[field]);
  return parts.join('/') || '-';
}

/** The rule a write's own refusal names (its first violation's field and rule). */
function ruleOf(body: string): string {
  try {
    const [first] = (JSON.parse(body) as { validation?: { field?: string; rule?: string }[] }).validation ?? [];
    return first ? `${first.field} ${first.rule}` : 'unnamed';
  } catch {
    return 'unnamed';
  }
}

export class CoverageRecorder implements CoverageSink {
  readonly process: Counts;
  private readonly states = new Map<string, Counts>();

  readonly universe: Universe;

  /**
   * Over the engine's routes (../targets.ts; the universe is derived from their targets once);
   * `maxStates`: token states kept (the oldest first seen goes), as the token states are bounded;
   * `on` false: nothing is recorded (the engine's `coverage: false`).
   */
  constructor(
    routes: readonly { target: Target }[],
    private readonly maxStates: number,
    private readonly on = true,
  ) {
    this.universe = universeOf(routes.map((route) => route.target));
    this.process = new Counts(this.universe.size);
  }

  /**
   * What the whole process exercised, or one token state (its key, `TokenStore.keyOf`; a state
   * that made no request has exercised nothing).
   */
  report(stateKey?: string): CoverageReport {
    if (stateKey === undefined) return coverageReport(this.universe, this.process);
    return coverageReport(this.universe, this.states.get(stateKey) ?? new Counts(this.universe.size), stateKey);
  }

  /** Forgets what was recorded (every scope). */
  clear(): void {
    this.process.counts.fill(0);
    this.process.observed.clear();
    this.process.unrouted.clear();
    this.states.clear();
  }

  private stateCounts(key: string): Counts {
    let counts = this.states.get(key);
    if (counts) return counts;
    if (this.states.size >= this.maxStates) this.states.delete(this.states.keys().next().value as string);
    counts = new Counts(this.universe.size);
    this.states.set(key, counts);
    return counts;
  }

  /** Records one answered API request (a dropped connection has status 0). */
  record(context: RequestContext, response: RawResponse, stateKey: string | null): void {
    if (!this.on) return;
    const scope = stateKey === null ? undefined : this.stateCounts(stateKey);
    const all = this.process.counts;
    const mine = scope?.counts;
    bump(all, mine, REQUESTS_SLOT);
    const universe = context.target === undefined ? undefined : this.universe.byTarget.get(context.target);
    if (!universe) {
      this.unrouted(this.process, response.status);
      if (scope) this.unrouted(scope, response.status);
      return;
    }
    const status = response.status;
    const slot = status > 0 && status < 600 ? (universe.statusSlot[status] as number) : -1;
    if (slot >= 0) bump(all, mine, slot);
    else if (status > 0) this.observe(scope, universe, `status ${status}`);
    this.scenario(context, universe, status, mine);
    if (status === 200 && context.result?.kind === 'list') this.list(context, universe, mine);
    if (universe.state) this.write(context, universe, response, scope);
  }

  private unrouted(scope: Counts, status: number): void {
    scope.unrouted.set(status, (scope.unrouted.get(status) ?? 0) + 1);
  }

  private observe(scope: Counts | undefined, universe: TargetUniverse, text: string): void {
    note(this.process, universe, text);
    if (scope) note(scope, universe, text);
  }

  /** The scenario the scenario stage applied (asked by `Prefer` or a rule), and a scope's 403. */
  private scenario(context: RequestContext, universe: TargetUniverse, status: number, mine: Int32Array | undefined) {
    const applied = context.scenario;
    const all = this.process.counts;
    if (applied !== undefined) {
      if (applied.fail !== undefined) bump(all, mine, universe.fail.get(applied.fail) as number);
      if (applied.delay) bump(all, mine, universe.delay);
    }
    if (status === 403 && universe.scope >= 0) bump(all, mine, universe.scope);
  }

  /** A list answered: each filter sent, by the kind of its values; the page's place in the walk. */
  private list(context: RequestContext, universe: TargetUniverse, mine: Int32Array | undefined): void {
    const all = this.process.counts;
    const { searchParams, query } = context;
    // The parameters sent (the parsed query holds only those), not every filter of the list.
    for (const name in query) {
      const filter = universe.filters.get(name);
      if (filter === undefined || !searchParams.has(name)) continue;
      const value = query[name];
      if (Array.isArray(value)) bump(all, mine, value.length > 1 ? filter.several : filter.one);
      else if (filter.booleans) bump(all, mine, value === true ? filter.booleans[0] : filter.booleans[1]);
      else if (filter.one >= 0) bump(all, mine, filter.one);
      if (filter.values === undefined) continue;
      if (!Array.isArray(value)) {
        const slot = filter.values.get(String(value));
        if (slot !== undefined) bump(all, mine, slot);
        continue;
      }
      for (const item of value) {
        const slot = filter.values.get(String(item));
        if (slot !== undefined) bump(all, mine, slot);
      }
    }
    const result = context.result;
    if (result.kind !== 'list' || !universe.cursor) return;
    const [first, middle, last] = universe.cursor;
    if (result.previous === null && result.next !== null) bump(all, mine, first);
    else if (result.previous !== null) bump(all, mine, result.next !== null ? middle : last);
  }

  /** A write with a state row: accepted (from → to), refused by the row (from), or by its own rule. */
  private write(context: RequestContext, universe: TargetUniverse, response: RawResponse, scope?: Counts): void {
    const { addressed, result } = context;
    const decl = context.target.decl;
    const [accepted, refused] = universe.state as [number, number];
    const mine = scope?.counts;
    if (addressed === undefined || decl.kind !== 'write') return;
    if (response.status === 200 && result?.kind === 'write') {
      bump(this.process.counts, mine, accepted);
      const key = collectionOf(decl.collection).key;
      const after = result.changes.find(([c, r]) => c === decl.collection && r[key] === addressed[key])?.[1];
      this.observe(scope, universe, `${stateName(addressed)} → ${stateName(after ?? addressed)}`);
    } else if (response.status === 422 && result === undefined) {
      // The store stage checks the request's references, then the row, then the write's own rules.
      const rule = ruleOf(bodyText(response.body));
      if (rule.endsWith(' state') && decl.state?.refuses(addressed) !== undefined) {
        bump(this.process.counts, mine, refused);
        this.observe(scope, universe, `refused from ${stateName(addressed)}`);
      } else this.observe(scope, universe, `refused by rule ${rule}`);
    }
  }
}
