/**
 * The comparisons of one keyword of a schema pair at one location, in one direction (./schema.ts
 * walks the pairs and calls them): its types, null, enum, format and limits. Each notes what it
 * finds; whether narrowing or widening breaks clients depends on the direction (./model.ts).
 */
import { type Direction, narrowed, type Severity, widened } from './model.ts';
import type { Schema } from './resolve.ts';

/** A finding, located relative to the schema it was found in. */
export interface Found {
  location: string;
  rule: string;
  severity: Severity;
  message: string;
}

/** Where a comparison notes its findings, and the direction compared. */
export interface Findings {
  direction: Direction;
  items: Pick<Found[], 'push'>;
}

const show = (value: unknown): string => JSON.stringify(value);
const listOf = (values: Iterable<unknown>): string => [...values].map(show).join(', ');
const typeText = (s: Schema): string =>
  `${s.types ? [...s.types].sort().join('|') || 'never' : 'any'}${s.nullable ? '|null' : ''}`;

/** Notes a change at `location`: `push(ctx, location)(rule, severity, message)`. */
export const push =
  (ctx: Findings, location: string) =>
  (rule: string, severity: Severity, message: string): void => {
    ctx.items.push({ location, rule, severity, message });
  };

/** `number` accepts every `integer`: treat integer as included in number when comparing sets. */
function missingTypes(from: Set<string>, to: Set<string>): string[] {
  return [...from].filter((t) => !to.has(t) && !(t === 'integer' && to.has('number')));
}

export function compareTypes(ctx: Findings, loc: string, b: Schema, h: Schema): boolean {
  const d = ctx.direction;
  if (!b.types && h.types) {
    push(ctx, loc)('type-restricted', narrowed(d), `type restricted from any to ${typeText(h)}`);
  } else if (b.types && !h.types) {
    push(ctx, loc)('type-unrestricted', widened(d), `type widened from ${typeText(b)} to any`);
  } else if (b.types && h.types) {
    const lost = missingTypes(b.types, h.types);
    const gained = missingTypes(h.types, b.types);
    if (lost.length > 0 && gained.length > 0) {
      push(ctx, loc)('type-changed', 'breaking', `type changed from ${typeText(b)} to ${typeText(h)}`);
      return false; // the rest of the schema describes something else now
    }
    if (lost.length > 0)
      push(ctx, loc)('type-narrowed', narrowed(d), `type narrowed from ${typeText(b)} to ${typeText(h)}`);
    if (gained.length > 0) {
      // A new type in a response breaks readers outright (unlike a new enum value of the same type).
      const severity = d === 'response' ? 'breaking' : 'info';
      push(ctx, loc)('type-widened', severity, `type widened from ${typeText(b)} to ${typeText(h)}`);
    }
  }
  return true;
}

export function compareNull(ctx: Findings, loc: string, b: Schema, h: Schema): void {
  const d = ctx.direction;
  if (b.nullable && !h.nullable) {
    push(ctx, loc)('null-removed', narrowed(d), d === 'request' ? 'no longer accepts null' : 'no longer null');
  } else if (!b.nullable && h.nullable) {
    const severity = d === 'response' ? 'breaking' : 'info';
    push(ctx, loc)('null-added', severity, d === 'request' ? 'now accepts null' : 'may now be null');
  }
}

export function compareEnum(ctx: Findings, loc: string, b: Schema, h: Schema): void {
  const d = ctx.direction;
  if (!b.enum && h.enum) {
    push(ctx, loc)('enum-added', narrowed(d), `now restricted to ${listOf(h.enum)}`);
  } else if (b.enum && !h.enum) {
    push(ctx, loc)('enum-removed', widened(d), `no longer restricted to ${listOf(b.enum)}`);
  } else if (b.enum && h.enum) {
    const before = new Set(b.enum.map(show));
    const after = new Set(h.enum.map(show));
    const removed = [...before].filter((v) => !after.has(v));
    const added = [...after].filter((v) => !before.has(v));
    if (removed.length > 0) {
      push(ctx, loc)('enum-value-removed', narrowed(d), `enum narrowed: ${removed.join(', ')} removed`);
    }
    if (added.length > 0) push(ctx, loc)('enum-value-added', widened(d), `enum widened: ${added.join(', ')} added`);
  }
}

export function compareFormat(ctx: Findings, loc: string, b: Schema, h: Schema): void {
  if (b.format === h.format) return;
  if (b.format && h.format) {
    push(ctx, loc)('format-changed', 'breaking', `format changed from ${b.format} to ${h.format}`);
  } else if (h.format) {
    push(ctx, loc)('format-added', narrowed(ctx.direction), `format ${h.format} added`);
  } else {
    push(ctx, loc)('format-removed', widened(ctx.direction), `format ${b.format} removed`);
  }
}

/** Upper bounds tighten when lowered, lower bounds when raised; both when newly added. */
const UPPER = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems'];
const LOWER = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems'];

export function compareLimits(ctx: Findings, loc: string, b: Schema, h: Schema): void {
  const d = ctx.direction;
  const tightened = (rule: string, message: string) => push(ctx, loc)(rule, narrowed(d), message);
  const loosened = (rule: string, message: string) => push(ctx, loc)(rule, widened(d), message);
  for (const key of [...UPPER, ...LOWER]) {
    const before = typeof b.limits[key] === 'number' ? (b.limits[key] as number) : undefined;
    const after = typeof h.limits[key] === 'number' ? (h.limits[key] as number) : undefined;
    if (before === after) continue;
    const upper = UPPER.includes(key);
    if (before === undefined) tightened('limit-added', `${key} ${after} added`);
    else if (after === undefined) loosened('limit-removed', `${key} ${before} removed`);
    else if (upper === after < before)
      tightened('limit-tightened', `${key} ${upper ? 'lowered' : 'raised'} from ${before} to ${after}`);
    else loosened('limit-loosened', `${key} ${upper ? 'raised' : 'lowered'} from ${before} to ${after}`);
  }
  const [bp, hp] = [b.limits.pattern, h.limits.pattern];
  if (bp !== hp) {
    if (bp === undefined) tightened('pattern-added', `pattern ${show(hp)} added`);
    else if (hp === undefined) loosened('pattern-removed', `pattern ${show(bp)} removed`);
    // A changed pattern cannot be compared: it may reject values the old one accepted.
    else
      push(ctx, loc)(
        'pattern-changed',
        d === 'request' ? 'breaking' : 'warning',
        `pattern changed from ${show(bp)} to ${show(hp)}`,
      );
  }
  const [bm, hm] = [b.limits.multipleOf, h.limits.multipleOf];
  if (bm !== hm) {
    if (bm === undefined) tightened('limit-added', `multipleOf ${hm} added`);
    else if (hm === undefined) loosened('limit-removed', `multipleOf ${bm} removed`);
    else
      push(ctx, loc)(
        'limit-changed',
        d === 'request' ? 'breaking' : 'warning',
        `multipleOf changed from ${bm} to ${hm}`,
      );
  }
  if (b.limits.uniqueItems !== true && h.limits.uniqueItems === true) tightened('limit-added', 'uniqueItems added');
  if (b.limits.uniqueItems === true && h.limits.uniqueItems !== true) loosened('limit-removed', 'uniqueItems removed');
}
