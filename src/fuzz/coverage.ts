/**
 * How well each operation's success path was exercised: per operation and version, the valid
 * requests sent, accepted (2xx) and refused (3xx/4xx, the server's right: no such record, a state).
 * A run that sent valid requests to an operation but had fewer than `minAccepted` of them accepted
 * did not test that operation's success path: the report lists it as under-exercised (the `fuzz`
 * command exits 3), so "no failure" is never said of a path the run barely reached.
 */

/** The default floor: every operation fuzzed has at least one valid request accepted. */
export const FUZZ_DEFAULT_MIN_ACCEPTED = 1;

export interface FuzzOperationCount {
  operation: string;
  version: string;
  /** Valid requests sent (edges, random draws and shrinking; stateful reads not counted). */
  sent: number;
  /** Answered 2xx. */
  accepted: number;
  /** Answered 3xx or 4xx. */
  refused: number;
}

/** Counts one valid request's answer (`null`: no answer) against its operation. */
export function countValid(
  counts: FuzzOperationCount[],
  operation: string,
  version: string,
  status: number | null,
): void {
  let count = counts.find((c) => c.operation === operation && c.version === version);
  if (!count) {
    count = { operation, version, sent: 0, accepted: 0, refused: 0 };
    counts.push(count);
  }
  count.sent++;
  if (status === null) return;
  if (status >= 200 && status < 300) count.accepted++;
  else if (status < 500) count.refused++;
}

/** The operations with valid requests sent but fewer than `minAccepted` accepted. */
export const underExercised = (counts: readonly FuzzOperationCount[], minAccepted: number): FuzzOperationCount[] =>
  counts.filter((c) => c.sent > 0 && c.accepted < minAccepted);
