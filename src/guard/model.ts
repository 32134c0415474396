/**
 * The vocabulary of the breaking-change guard: what a change is, how severe, and in which direction
 * a schema is read (clients write requests and read responses, so the two are judged oppositely).
 */

/** `breaking`: fails existing clients; `warning`: may fail some; `info`: safe. */
export type Severity = 'breaking' | 'warning' | 'info';

/** `request`: the client sends values (parameters, bodies); `response`: the client reads them. */
export type Direction = 'request' | 'response';

export interface Change {
  /** `GET /subscriptions/` (the path as written in the newer document). */
  operation: string;
  /** Where inside the operation: `response 200 body.results[].status`, `query status`, `security`… */
  location: string;
  /** A stable rule id, e.g. `enum-value-removed`. */
  rule: string;
  /** Human-readable description of the change. */
  message: string;
  severity: Severity;
}

/** Severity of a change that narrows what is accepted/produced vs one that widens it. */
export const narrowed = (direction: Direction): Severity => (direction === 'request' ? 'breaking' : 'info');
/** Widening what a response may contain: clients may not handle the new values. */
export const widened = (direction: Direction): Severity => (direction === 'request' ? 'info' : 'warning');

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are walked as untyped JSON.
export type Json = any;

/** Deepest schema nesting compared (properties, items, variants, `allOf`, `$ref`s): real schemas use < 20. */
export const MAX_DEPTH = 256;

/**
 * Input the guard cannot compare: a bundle nested deeper than it walks, a `$ref` loop, a `$ref`
 * that does not point inside the bundle. The CLI reports it as bad input (exit 3), never as a break.
 */
export class DiffInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DiffInputError';
  }
}
