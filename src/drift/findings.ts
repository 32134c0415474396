import type { FieldClass, FieldStats } from './stats.ts';

/**
 * The findings of `drift`, one per (operation, version, field, kind), counted. The kinds are listed
 * in the order to fix them: what breaks a client first (a status or a null it does not expect),
 * then what the contract says wrongly, then what it could say more precisely (a nullable field
 * never null, a closed set), then information (presence). A finding learned from a declaration
 * shared by several operations is named once, at the operation that showed it most, with `at`
 * (where it is declared) and `alsoIn` (the other places).
 */
export const DRIFT_KINDS = {
  status: 'a status the contract does not declare',
  null: 'null where the contract does not allow it',
  type: 'a value of another type than the contract says',
  enum: 'a value outside the contract enum',
  bounds: 'a value outside the stated bounds',
  schema: 'another rule of the response schema broken',
  'unknown-field': 'a field the contract lacks',
  'never-null': 'declared nullable, never null (in at least 30 observations: NEVER_NULL_MIN)',
  'closed-set': 'allowed values not shown, the values seen are a closed set (the CLOSED_SET rule)',
  'always-present': 'optional, present in every one of at least 30 observations (information)',
  absent: 'a contract field never present (information)',
  'replay-status': 'the server answered another status than the recording',
  'replay-missing': 'a recorded field the server does not answer',
  'replay-extra': 'a field the server answers that the recording lacks',
  'replay-type': 'the server answers a field with another type',
  'replay-empty': 'the server answered an empty list where the recording has items, not compared (information)',
  'replay-inconsistent': 'recorded answers contradict their own target, not replayed (information)',
} as const;
export type DriftKind = keyof typeof DRIFT_KINDS;

/** Kinds that are information, not drift: they do not make `drift` exit 1. */
export const INFORMATION: ReadonlySet<DriftKind> = new Set([
  'always-present',
  'absent',
  'replay-empty',
  'replay-inconsistent',
]);
const ORDER = Object.keys(DRIFT_KINDS) as DriftKind[];

export interface Finding {
  kind: DriftKind;
  operation: string;
  version: string;
  /** `body.results[].status` (array elements as `[]`), or `status`. */
  field: string;
  /** Exchanges (or records) showing it. */
  count: number;
  /** What was seen, e.g. `got string`, `values: trialing x2`. */
  detail: string;
  /** Where the field is declared (`Order#/properties/currency`), for a finding about its declaration. */
  at?: string;
  /** The other operations, versions and fields reaching the same declaration. */
  alsoIn?: string[];
}

export interface DriftReport {
  recording: string;
  exchanges: number;
  replayed?: { baseUrl: string; requests: number };
  findings: Finding[];
  /** Every declared field seen, per operation, version and field. */
  fields: FieldStats[];
  /** Statuses answered, per operation and version. */
  statuses: { operation: string; version: string; statuses: Record<string, number> }[];
  /** Fields whose allowed values are not shown, per declaration: a closed set or free text. */
  classes: { at: string; class: FieldClass; distinct: number; observations: number; seen: string[] }[];
}

/** Collects findings, one per (operation, version, field, kind). */
export class Findings {
  private readonly byKey = new Map<string, Finding & { seen: Map<string, number> }>();
  /** A finding about a declaration, with its evidence counted already. */
  put(finding: Finding): void {
    this.byKey.set(`${finding.operation} ${finding.version} ${finding.field} ${finding.kind}`, {
      ...finding,
      seen: new Map([[finding.detail, 1]]),
    });
  }
  /** One observation of `kind` about `field` of an operation in a version. */
  add(kind: DriftKind, at: { operation: string; version: string }, field: string, detail = ''): void {
    const { operation, version } = at;
    const key = `${operation} ${version} ${field} ${kind}`;
    let finding = this.byKey.get(key);
    if (!finding) {
      finding = { kind, operation, version, field, count: 0, detail: '', seen: new Map() };
      this.byKey.set(key, finding);
    }
    finding.count++;
    if (detail) finding.seen.set(detail, (finding.seen.get(detail) ?? 0) + 1);
  }
  list(): Finding[] {
    return [...this.byKey.values()]
      .map(({ seen, ...finding }) => ({
        ...finding,
        detail: [...seen].map(([text, n]) => (n > 1 ? `${text} x${n}` : text)).join('; '),
      }))
      .sort(
        (a, b) =>
          ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind) ||
          a.operation.localeCompare(b.operation) ||
          a.field.localeCompare(b.field),
      );
  }
}
