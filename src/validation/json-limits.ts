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
 * A violation (rule `maxDepth`) when `value` nests deeper than `limit`, found with an explicit stack
 * (no recursion, so any depth is safe to measure), naming the first path that goes too deep.
 */
export function nestingViolation(
  value: unknown,
  location: string[] = ['body'],
  limit: number = MAX_NESTING,
  subject: string = formatField(location),
): Violation | undefined {
  if (!value || typeof value !== 'object') return undefined;
  // Only objects and arrays are stacked, each with its parent: a path is made only for the report
  // (a copy of it per value made a create's body cost more than its parsing).
  const stack: Nested[] = [{ value, key: '', parent: undefined, depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop() as Nested;
    if (node.depth >= limit) {
      const field = formatField(location);
      const path = [...location, ...keysOf(node)];
      return {
        field,
        rule: 'maxDepth',
        message: `${subject} nests deeper than ${limit} levels of arrays and objects (at ${formatField(path).slice(0, 200)}…)`,
        location,
      };
    }
    for (const [key, child] of Object.entries(node.value))
      if (child && typeof child === 'object') stack.push({ value: child, key, parent: node, depth: node.depth + 1 });
  }
  return undefined;
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

/** Numbers a JSON body may not carry: non-finite ones and integers beyond 2^53 - 1. */
export function unsafeNumbers(value: unknown, location: string[] = ['body'], out: Violation[] = []): Violation[] {
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
      if (mayHoldNumbers(item)) unsafeNumbers(item, [...location, String(index)], out);
    });
  } else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value))
      if (mayHoldNumbers(child)) unsafeNumbers(child, [...location, key], out);
  }
  return out;
}

/** A number, or an object or array that may hold one: a string, boolean or null needs no location made. */
const mayHoldNumbers = (value: unknown): boolean => typeof value === 'number' || (!!value && typeof value === 'object');
