/**
 * The drift of a recording against the contract: each recorded exchange's answer is checked against
 * its operation's response schema in its version (conformance's validator: type, enum, bounds, ...)
 * and walked beside it (./walk.ts: unknown fields, and every declared field observed into
 * ./stats.ts). A field is named once per operation, version and kind, however many exchanges show
 * it; a schema break is classified by its rule (`type` on a null is `null`). What the statistics
 * teach about a declaration (never null, a closed set, always present) is learned over every
 * operation and version reaching it, so a shared schema is judged on all its evidence.
 */

import { Contract } from '../conformance/index.ts';
import type { Bundle, BundleOperation } from '../contract/index.ts';
import type { RecordedExchange, Recording } from '../proxy/index.ts';
import { type DriftKind, type DriftReport, Findings } from './findings.ts';
import {
  ALWAYS_PRESENT_MIN,
  byDeclaration,
  classify,
  type FieldStats,
  FieldStatsCollector,
  NEVER_NULL_MIN,
} from './stats.ts';
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

/** Runs the recording's exchanges through the schema check and the walk. */
function observe(recording: Recording, contract: Contract, findings: Findings, fields: FieldStatsCollector) {
  const statuses = new Map<string, { operation: string; version: string; statuses: Record<string, number> }>();
  for (const exchange of recording.$recording.exchanges as RecordedExchange[]) {
    const { operation: id, version } = exchange;
    const seen = statuses.get(`${id} ${version}`) ?? { operation: id, version, statuses: {} };
    seen.statuses[exchange.status] = (seen.statuses[exchange.status] ?? 0) + 1;
    statuses.set(`${id} ${version}`, seen);
    const operation = contract.find(exchange.version, exchange.operation);
    if (!operation) {
      findings.add('schema', exchange, 'operation', 'not in this contract');
      continue;
    }
    for (const [field, { kind, detail }] of schemaBreaks(contract, operation, exchange)) {
      findings.add(kind, exchange, field, detail);
    }
    const declared = contract.declaredResponse(operation, exchange.status);
    const schema = declared?.response?.content?.['application/json']?.schema;
    if (!schema) continue;
    walkValue(contract.documentOf(operation.version), schema, exchange.body, {
      unknown: (field) => findings.add('unknown-field', exchange, field),
      observe: (field, declaration, present, value) => fields.observe(exchange, field, declaration, { present, value }),
    });
  }
  return [...statuses.values()];
}

const place = (s: { operation: string; version: string; field: string }) => `${s.operation} ${s.version} ${s.field}`;
const listed = (values: Record<string, number>) =>
  Object.entries(values)
    .sort(([x, a], [y, b]) => b - a || x.localeCompare(y))
    .map(([v, n]) => `${JSON.stringify(v)} x${n}`)
    .join(', ');

/** The findings about declarations: never null, closed sets, presence; and each open field's class. */
function learn(fields: FieldStats[], findings: Findings): DriftReport['classes'] {
  const classes: DriftReport['classes'] = [];
  for (const group of byDeclaration(fields)) {
    const [first, ...others] = [...group.seen].sort((a, b) => b.observations - a.observations);
    if (!first) continue;
    const put = (kind: DriftKind, count: number, detail: string) =>
      findings.put({
        kind,
        operation: first.operation,
        version: first.version,
        field: first.field,
        count,
        detail,
        at: group.at,
        alsoIn: others.map(place),
      });
    const { declaration } = group;
    if (declaration.nullable && group.nulls === 0 && group.present >= NEVER_NULL_MIN) {
      put('never-null', group.present, `never null in ${group.present} observations`);
    }
    const kind = classify(group);
    if (kind)
      classes.push({
        at: group.at,
        class: kind,
        distinct: group.distinct,
        observations: group.present - group.nulls,
        seen: group.seen.map(place),
      });
    if (kind === 'closed')
      put('closed-set', group.present - group.nulls, `${group.distinct} values: ${listed(group.values)}`);
    if (!declaration.required && group.observations >= ALWAYS_PRESENT_MIN && group.present === group.observations) {
      put('always-present', group.present, `optional, present in all ${group.present} observations`);
    }
  }
  for (const stats of fields) {
    if (stats.present === 0) findings.add('absent', stats, stats.field, `absent in ${stats.observations} observations`);
  }
  return classes;
}

export function analyzeRecording(recording: Recording, bundles: Bundle[], name = 'recording'): DriftReport {
  const contract = new Contract(bundles);
  const findings = new Findings();
  const collector = new FieldStatsCollector();
  const statuses = observe(recording, contract, findings, collector);
  const fields = collector.list();
  const classes = learn(fields, findings);
  // A schema break names its declaration too, so that --propose knows where to edit.
  const declared = new Map(fields.map((s) => [place(s), s.declaration.at]));
  const list = findings.list().map((f) => (f.at || !declared.has(place(f)) ? f : { ...f, at: declared.get(place(f)) }));
  return {
    recording: name,
    exchanges: recording.$recording.exchanges.length,
    findings: list,
    fields,
    statuses,
    classes,
  };
}
