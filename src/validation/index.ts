/**
 * Validation against the contract: a JSON Schema 2020-12 validator (ajv, formats checked) holding a
 * version bundle, and the one way a broken rule names its field. The mock's request and response
 * checks, the conformance runner and the contract tests all validate through here, and every broken
 * rule is worded here (`ruleMessage`: the allowed values, the received value). ajv and
 * ajv-formats are dependencies of the package (the mock engine validates every request with them).
 */
export { ajvWithBundle } from './ajv.ts';
export { formatField, type Violation } from './field.ts';
export { MAX_NESTING, nestingViolation, unsafeNumbers } from './json-limits.ts';
export { preview, RECEIVED_MAX, ruleMessage } from './message.ts';
export type { ParamSpec } from './parameters.ts';
export { checkComponent, type OperationValidator, validatorsOf, violationsOf } from './request.ts';
export { Contract, explain, fieldOf, type ResponseViolation } from './responses.ts';
