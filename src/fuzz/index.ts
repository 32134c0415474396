/**
 * The contract fuzzer (`store-admin-contract fuzz`): property-based testing of a running server
 * against the bundles, built on fast-check (an optional peer, loaded only by this command). For
 * every operation of every version it sends valid requests drawn from the schemas and invalid ones
 * (one rule broken at a time), checks each answer (./checks.ts) and, with `allowWrites`, that writes
 * are read back and refused writes change nothing (./state.ts); a failure is shrunk to a minimal
 * request and printed as a curl command. docs/conformance.md is the user documentation.
 */
export { type Rule, UNKNOWN_VERSION } from './breakers.ts';
export type { Check, Finding } from './checks.ts';
export { FUZZ_DEFAULT_MIN_ACCEPTED, type FuzzOperationCount } from './coverage.ts';
export type { FuzzFailure, FuzzProperty, FuzzReport } from './report.ts';
export { curlOf, FUZZ_MAX_ANSWER_BYTES, type FuzzRequest } from './request.ts';
export {
  FUZZ_DEFAULT_CASES,
  type FuzzOptions,
  runFuzz,
  seedFrom,
} from './run.ts';
