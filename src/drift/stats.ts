/**
 * What a recording tells about each field, per operation, version and field (array items as `[]`):
 * observations, nulls, absences, distinct values with counts, numeric min/max, string formats
 * matched, array lengths; and, per declaration, whether a field whose allowed values the spec does
 * not show holds a closed set or free text (the rule: CLOSED_SET).
 */
import type { Declaration } from './walk.ts';

/** Distinct values kept per field (bounded memory on free text); `distinct` stops counting there. */
export const VALUES_KEPT = 50;

/**
 * A field whose allowed values are not shown holds a **closed set** when it was seen at least
 * `minObservations` times with at most `maxDistinct` distinct values, each seen at least `minEach`
 * times (a value seen once or twice is what free text looks like); otherwise **free text**.
 */
export const CLOSED_SET = { minObservations: 20, maxDistinct: 12, minEach: 3 } as const;

/** A field declared nullable is reported never null from this many observations (present, non-null). */
export const NEVER_NULL_MIN = 30;

/** An optional field is reported always present from this many observations. */
export const ALWAYS_PRESENT_MIN = 30;

const FORMATS: [string, (text: string) => boolean][] = [
  ['date-time', (t) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(t)],
  ['date', (t) => /^\d{4}-\d{2}-\d{2}$/.test(t)],
  ['uri', (t) => /^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(t)],
  ['email', (t) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(t)],
  ['decimal string', (t) => /^-?\d+(\.\d+)?$/.test(t)],
];

export interface FieldStats {
  operation: string;
  version: string;
  /** `body.results[].status`. */
  field: string;
  declaration: Declaration;
  /** Times the object holding the field was seen (array items: the items seen). */
  observations: number;
  present: number;
  nulls: number;
  absent: number;
  /** Value (strings as is, others as JSON) → times seen, at most VALUES_KEPT kept. */
  values: Record<string, number>;
  /** Distinct values seen (VALUES_KEPT + 1 means "more"). */
  distinct: number;
  min?: number;
  max?: number;
  /** Format → strings matching it. */
  formats: Record<string, number>;
  /** Non-null strings seen (the base of `formats`). */
  strings: number;
  /** Shortest and longest array seen. */
  lengths?: { min: number; max: number };
  /** JSON type → times seen. */
  types: Record<string, number>;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return Number.isInteger(value) ? 'integer' : typeof value;
}

/** Collects FieldStats, one per operation, version and field. */
export class FieldStatsCollector {
  private readonly byKey = new Map<string, FieldStats>();

  /** One observation of `field` in an exchange of an operation in a version (`present` false: absent). */
  observe(
    at: { operation: string; version: string },
    field: string,
    declaration: Declaration,
    seen: { present: boolean; value: unknown },
  ) {
    const { operation, version } = at;
    const { present, value } = seen;
    const key = `${operation} ${version} ${field}`;
    let stats = this.byKey.get(key);
    if (!stats) {
      const counts = { observations: 0, present: 0, nulls: 0, absent: 0, distinct: 0, strings: 0 };
      stats = { operation, version, field, declaration, ...counts, values: {}, formats: {}, types: {} };
      this.byKey.set(key, stats);
    }
    stats.observations++;
    if (!present) {
      stats.absent++;
      return;
    }
    stats.present++;
    const type = jsonType(value);
    stats.types[type] = (stats.types[type] ?? 0) + 1;
    if (value === null) stats.nulls++;
    else if (typeof value === 'number') {
      stats.min = Math.min(stats.min ?? value, value);
      stats.max = Math.max(stats.max ?? value, value);
    } else if (Array.isArray(value)) {
      stats.lengths = {
        min: Math.min(stats.lengths?.min ?? value.length, value.length),
        max: Math.max(stats.lengths?.max ?? value.length, value.length),
      };
    }
    if (typeof value === 'string') {
      stats.strings++;
      for (const [name, test] of FORMATS) if (test(value)) stats.formats[name] = (stats.formats[name] ?? 0) + 1;
    }
    if (value !== null && typeof value !== 'object')
      count(stats, typeof value === 'string' ? value : JSON.stringify(value));
  }

  list(): FieldStats[] {
    return [...this.byKey.values()];
  }
}

function count(stats: FieldStats, shown: string): void {
  if (shown in stats.values) stats.values[shown] = (stats.values[shown] ?? 0) + 1;
  else if (stats.distinct < VALUES_KEPT) {
    stats.values[shown] = 1;
    stats.distinct++;
  } else stats.distinct = VALUES_KEPT + 1;
}

/** The stats of one declaration summed over the operations and versions that reach it. */
export interface DeclarationStats {
  at: string;
  declaration: Declaration;
  /** The operation, version and field of each place it was seen. */
  seen: FieldStats[];
  observations: number;
  present: number;
  nulls: number;
  values: Record<string, number>;
  distinct: number;
}

/** Fields grouped by declaration (a field declared inline in an operation is its own group). */
export function byDeclaration(fields: FieldStats[]): DeclarationStats[] {
  const out = new Map<string, DeclarationStats>();
  for (const stats of fields) {
    const at = stats.declaration.at.startsWith('#')
      ? `${stats.operation} ${stats.version} ${stats.field}`
      : stats.declaration.at;
    const group = out.get(at) ?? {
      at,
      declaration: stats.declaration,
      seen: [],
      observations: 0,
      present: 0,
      nulls: 0,
      values: {},
      distinct: 0,
    };
    group.seen.push(stats);
    group.observations += stats.observations;
    group.present += stats.present;
    group.nulls += stats.nulls;
    for (const [value, n] of Object.entries(stats.values)) group.values[value] = (group.values[value] ?? 0) + n;
    group.distinct = Math.max(group.distinct, stats.distinct, Object.keys(group.values).length);
    out.set(at, group);
  }
  return [...out.values()];
}

export type FieldClass = 'closed' | 'free-text' | 'too-few';

/**
 * `closed`, `free-text`, or `too-few` (under CLOSED_SET.minObservations values: no verdict), for a
 * declaration whose allowed values are not shown and that holds values.
 */
export function classify(group: DeclarationStats): FieldClass | undefined {
  if (!group.declaration.open) return undefined;
  const counts = Object.values(group.values);
  if (counts.length === 0) return undefined;
  if (group.present - group.nulls < CLOSED_SET.minObservations) return 'too-few';
  const closed = group.distinct <= CLOSED_SET.maxDistinct && counts.every((n) => n >= CLOSED_SET.minEach);
  return closed ? 'closed' : 'free-text';
}
