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
  const stack: { value: unknown; path: string[] }[] = [{ value, path: location }];
  while (stack.length > 0) {
    const { value: node, path } = stack.pop() as { value: unknown; path: string[] };
    if (!node || typeof node !== 'object') continue;
    if (path.length - location.length >= limit) {
      const field = formatField(location);
      return {
        field,
        rule: 'maxDepth',
        message: `${subject} nests deeper than ${limit} levels of arrays and objects (at ${formatField(path).slice(0, 200)}…)`,
        location,
      };
    }
    for (const [key, child] of Object.entries(node)) stack.push({ value: child, path: [...path, key] });
  }
  return undefined;
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
      unsafeNumbers(item, [...location, String(index)], out);
    });
  } else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) unsafeNumbers(child, [...location, key], out);
  }
  return out;
}
