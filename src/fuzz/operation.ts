/**
 * What the fuzzer knows of one operation of one version, read from its bundle: its path and query
 * parameters and its JSON body, each with the pointer of its schema (to validate exactly that
 * node), and the arbitrary of its valid requests.
 */
import fc from 'fast-check';
import {
  type ApiVersion,
  type Bundle,
  type BundleOperation,
  type Json,
  parameterExample,
  VERSION_HEADER,
} from '../contract/index.ts';
import { type BodyExamples, bodyExamples, pathExamples } from './examples.ts';
import type { FuzzRequest } from './request.ts';
import { type At, at, child, escapePointer, typesOf } from './schema.ts';
import { valuesOf } from './values.ts';

export interface Param {
  name: string;
  required: boolean;
  /** The parameter's schema. */
  schema: At;
  /** Values to try first (path parameters): `--param`, the contract's examples, small ids. */
  preferred: string[];
  /** The values of a request drawn from examples (path parameters): `--param`, else the contract's examples. */
  examples: string[];
}

export interface OperationModel {
  operation: BundleOperation;
  version: ApiVersion;
  document: Json;
  pathParams: Param[];
  queryParams: Param[];
  body?: { schema: At; required: boolean };
  /** The contract's examples of the body (./examples.ts). */
  examples: BodyExamples;
  write: boolean;
}

const READ_METHODS = new Set(['get', 'head', 'options']);

/** A parameter value as text: booleans and numbers as JSON writes them. */
const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** The raw parameters of an operation with their pointers (the operation's own win over the path's). */
function parametersOf(document: Json, operation: BundleOperation): At[] {
  const item = `/paths/${escapePointer(operation.path)}`;
  const found = new Map<string, At>();
  for (const base of [item, `${item}/${operation.method}`]) {
    const list = at(document, `${base}/parameters`).node;
    if (!Array.isArray(list)) continue;
    list.forEach((_, i) => {
      const parameter = at(document, `${base}/parameters/${i}`);
      found.set(`${parameter.node.in} ${parameter.node.name}`, parameter);
    });
  }
  return [...found.values()];
}

export function modelOf(bundle: Bundle, operation: BundleOperation, params: Record<string, string>): OperationModel {
  const { document } = bundle;
  const toParam = (parameter: At): Param => {
    const name = String(parameter.node.name);
    const schema = child(document, parameter, 'schema');
    const given = [params[`${operation.operationId}.${name}`], params[name]].filter((v): v is string => !!v);
    const small = typesOf(schema.node).includes('integer') ? ['1', '2', '3', '5', '8', '13', '21'] : [];
    const found = [...given, ...pathExamples(document, parameter.node).map(text)];
    // None: the contract's fallback (`1`, `example`), so there is always a value to draw.
    const examples = [...new Set(found.length > 0 ? found : [parameterExample(parameter.node, document)])];
    return {
      name,
      required: parameter.node.required === true,
      schema,
      preferred: [...new Set([...examples, ...small])],
      examples,
    };
  };
  const parameters = parametersOf(document, operation);
  const of = (where: string) => parameters.filter((p) => p.node.in === where).map(toParam);
  const requestBody = at(document, `/paths/${escapePointer(operation.path)}/${operation.method}/requestBody`);
  const json = requestBody.node?.content?.['application/json'];
  return {
    operation,
    version: bundle.version,
    document,
    pathParams: of('path'),
    queryParams: of('query').filter((p) => p.name.toLowerCase() !== VERSION_HEADER.toLowerCase()),
    ...(json?.schema && {
      body: {
        schema: child(document, requestBody, 'content', 'application/json', 'schema'),
        required: requestBody.node.required === true,
      },
    }),
    examples: bodyExamples(document, requestBody.node),
    write: !READ_METHODS.has(operation.method),
  };
}

/** Path values: mostly the preferred ones (records likely to exist), sometimes any valid value. */
function pathValue(model: OperationModel, param: Param): fc.Arbitrary<string> {
  const drawn = valuesOf(model.document, param.schema.node)
    .map(text)
    // `.` and `..` are dot segments: a client normalises them away, so they would call another path.
    .filter((v) => v !== '' && v !== '.' && v !== '..');
  return fc.oneof({ arbitrary: fc.constantFrom(...param.preferred), weight: 4 }, { arbitrary: drawn, weight: 1 });
}

/** Query pairs of one parameter: an array is sent exploded (`status=a&status=b`). */
function queryPairs(model: OperationModel, param: Param): fc.Arbitrary<[string, string][]> {
  const value = valuesOf(model.document, param.schema.node).map((v): [string, string][] =>
    Array.isArray(v) ? v.map((item) => [param.name, text(item)]) : [[param.name, text(v)]],
  );
  if (param.required) return value;
  // Left out half the time; shrinking leaves it out (fc.option shrinks towards none).
  return fc.option(value, { freq: 2, nil: undefined }).map((pairs) => pairs ?? []);
}

/** Share of the valid requests (and of the bases of invalid ones) drawn from the contract's examples. */
export const EXAMPLE_SHARE = 0.5;

/**
 * Valid requests of the operation (by its schemas): every path parameter, each query parameter
 * (optional ones left out half the time, so filters do not always narrow a list to nothing), and
 * the body. `force` is a body path that must be present (for a breaker of a nested field);
 * `minimal` leaves out every optional parameter and body field (the base of an invalid request).
 * {@link EXAMPLE_SHARE} of them are drawn from the contract's examples (./examples.ts): every path
 * parameter and body field the examples name takes one of their values, together, so the request
 * names records a server loaded with the examples holds; the rest are drawn from the schemas alone.
 */
export function validRequests(model: OperationModel, force?: string[], minimal = false): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { arbitrary: requestsOf(model, force, minimal, false), weight: (1 - EXAMPLE_SHARE) * 100 },
    { arbitrary: requestsOf(model, force, minimal, true), weight: EXAMPLE_SHARE * 100 },
  );
}

/** A body drawn from one of the operation's examples (the fields it leaves out by name, else from the schema). */
function fromBodyExamples(model: OperationModel, force: string[] | undefined, minimal: boolean): fc.Arbitrary<unknown> {
  const { document, examples } = model;
  const schema = model.body?.schema.node;
  const from = (example: unknown) =>
    valuesOf(document, schema, { force: force ?? [], minimal, where: { named: examples.named, example } });
  return examples.bodies.length === 0 ? from(undefined) : fc.oneof(...examples.bodies.map(from));
}

function requestsOf(model: OperationModel, force: string[] | undefined, minimal: boolean, fromExamples: boolean) {
  const path = fc.record(
    Object.fromEntries(
      model.pathParams.map((p) => [p.name, fromExamples ? fc.constantFrom(...p.examples) : pathValue(model, p)]),
    ),
  );
  const params = minimal ? model.queryParams.filter((p) => p.required) : model.queryParams;
  const query = fc.tuple(...params.map((p) => queryPairs(model, p))).map((pairs) => pairs.flat());
  const { body: declared, document } = model;
  const schema = declared?.schema.node;
  const draw = (minimal: boolean) =>
    fromExamples
      ? fromBodyExamples(model, force, minimal)
      : valuesOf(document, schema, { force: force ?? [], minimal });
  const body: fc.Arbitrary<unknown> = !declared
    ? fc.constant(undefined)
    : declared.required || force
      ? draw(minimal)
      : minimal
        ? fc.constant(undefined)
        : fc.option(draw(false), { nil: undefined });
  return fc.record({ path, query, body }).map(
    ({ path, query, body }): FuzzRequest => ({
      method: model.operation.method,
      template: model.operation.path,
      path,
      query,
      version: model.version,
      withToken: true,
      ...(body !== undefined && { body }),
    }),
  );
}
