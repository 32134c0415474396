/**
 * What a suite could exercise, derived from the contract (the engine's targets: one per operation
 * and version) and the store model (the operation table, the state table, the failure scenarios):
 * no list kept by hand, so an operation, a filter, an enum value or a state row added to either
 * adds to it. Each item is one slot of the recorder's counters (./recorder.ts), laid out per target
 * so that recording a request is integer increments at slots computed here once. docs/mock.md
 * ("Coverage") states the rules below word for word.
 */
import { type BundleOperation, deref, type Json } from '../../contract/index.ts';
import { FAILURES, type Failure } from '../../http/index.ts';
import { requirementsOf } from '../scopes.ts';
import type { Target } from '../stages/context.ts';

/** The kinds of items, in the order a report lists them. */
export const DIMENSIONS = ['status', 'filter', 'cursor', 'state', 'scenario'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** One item of the universe: what it is and its slot in the counters. */
export interface Item {
  dimension: Dimension;
  /** How a report names it: `404`, `status=open`, `middle`, `refused`, `fail=429`. */
  name: string;
  slot: number;
}

/** A list filter's slots: by how many values were sent, by enum value, by boolean value. */
export interface FilterSlots {
  param: string;
  /** One value sent (any kind of parameter); -1 for a boolean or enum scalar (their values are items). */
  one: number;
  /** Several values sent (an array parameter only), else -1. */
  several: number;
  /** An enum's values (an array's items' enum, or a scalar's), each its slot. */
  values: Map<string, number> | undefined;
  /** A boolean's `true` and `false` slots, else undefined. */
  booleans: [number, number] | undefined;
}

/** The universe of one operation in one version, and where its slots are. */
export interface TargetUniverse {
  operation: string;
  version: string;
  method: string;
  path: string;
  items: Item[];
  /** Status code → slot (-1: not in the universe), for codes 0 to 599. */
  statusSlot: Int16Array;
  /** By parameter name (the recorder looks up only the parameters a request sent). */
  filters: Map<string, FilterSlots>;
  /** first, middle, last page of a list, else undefined. */
  cursor: [number, number, number] | undefined;
  /** accepted, refused by the write's state row, else undefined. */
  state: [number, number] | undefined;
  /** Each failure scenario's slot (`Prefer: fail=` or a `--fail` rule). */
  fail: Map<Failure, number>;
  delay: number;
  /** A 403 for a token lacking the operation's scopes, or -1 when it needs none. */
  scope: number;
}

export interface Universe {
  targets: TargetUniverse[];
  byTarget: Map<Target, TargetUniverse>;
  /** Slots in all (slot 0 counts the requests recorded). */
  size: number;
}

/** Slot 0 of every counter array: requests recorded. */
export const REQUESTS_SLOT = 0;

/**
 * The statuses a request can get at an operation: the ones the contract declares, then the mock's
 * own refusals, each where the stage that answers it acts (../stages): 400 (a bad `Prefer`, a
 * repeated parameter), 401 and 413 (a declared length over the limit) anywhere; 403 where the
 * operation needs a scope; 404 where it addresses a record by key or lists a parent's; 415 where it
 * is not a GET (a body of another type, or one sent to a write that takes none); 422 where the
 * contract can refuse a parameter (a path parameter that is not a string, a query parameter other
 * than `cursor` with a type, format, enum, pattern or length), takes a body, or it is a write (its
 * row of the state table, its own rules); 429, 500 and 503 (the failure scenarios) anywhere. 405,
 * 409 (a reset racing a write) and 410 (an evicted state) are left out: routing has no operation,
 * and the other two depend on timing and limits rather than on the request; a status seen outside
 * the universe is reported as such.
 */
export function statusesOf(target: Target): number[] {
  const { validator, decl, operation } = target;
  const declared = target.statuses.filter((s) => /^\d{3}$/.test(s)).map(Number);
  const mock = [400, 401, 413];
  if (requirementsOf(operation.operation.security).some((scopes) => scopes.length > 0)) mock.push(403);
  const addressed = decl.kind === 'list' ? decl.parent !== undefined : decl.param !== undefined;
  if (addressed) mock.push(404);
  if (operation.method.toUpperCase() !== 'GET') mock.push(415);
  const refusable =
    validator.pathParams.some((p) => p.kind !== 'string') ||
    validator.queryParams.some(
      (p) =>
        p.name !== 'cursor' &&
        constrained(target.bundle.document, parameterSchema(operation, target.bundle.document, p.name)),
    );
  if (refusable || validator.hasBody || decl.kind === 'write') mock.push(422);
  for (const failure of FAILURES) if (typeof failure === 'number') mock.push(failure);
  return [...new Set([...declared, ...mock])].sort((a, b) => a - b);
}

/** Whether a parameter's value can break its schema: a type other than string, or a constraint (an array's items too). */
function constrained(document: Json, schema: Json): boolean {
  const type = [schema?.type].flat().filter((t) => t && t !== 'null');
  if (type.includes('array')) return constrained(document, deref(document, schema.items) ?? {});
  if (type.length > 0 && !type.every((t) => t === 'string')) return true;
  return ['enum', 'const', 'format', 'pattern', 'minLength', 'maxLength'].some((rule) => schema?.[rule] !== undefined);
}

/** A query parameter's schema (the bundle's walk resolved the parameters: path-level ones too), `$ref` followed. */
function parameterSchema(operation: BundleOperation, document: Json, name: string): Json {
  const found = operation.parameters.find((p) => p?.in === 'query' && p.name === name);
  return deref(document, found?.schema) ?? {};
}

/** Builds one target's universe from `next` on; returns it and the next free slot. */
function targetUniverse(target: Target, next: number): [TargetUniverse, number] {
  const items: Item[] = [];
  const add = (dimension: Dimension, name: string) => {
    items.push({ dimension, name, slot: next });
    return next++;
  };
  const statusSlot = new Int16Array(600).fill(-1);
  for (const status of statusesOf(target)) statusSlot[status] = add('status', String(status));
  const filters = filtersOf(target, add);
  const cursor =
    target.decl.kind === 'list'
      ? ([add('cursor', 'first'), add('cursor', 'middle'), add('cursor', 'last')] as [number, number, number])
      : undefined;
  const row = target.decl.kind === 'write' ? target.decl.state : undefined;
  const state = row ? ([add('state', 'accepted'), add('state', 'refused')] as [number, number]) : undefined;
  const fail = new Map(FAILURES.map((failure) => [failure, add('scenario', `fail=${failure}`)] as const));
  const delay = add('scenario', 'delay');
  const scope = statusSlot[403] !== -1 ? add('scenario', 'scope 403') : -1;
  const { operationId, method, path } = target.operation;
  const universe = { operation: operationId, version: target.version, method: method.toUpperCase(), path };
  return [{ ...universe, items, statusSlot, filters, cursor, state, fail, delay, scope }, next];
}

/**
 * The filters of a list: every query parameter but `cursor`, by its schema: an array parameter
 * `one value` and `several values`, a boolean `true` and `false`, an enum (of an array's items or
 * of a scalar) each of its values, any other `one value`.
 */
function filtersOf(target: Target, add: (dimension: Dimension, name: string) => number): Map<string, FilterSlots> {
  if (target.decl.kind !== 'list') return new Map();
  const document = target.bundle.document;
  const filters = target.validator.queryParams
    .filter((p) => p.name !== 'cursor')
    .map((param) => {
      const schema = parameterSchema(target.operation, document, param.name);
      const array = param.kind === 'array';
      const enumerated = (array ? deref(document, schema.items) : schema)?.enum as unknown[] | undefined;
      const boolean = !array && param.kind === 'boolean';
      const scalarValued = boolean || (!array && enumerated !== undefined);
      const one = scalarValued ? -1 : add('filter', `${param.name}: one value`);
      const several = array ? add('filter', `${param.name}: several values`) : -1;
      const values = enumerated && new Map(enumerated.map((v) => [String(v), add('filter', `${param.name}=${v}`)]));
      const booleans = boolean
        ? ([add('filter', `${param.name}=true`), add('filter', `${param.name}=false`)] as [number, number])
        : undefined;
      return { param: param.name, one, several, values, booleans };
    });
  return new Map(filters.map((filter) => [filter.param, filter]));
}

/** The universe of every target the engine serves, in the engine's order. */
export function universeOf(targets: readonly Target[]): Universe {
  let next = REQUESTS_SLOT + 1;
  const built: TargetUniverse[] = [];
  const byTarget = new Map<Target, TargetUniverse>();
  for (const target of targets) {
    const [universe, after] = targetUniverse(target, next);
    next = after;
    built.push(universe);
    byTarget.set(target, universe);
  }
  return { targets: built, byTarget, size: next };
}
