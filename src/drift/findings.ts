/**
 * The findings of `drift`, one per (operation, version, field, kind), counted. Drift kinds are what
 * the recorded API does that the contract does not say; `values` are suggestions (the values seen of
 * a field whose allowed values the spec does not show), never drift by themselves.
 */
export const DRIFT_KINDS = {
  'unknown-field': 'a field the contract lacks',
  absent: 'a contract field never present',
  null: 'null where the contract does not allow it',
  type: 'a value of another type than the contract says',
  enum: 'a value outside the contract enum',
  bounds: 'a value outside the stated bounds',
  schema: 'another rule of the response schema broken',
  status: 'a status the contract does not declare',
  'replay-status': 'the server answered another status than the recording',
  'replay-missing': 'a recorded field the server does not answer',
  'replay-extra': 'a field the server answers that the recording lacks',
  'replay-type': 'the server answers a field with another type',
} as const;
export type DriftKind = keyof typeof DRIFT_KINDS;

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
}

export interface Suggestion {
  operation: string;
  version: string;
  field: string;
  /** Value → times seen, most seen first. */
  values: Record<string, number>;
}

/** A field seen null where the contract allows it: not drift, the fields reality leaves empty. */
export interface NullSeen {
  operation: string;
  version: string;
  field: string;
  count: number;
}

export interface DriftReport {
  recording: string;
  exchanges: number;
  replayed?: { baseUrl: string; requests: number };
  findings: Finding[];
  suggestions: Suggestion[];
  nulls: NullSeen[];
}

/** Collects findings, one per (operation, version, field, kind). */
export class Findings {
  private readonly byKey = new Map<string, Finding & { seen: Map<string, number> }>();
  add(kind: DriftKind, operation: string, version: string, field: string, detail = ''): void {
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
          a.operation.localeCompare(b.operation) || a.field.localeCompare(b.field) || a.kind.localeCompare(b.kind),
      );
  }
}
