/**
 * The drift of a recording against the contract: each recorded exchange's answer is checked against
 * its operation's response schema in its version (conformance's validator: type, enum, bounds, ...)
 * and walked beside it (./walk.ts: unknown fields, fields never present, values of fields whose
 * allowed values are not shown). A field is named once per operation, version and kind, however
 * many exchanges show it; a schema break is classified by its rule (`type` on a null is `null`).
 */

import { Contract } from '../conformance/index.ts';
import type { Bundle, BundleOperation } from '../contract/index.ts';
import type { RecordedExchange, Recording } from '../proxy/index.ts';
import { type DriftKind, type DriftReport, Findings, type NullSeen, type Suggestion } from './findings.ts';
import { walkValue } from './walk.ts';

const BOUNDS = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
]);

/** The value at a field as the validator names it (`body.results[0].status`). */
export function valueAt(body: unknown, field: string): unknown {
  const segments = [...field.replace(/^body/, '').matchAll(/\.([^.[\]]+)|\[(\d+)\]/g)].map((m) => m[1] ?? Number(m[2]));
  return segments.reduce<unknown>(
    (at, key) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[key as string] : undefined),
    body,
  );
}

const normalize = (field: string) => field.replace(/\[\d+\]/g, '[]');
const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

function kindOf(rule: string, value: unknown): DriftKind | undefined {
  if (rule === 'additionalProperties') return undefined; // the walk names the field itself
  if (rule === 'status') return 'status';
  if (rule === 'type') return value === null ? 'null' : 'type';
  if (rule === 'enum' || rule === 'const') return 'enum';
  return BOUNDS.has(rule) ? 'bounds' : 'schema';
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

/** Rank of a kind when one value breaks several rules (int32 `maximum` and `format`): the first names it. */
const RANK: DriftKind[] = ['null', 'type', 'enum', 'bounds', 'status', 'schema'];

/** The schema breaks of one exchange: one kind per field (normalized), the most telling. */
function schemaBreaks(
  contract: Contract,
  operation: BundleOperation,
  exchange: RecordedExchange,
): Map<string, { kind: DriftKind; detail: string }> {
  const out = new Map<string, { kind: DriftKind; detail: string }>();
  for (const violation of contract.validateValue(operation, exchange.status, 'application/json', exchange.body)) {
    const value = valueAt(exchange.body, violation.field);
    const kind = kindOf(violation.rule, value);
    if (!kind) continue;
    const detail =
      kind === 'enum'
        ? `value ${shown(value)}`
        : kind === 'type'
          ? `got ${typeName(value)}, ${violation.message}`
          : kind === 'null'
            ? ''
            : `${violation.rule}: ${violation.message}`;
    const field = normalize(violation.field);
    const known = out.get(field);
    if (!known || RANK.indexOf(kind) < RANK.indexOf(known.kind)) out.set(field, { kind, detail });
  }
  return out;
}

export function analyzeRecording(recording: Recording, bundles: Bundle[], name = 'recording'): DriftReport {
  const contract = new Contract(bundles);
  const findings = new Findings();
  const presence = new Map<string, { operation: string; version: string; field: string; present: number }>();
  const values = new Map<string, Suggestion>();
  const nulls = new Map<string, NullSeen>();
  for (const exchange of recording.$recording.exchanges as RecordedExchange[]) {
    const operation = contract.find(exchange.version, exchange.operation);
    if (!operation) {
      findings.add('schema', exchange.operation, exchange.version, 'operation', 'not in this contract');
      continue;
    }
    const { operation: id, version } = exchange;
    for (const [field, { kind, detail }] of schemaBreaks(contract, operation, exchange)) {
      findings.add(kind, id, version, field, detail);
    }
    const declared = contract.declaredResponse(operation, exchange.status);
    const schema = declared?.response?.content?.['application/json']?.schema;
    if (!schema) continue;
    walkValue(contract.documentOf(operation.version), [schema], exchange.body, 'body', {
      unknown: (field) => findings.add('unknown-field', id, version, field),
      declared(field, present) {
        const key = `${id} ${version} ${field}`;
        const entry = presence.get(key) ?? { operation: id, version, field, present: 0 };
        entry.present += present ? 1 : 0;
        presence.set(key, entry);
      },
      null(field) {
        const key = `${id} ${version} ${field}`;
        const entry = nulls.get(key) ?? { operation: id, version, field, count: 0 };
        entry.count++;
        nulls.set(key, entry);
      },
      value(field, value) {
        const key = `${id} ${version} ${field}`;
        const entry = values.get(key) ?? { operation: id, version, field, values: {} };
        entry.values[value] = (entry.values[value] ?? 0) + 1;
        values.set(key, entry);
      },
    });
  }
  for (const entry of presence.values()) {
    if (entry.present === 0) findings.add('absent', entry.operation, entry.version, entry.field);
  }
  const suggestions = [...values.values()].map((s) => ({
    ...s,
    values: Object.fromEntries(Object.entries(s.values).sort(([, a], [, b]) => b - a)),
  }));
  return {
    recording: name,
    exchanges: recording.$recording.exchanges.length,
    findings: findings.list(),
    suggestions,
    nulls: [...nulls.values()],
  };
}
