/**
 * The breaking-change guard: compares two bundles of one API version operation by operation and
 * names each change with its severity for existing clients (breaking, warning, info). `npm run diff`
 * (scripts/diff.ts) runs it against a git ref; `drift --propose` runs it on the edits it proposes.
 * Rules: schema.ts (schemas, by direction), operations.ts (operations, parameters, responses).
 */
export { type Change, DiffInputError, type Json, MAX_DEPTH, type Severity } from './model.ts';
export { compareDocuments, operationsOf } from './operations.ts';
export { countBySeverity, formatReport, type VersionResult } from './report.ts';
export { MAX_LISTED } from './schema.ts';
