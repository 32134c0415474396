/**
 * Compares two versions of a schema at one location, in one direction. A request schema breaks
 * clients when it accepts less (narrowed enum, tightened limit, new required field, lost type); a
 * response schema breaks them when it may produce something they did not expect (new type, null,
 * a removed or no-longer-required field). Widened response enums are warnings: clients that switch
 * over the values exhaustively may fail, tolerant ones will not.
 *
 * Cost: a pair of components (`$ref` on either side) is compared once per direction and document
 * pair, and its findings are kept relative to where it starts; every further use of the pair only
 * links to them. So the comparison is linear in the size of the `$ref` graph, even when the graph
 * has exponentially many paths (`A -> {left: B, right: B}`, `B -> {left: C, right: C}`, …).
 * Listing the findings at each location they are reached is bounded too: at most `MAX_LISTED` rows
 * per compared schema, then one row counting the rest (with the worst severity among them, so the
 * verdict never changes). Nesting deeper than `MAX_DEPTH` is refused as bad input (`DiffInputError`).
 * The comparisons of one keyword (type, null, enum, format, limits) are ./keywords.ts; this file
 * walks the schemas (objects, branches, `$ref`s) and lists what they find.
 */

import { compareEnum, compareFormat, compareLimits, compareNull, compareTypes, type Found, push } from './keywords.ts';
import {
  type Change,
  DiffInputError,
  type Direction,
  type Json,
  MAX_DEPTH,
  narrowed,
  type Severity,
  widened,
} from './model.ts';
import { readSchema, refName, type Schema } from './resolve.ts';

export interface SchemaContext {
  base: Json;
  head: Json;
  operation: string;
  direction: Direction;
  changes: Change[];
}

export { MAX_DEPTH } from './model.ts';
/** Most rows listed for one compared schema (an operation's body or parameter) before summing up. */
export const MAX_LISTED = 1000;

/** The findings of one compared pair of schemas: its own, and links to pairs below it. */
interface Entry {
  items: (Found | { at: string; entry: Entry })[];
  /** Findings below this entry, by severity (computed once, for the bounded listing). */
  counts?: Record<Severity, number>;
}

/** The comparison of one schema: where findings go, and the memo shared by the whole document pair. */
interface Walk extends SchemaContext {
  items: Entry['items'];
  depth: number;
  memo: Map<string, Entry>;
  /** The component pairs (`base ref|head ref`) being compared on the current path. */
  active: Set<string>;
  /** Where the schema being compared was first reached (locations in `items` are relative to it). */
  origin: string;
}

/** One memo per (base, head) document pair: keys carry the direction and the raw schemas. */
const memos = new WeakMap<object, WeakMap<object, Map<string, Entry>>>();
function memoOf(ctx: SchemaContext): Map<string, Entry> {
  const byHead = memos.get(ctx.base) ?? new WeakMap<object, Map<string, Entry>>();
  memos.set(ctx.base, byHead);
  const memo = byHead.get(ctx.head) ?? new Map<string, Entry>();
  byHead.set(ctx.head, memo);
  return memo;
}

/** Is a property visible in this direction (readOnly ones are not sent, writeOnly not received)? */
const visible = (ctx: Walk, doc: Json, raw: Json): boolean => {
  const s = readSchema(doc, raw);
  return ctx.direction === 'request' ? !s.readOnly : !s.writeOnly;
};

function compareObject(ctx: Walk, loc: string, b: Schema, h: Schema): void {
  const d = ctx.direction;
  const at = (name: string) => (loc ? `${loc}.${name}` : name);
  const closed = h.additionalProperties === false;
  for (const [name, raw] of Object.entries<Json>(b.properties)) {
    if (!visible(ctx, ctx.base, raw)) continue;
    if (!(name in h.properties)) {
      if (d === 'response') push(ctx, at(name))('property-removed', 'breaking', 'field removed');
      else if (closed)
        push(ctx, at(name))('property-removed', 'breaking', 'field removed (unknown fields are rejected)');
      else push(ctx, at(name))('property-removed', 'warning', 'field removed (the server may ignore or reject it)');
    }
  }
  for (const [name, raw] of Object.entries<Json>(h.properties)) {
    if (!visible(ctx, ctx.head, raw)) continue;
    if (!(name in b.properties)) {
      if (d === 'request' && h.required.has(name))
        push(ctx, at(name))('required-property-added', 'breaking', 'new required field');
      else push(ctx, at(name))('property-added', 'info', h.required.has(name) ? 'new field' : 'new optional field');
      continue;
    }
    const wasRequired = b.required.has(name);
    const isRequired = h.required.has(name);
    if (!wasRequired && isRequired) {
      push(ctx, at(name))('property-now-required', d === 'request' ? 'breaking' : 'info', 'now required');
    } else if (wasRequired && !isRequired) {
      const message = d === 'request' ? 'now optional' : 'no longer required (may be absent)';
      push(ctx, at(name))('property-now-optional', d === 'request' ? 'info' : 'breaking', message);
    }
    walk(ctx, at(name), b.properties[name], raw);
  }
  const bOpen = b.additionalProperties !== false;
  const hOpen = h.additionalProperties !== false;
  if (bOpen && !hOpen) push(ctx, loc)('additional-properties-closed', narrowed(d), 'no longer accepts unknown fields');
  if (!bOpen && hOpen) push(ctx, loc)('additional-properties-opened', widened(d), 'may now carry unknown fields');
  const bSchema = typeof b.additionalProperties === 'object' ? b.additionalProperties : undefined;
  const hSchema = typeof h.additionalProperties === 'object' ? h.additionalProperties : undefined;
  if (bSchema && hSchema) walk(ctx, at('*'), bSchema, hSchema);
}

/** Pairs `anyOf`/`oneOf` branches: by component name first, then by position among the rest. */
function compareBranches(ctx: Walk, loc: string, bRaw: Json[], hRaw: Json[]): void {
  const d = ctx.direction;
  const label = (raw: Json, i: number) => refName(raw) ?? `variant ${i + 1}`;
  const unmatchedHead = new Set(hRaw.map((_, i) => i));
  const pairs: [number, number][] = [];
  const leftovers: number[] = [];
  bRaw.forEach((raw, i) => {
    const name = refName(raw);
    const j = name ? hRaw.findIndex((other, k) => unmatchedHead.has(k) && refName(other) === name) : -1;
    if (j >= 0) {
      pairs.push([i, j]);
      unmatchedHead.delete(j);
    } else leftovers.push(i);
  });
  for (const i of leftovers) {
    const j = [...unmatchedHead].find((k) => !refName(hRaw[k]) && !refName(bRaw[i]));
    if (j !== undefined) {
      pairs.push([i, j]);
      unmatchedHead.delete(j);
    } else {
      push(ctx, loc)('variant-removed', narrowed(d), `${label(bRaw[i], i)} no longer one of the accepted shapes`);
    }
  }
  for (const j of unmatchedHead)
    push(ctx, loc)('variant-added', widened(d), `${label(hRaw[j], j)} added as a possible shape`);
  for (const [i, j] of pairs) walk(ctx, loc, bRaw[i], hRaw[j]);
}

/**
 * Compares a base schema with a head schema at `loc` and appends the findings to `ctx.changes`;
 * recurses into properties, items and variants.
 */
export function compareSchemas(ctx: SchemaContext, loc: string, bRaw: Json, hRaw: Json): void {
  const root: Walk = { ...ctx, items: [], depth: 0, memo: memoOf(ctx), active: new Set(), origin: '' };
  walk(root, loc, bRaw, hRaw);
  list(ctx, root.items);
}

const joinLocation = (at: string, location: string): string =>
  !at ? location : !location ? at : location.startsWith('[') ? `${at}${location}` : `${at}.${location}`;

function walk(ctx: Walk, loc: string, bRaw: Json, hRaw: Json): void {
  if (ctx.depth >= MAX_DEPTH) {
    const where = joinLocation(ctx.origin, loc) || '(root)';
    throw new DiffInputError(`${ctx.operation}: schema nested deeper than ${MAX_DEPTH} levels at ${where}`);
  }
  const b = readSchema(ctx.base, bRaw);
  const h = readSchema(ctx.head, hRaw);
  if (!b.ref && !h.ref) {
    compareRead(ctx, loc, { raw: bRaw, read: b }, { raw: hRaw, read: h });
    return;
  }
  // A component on either side: compare the pair once (memo key: direction and both raw schemas,
  // since a wrapper such as the nullable `anyOf` changes the reading), starting from an empty
  // location, and link its findings here. A pair of components met again while it is being
  // compared is a recursive schema: the comparison already under way covers it.
  const pair = `${b.ref}|${h.ref}`;
  if (ctx.active.has(pair)) return;
  const key = `${ctx.direction}\u0000${JSON.stringify(bRaw)}\u0000${JSON.stringify(hRaw)}`;
  let entry = ctx.memo.get(key);
  if (!entry) {
    entry = { items: [] };
    ctx.memo.set(key, entry);
    ctx.active.add(pair);
    try {
      const origin = joinLocation(ctx.origin, loc);
      const inner = { ...ctx, items: entry.items, depth: ctx.depth + 1, origin };
      compareRead(inner, '', { raw: bRaw, read: b }, { raw: hRaw, read: h });
    } catch (error) {
      ctx.memo.delete(key); // half-compared: never reuse it
      throw error;
    } finally {
      ctx.active.delete(pair);
    }
  }
  ctx.items.push({ at: loc, entry });
}

/** A schema as written and as read. */
interface Side {
  raw: Json;
  read: Schema;
}

/** The comparison proper, of two schemas already read. */
function compareRead(ctx: Walk, loc: string, base: Side, head: Side): void {
  const [{ raw: bRaw, read: b }, { raw: hRaw, read: h }] = [base, head];
  const next: Walk = { ...ctx, depth: ctx.depth + 1 };
  compareNull(ctx, loc, b, h);
  // A union (anyOf/oneOf) on either side: compare its variants rather than the wrapper's keywords.
  if (b.branches || h.branches) {
    // A plain side counts as one variant, named after its component when it has one.
    const single = (s: Schema, raw: Json) => [s.ref ? { $ref: s.ref } : raw];
    compareBranches(next, loc, b.branches ?? single(b, bRaw), h.branches ?? single(h, hRaw));
    return;
  }
  if (!compareTypes(ctx, loc, b, h)) return;
  compareEnum(ctx, loc, b, h);
  compareFormat(ctx, loc, b, h);
  compareLimits(ctx, loc, b, h);
  const objecty = (s: Schema) => s.types?.has('object') || Object.keys(s.properties).length > 0;
  if (objecty(b) || objecty(h)) compareObject(next, loc, b, h);
  if (b.items || h.items) walk(next, `${loc}[]`, b.items ?? {}, h.items ?? {});
}

const SEVERITIES: Severity[] = ['breaking', 'warning', 'info'];

/** Findings below an entry, by severity; each entry is counted once (links form a DAG: an entry is
 * linked only once it is complete). */
function countsOf(entry: Entry): Record<Severity, number> {
  if (entry.counts) return entry.counts;
  const counts: Record<Severity, number> = { breaking: 0, warning: 0, info: 0 };
  entry.counts = counts;
  for (const item of entry.items) {
    if ('entry' in item) {
      const below = countsOf(item.entry);
      for (const s of SEVERITIES) counts[s] += below[s];
    } else counts[item.severity]++;
  }
  return counts;
}

/**
 * Appends the findings to `ctx.changes`, each at every location it is reached, up to `MAX_LISTED`
 * rows; the rest is counted (without walking it) into one closing row.
 */
function list(ctx: SchemaContext, items: Entry['items']): void {
  let left = MAX_LISTED;
  const omitted: Record<Severity, number> = { breaking: 0, warning: 0, info: 0 };
  let firstOmitted: string | undefined;
  const visit = (list: Entry['items'], at: string, depth: number) => {
    for (const item of list) {
      if ('entry' in item) {
        const counts = countsOf(item.entry);
        const total = counts.breaking + counts.warning + counts.info;
        if (total === 0) continue;
        const where = joinLocation(at, item.at);
        if (left > 0 && depth < MAX_DEPTH) visit(item.entry.items, where, depth + 1);
        else {
          for (const s of SEVERITIES) omitted[s] += counts[s];
          firstOmitted ??= where;
        }
      } else if (left > 0) {
        left--;
        ctx.changes.push({ operation: ctx.operation, ...item, location: joinLocation(at, item.location) });
      } else {
        omitted[item.severity]++;
        firstOmitted ??= joinLocation(at, item.location);
      }
    }
  };
  visit(items, '', 0);
  const total = omitted.breaking + omitted.warning + omitted.info;
  if (total === 0) return;
  const severity = SEVERITIES.find((s) => omitted[s] > 0) ?? 'info';
  ctx.changes.push({
    operation: ctx.operation,
    location: firstOmitted ?? '',
    rule: 'changes-not-listed',
    severity,
    message:
      `${total} more changes (${omitted.breaking} breaking, ${omitted.warning} warnings, ${omitted.info} non-breaking) ` +
      `at other locations reaching the same shared schemas, not listed (over ${MAX_LISTED} rows)`,
  });
}
