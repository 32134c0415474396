/**
 * How every refusal and every conformance finding names a field: `<where>.<path>`, `<where>` one of
 * body, query, path, header, array indexes written `[i]` (`body.lines[0].quantity`).
 */

/** One broken rule: the field, the JSON Schema keyword (or the mock's own rule name), a message. */
export interface Violation {
  field: string;
  rule: string;
  message: string;
  location: string[];
}

/** `['body', 'lines', '0', 'quantity']` → `body.lines[0].quantity` */
export function formatField(location: readonly string[]): string {
  return location.reduce((text, segment, index) => {
    if (index === 0) return segment;
    return /^\d+$/.test(segment) ? `${text}[${segment}]` : `${text}.${segment}`;
  }, '');
}
