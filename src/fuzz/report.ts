/**
 * What a fuzz run (./run.ts) reports: each property with its runs, each failure with the minimal
 * request it shrank to (and as curl), the valid requests refused, and per operation and version
 * how many valid requests were sent, accepted and refused.
 */
import type { Rule } from './breakers.ts';
import type { Check } from './checks.ts';
import type { FuzzOperationCount } from './coverage.ts';
import type { FuzzRequest } from './request.ts';

export interface FuzzFailure {
  operation: string;
  version: string;
  /** `valid`, or the rule broken on purpose (`enum`, `security` …). */
  kind: 'valid' | Rule;
  /** The field broken on purpose, for an invalid request. */
  field?: string;
  check: Check;
  message: string;
  /** The minimal failing request fast-check shrank to, and the same as a curl command. */
  request: FuzzRequest;
  curl: string;
  shrinks: number;
}

export interface FuzzProperty {
  operation: string;
  version: string;
  kind: 'valid' | Rule;
  /** The field whose rule is broken (invalid requests). */
  field?: string;
  runs: number;
  passed: boolean;
}

export interface FuzzReport {
  baseUrl: string;
  seed: number;
  /** Requests sent, shrinking and stateful reads included. */
  requests: number;
  /** Cases drawn (one request each, before shrinking). */
  cases: number;
  ms: number;
  properties: FuzzProperty[];
  failures: FuzzFailure[];
  /** Valid requests the server refused with a 3xx/4xx: its right (a missing record, a state), counted only. */
  refused: { operation: string; version: string; status: number; count: number }[];
  /** Per operation and version: the valid requests sent, accepted and refused. */
  operations: FuzzOperationCount[];
  /** The floor of accepted valid requests per operation (`minAccepted`). */
  minAccepted: number;
  /** The operations whose valid requests were accepted fewer than `minAccepted` times: not exercised. */
  underExercised: FuzzOperationCount[];
  /** Cases whose drawn value did not come out as intended (never sent). */
  discarded: number;
  skipped: { operation: string; version: string; reason: string }[];
}
