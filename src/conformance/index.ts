/**
 * Conformance: does a running server answer as the contract says? Calls every operation of every
 * version through HTTP and validates each response against its bundle (status, headers, body),
 * naming the operation, version, field and rule of each violation. Used by the `conformance`
 * command and the test suites (the mock must be conformant; a deliberately wrong server must not).
 */
export { Contract, type ResponseViolation } from '../validation/index.ts';
export { buildPath, type ConformanceReport, requestExample, runConformance, type StateReset } from './run.ts';
