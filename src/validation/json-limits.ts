/**
 * What a JSON value may not be beyond its schema: nested deeper than {@link MAX_NESTING} levels
 * (checked without recursion, before any recursive walk — ajv, the number check, a clone — can
 * overflow the stack), or carrying numbers JSON parses but cannot keep (`1e999` is Infinity, an
 * integer beyond 2^53 − 1 loses digits). ./request.ts checks request bodies by both, and the records
 * and responses it checks by their nesting.
 */
import { formatField, type Violation } from './field.ts';
import { preview } from './message.ts';

/**
 * Deepest nesting of arrays and objects a body or a fixture record may have. The contract's deepest
 * request or response is under 10 levels; 64 leaves room and stays far below the stack.
 */
export const MAX_NESTING = 64;

/**
 * A violation (rule `maxDepth`) when `value` nests deeper than `limit`, naming the first path that
 * goes too deep. The look is a recursion bounded by `limit` (safe at any depth, nothing allocated:
 * it runs on every write's body and answer); only a value found too deep is walked again, with an
 * explicit stack, for the path of the report.
 */
export function nestingViolation(
  value: unknown,
  location: string[] = ['body'],
  limit: number = MAX_NESTING,
  subject?: string,
): Violation | undefined {
  if (!value || typeof value !== 'object' || !deeper(value, limit)) return undefined;
  // Only objects and arrays are stacked, each with its parent: a path is made only for the report.
  const stack: Nested[] = [{ value, key: '', parent: undefined, depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop() as Nested;
    if (node.depth >= limit) {
      const field = formatField(location);
      const path = [...location, ...keysOf(node)];
      return {
        field,
        rule: 'maxDepth',
        message: `${subject ?? field} nests deeper than ${limit} levels of arrays and objects (at ${formatField(path).slice(0, 200)}…)`,
        location,
      };
    }
    for (const [key, child] of Object.entries(node.value))
      if (child && typeof child === 'object') stack.push({ value: child, key, parent: node, depth: node.depth + 1 });
  }
  return undefined;
}

/** Does an object or array hold one `levels` or more levels below it (its own, enumerable members)? */
function deeper(value: object, levels: number): boolean {
  if (levels <= 0) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (item && typeof item === 'object' && deeper(item, levels - 1)) return true;
    return false;
  }
  const members = value as Record<string, unknown>;
  for (const key in members) {
    const child = members[key];
    if (child && typeof child === 'object' && Object.hasOwn(members, key) && deeper(child, levels - 1)) return true;
  }
  return false;
}

/** An object or array met by {@link nestingViolation}: its key in its parent, how deep it is. */
interface Nested {
  value: object;
  key: string;
  parent: Nested | undefined;
  depth: number;
}

/** The keys from the root to `node`. */
function keysOf(node: Nested): string[] {
  const keys: string[] = [];
  for (let at: Nested | undefined = node; at?.parent; at = at.parent) keys.push(at.key);
  return keys.reverse();
}

/**
 * Numbers a JSON body may not carry: non-finite ones and integers beyond 2^53 - 1. A body without
 * any (nearly every one) is told by one walk that makes nothing; locations are made only for a
 * body that has one. Recursive: call it on a value whose nesting {@link nestingViolation} passed.
 */
export function unsafeNumbers(value: unknown, location: string[] = ['body'], out: Violation[] = []): Violation[] {
  return holdsUnsafe(value) ? collectUnsafe(value, location, out) : out;
}

const isUnsafe = (value: number): boolean =>
  !Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value));

/** Does `value` hold a number {@link unsafeNumbers} names? */
function holdsUnsafe(value: unknown): boolean {
  if (typeof value === 'number') return isUnsafe(value);
  if (!value || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsUnsafe(item)) return true;
    return false;
  }
  const members = value as Record<string, unknown>;
  for (const key in members) if (holdsUnsafe(members[key]) && Object.hasOwn(members, key)) return true;
  return false;
}

function collectUnsafe(value: unknown, location: string[], out: Violation[]): Violation[] {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) {
      out.push({
        field: formatField(location),
        rule: 'finite',
        message: `${formatField(location)}: must be a finite number`,
        location,
      });
    } else if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
      out.push({
        field: formatField(location),
        rule: 'maximum',
        message: `${formatField(location)}: must be within ±${Number.MAX_SAFE_INTEGER} (received ${preview(value)})`,
        location,
      });
    }
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => {
      if (mayHoldNumbers(item)) collectUnsafe(item, [...location, String(index)], out);
    });
  } else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value))
      if (mayHoldNumbers(child)) collectUnsafe(child, [...location, key], out);
  }
  return out;
}

/** A number, or an object or array that may hold one: a string, boolean or null needs no location made. */
const mayHoldNumbers = (value: unknown): boolean => typeof value === 'number' || (!!value && typeof value === 'object');
