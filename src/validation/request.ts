/**
 * Request validation of the stateful mock and the proxy, without Prism: per operation, validators
 * precompiled with ajv from the version bundle (./ajv.ts) for the path, the query (coerced first:
 * ./parameters.ts) and the JSON body. Each
 * broken rule is a {@link Violation} naming its field (`query.status[0]`, `body.lines[0].quantity`)
 * and the JSON Schema keyword, as Prism's refusals do (test/mock/refusals.test.ts runs the same
 * cases against both). Beyond the schemas: integers must be safe integers and numbers finite
 * (`1e999` parses as Infinity), anywhere in the body and in integer path parameters; and no value
 * may nest deeper than `MAX_NESTING` levels (both checks: ./json-limits.ts). The same validator checks a value
 * against a schema component (`checkComponent`: the mock's and the proxy's records).
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import {
  type Bundle,
  type BundleOperation,
  deref,
  type Json,
  jsonMediaOf,
  responseMediaOf,
} from '../contract/index.ts';
import { ajvOf, idOf, validatorAt } from './ajv.ts';
import { formatField, type Violation } from './field.ts';
import { MAX_NESTING, nestingViolation, unsafeNumbers } from './json-limits.ts';
import { ruleMessage } from './message.ts';
import { coercePath, type ParamSpec, paramSpecs, queryOf } from './parameters.ts';

export interface OperationValidator {
  pathParams: ParamSpec[];
  queryParams: ParamSpec[];
  /** Has a JSON request body. */
  hasBody: boolean;
  bodyRequired: boolean;
  /** Top-level body properties the schema declares (the only ones a write copies). */
  bodyProperties: string[];
  /** Path values by name (strings), checked; violations otherwise. */
  checkPath(values: Record<string, string>): { values: Record<string, string | number>; violations: Violation[] };
  /** The query, coerced per the parameter schemas (arrays: repeated or comma-separated values). */
  checkQuery(search: URLSearchParams): { query: Record<string, unknown>; violations: Violation[] };
  checkBody(body: unknown): Violation[];
  /** Checks a response body against the 200 response schema (compiled on first use). */
  checkResponse(body: unknown): Violation[];
}

/** `#/components/...` refs of a fragment, rewritten to point into the bundle registered as `id`. */
function rebase(node: Json, id: string): Json {
  if (Array.isArray(node)) return node.map((n) => rebase(n, id));
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries<Json>(node)) {
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `${id}${value}` : rebase(value, id);
  }
  return out;
}

/** ajv errors → violations, one per (field, rule), combinator wrappers dropped. */
export function violationsOf(
  errors: ErrorObject[] | null | undefined,
  root: 'body' | 'query',
  subject?: string,
): Violation[] {
  const out: Violation[] = [];
  const seen = new Set<string>();
  for (const error of errors ?? []) {
    if (['anyOf', 'oneOf', 'allOf', 'if', 'not'].includes(error.keyword)) continue;
    const location = [
      root,
      ...error.instancePath
        .split('/')
        .slice(1)
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')),
    ];
    if (error.keyword === 'required') location.push(String(error.params.missingProperty));
    const field = formatField(location);
    const key = `${field} ${error.keyword}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // A request names the field as sent (`body.status`); a fixture record names itself and its field.
    const name =
      subject === undefined ? field : `${subject}${location.length > 1 ? ` field ${location.slice(1).join('.')}` : ''}`;
    out.push({ field, rule: error.keyword, message: `${name}: ${ruleMessage(error)}`, location });
  }
  return out;
}

const compiled = new WeakMap<Bundle, Map<BundleOperation, OperationValidator>>();

/** The validators of a bundle's operations, compiled once per bundle (lazily, on first use). */
export function validatorsOf(bundle: Bundle): Map<BundleOperation, OperationValidator> {
  let validators = compiled.get(bundle);
  if (!validators) {
    validators = compileValidators(bundle);
    compiled.set(bundle, validators);
  }
  return validators;
}

/**
 * Checks `value` against schema component `component` (`#/components/schemas/<component>`) of
 * `bundle`, as a response body is checked (its nesting first); `subject` names the value in
 * messages (`Fixture record field x: …`). Undefined when the bundle does not define it.
 */
export function checkComponent(
  bundle: Bundle,
  component: string,
  value: unknown,
  subject?: string,
): Violation[] | undefined {
  if (!Object.hasOwn(bundle.document?.components?.schemas ?? {}, component)) return undefined;
  const pointer = `/components/schemas/${component.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  return checkValue(() => validatorAt(bundle, encodeURI(pointer)), value, subject);
}

/** A response body or a record checked: its nesting first (ajv recurses), then its schema. */
function checkValue(validator: () => ValidateFunction, value: unknown, subject?: string): Violation[] {
  const tooDeep = nestingViolation(value, ['body'], MAX_NESTING, subject);
  if (tooDeep) return [tooDeep];
  const validate = validator();
  return validate(value) ? [] : violationsOf(validate.errors, 'body', subject);
}

function compileValidators(bundle: Bundle): Map<BundleOperation, OperationValidator> {
  const id = idOf(bundle);
  const compile = (schema: object): ValidateFunction => ajvOf(bundle).compile(schema);
  const lazy = (schema: () => object): ValidateFunction => {
    let compiled: ValidateFunction | undefined;
    const validate = ((data: unknown) => {
      compiled ??= compile(schema());
      const ok = compiled(data);
      validate.errors = compiled.errors;
      return ok;
    }) as ValidateFunction;
    return validate;
  };
  const out = new Map<BundleOperation, OperationValidator>();
  for (const operation of bundle.operations) {
    out.set(operation, operationValidator(bundle.document, operation, id, { compile, lazy }));
  }
  return out;
}

/** One operation's checks (path, query, body, response), each schema compiled on its first use. */
function operationValidator(
  document: Json,
  operation: BundleOperation,
  id: string,
  compilers: {
    compile: (schema: object) => ValidateFunction;
    /** Compiles `schema()` on the first validation. */
    lazy: (schema: () => object) => ValidateFunction;
  },
): OperationValidator {
  const { compile, lazy } = compilers;
  const params = operation.parameters;
  const { pathParams, queryParams, queryDefs } = paramSpecs(document, params);
  const { validatePath, validateQuery } = parameterValidators(params, queryDefs, id, lazy);
  const requestBody = deref(document, operation.operation.requestBody);
  const bodySchema = jsonMediaOf(document, requestBody)?.schema;
  const validateBody: ValidateFunction | undefined = bodySchema ? lazy(() => rebase(bodySchema, id)) : undefined;
  const resolvedBody = bodySchema ? deref(document, bodySchema) : undefined;
  const responseSchema = responseMediaOf(document, operation)?.schema;
  let validateResponse: ValidateFunction | undefined;
  // Made once: a write's answer is checked on every request.
  const responseValidator = (): ValidateFunction => (validateResponse ??= compile(rebase(responseSchema, id)));

  return {
    pathParams,
    queryParams,
    hasBody: validateBody !== undefined,
    bodyRequired: requestBody?.required === true,
    bodyProperties: Object.keys(resolvedBody?.properties ?? {}),
    checkPath(values) {
      // No parameter to check (a create's path): the empty object its schema always takes.
      if (pathParams.length === 0) return { values: {}, violations: [] };
      const { coerced, violations } = coercePath(pathParams, values);
      if (violations.length === 0 && !validatePath(coerced)) {
        violations.push(...violationsOf(validatePath.errors, 'query').map((v) => toPath(v)));
      }
      return { values: coerced, violations };
    },
    checkQuery(search) {
      // Nothing declared: nothing read (the others are the validation stage's unknown names).
      if (queryParams.length === 0) return { query: {}, violations: [] };
      const query = queryOf(queryParams, search);
      const violations = validateQuery(query) ? [] : violationsOf(validateQuery.errors, 'query');
      return { query, violations };
    },
    checkBody(body) {
      if (!validateBody) return [];
      const tooDeep = nestingViolation(body);
      if (tooDeep) return [tooDeep];
      const unsafe = unsafeNumbers(body);
      const violations = validateBody(body) ? [] : violationsOf(validateBody.errors, 'body');
      if (unsafe.length === 0) return violations;
      return [...unsafe, ...violations.filter((v) => !unsafe.some((u) => u.field === v.field))];
    },
    checkResponse(body) {
      if (!responseSchema) return [];
      return checkValue(responseValidator, body);
    },
  };
}

/** The validators of an operation's path parameters and of its query, compiled on first use. */
function parameterValidators(
  params: Json[],
  queryDefs: Json[],
  id: string,
  lazy: (schema: () => object) => ValidateFunction,
): { validatePath: ValidateFunction; validateQuery: ValidateFunction } {
  const querySchema = {
    type: 'object',
    properties: Object.fromEntries(queryDefs.map((p) => [p.name, rebase(p.schema ?? {}, id)])),
    required: queryDefs.filter((p) => p.required).map((p) => p.name),
  };
  const pathSchema = {
    type: 'object',
    properties: Object.fromEntries(
      params.filter((p) => p?.in === 'path').map((p) => [p.name, rebase(p.schema ?? {}, id)]),
    ),
  };
  return { validatePath: lazy(() => pathSchema), validateQuery: lazy(() => querySchema) };
}

function toPath(v: Violation): Violation {
  const location = ['path', ...v.location.slice(1)];
  return { ...v, field: formatField(location), location, message: v.message.replace(/^query\./, 'path.') };
}
