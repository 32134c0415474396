/**
 * Invalid requests: a minimal valid request (required parts only, so nothing else masks the rule,
 * such as a random cursor refused for its own sake) with exactly one rule of the contract broken (a wrong type, a
 * value outside the enum, a pattern or format not matched, a bound crossed, a required field or
 * parameter left out, an unknown API version, no token). Each candidate value is checked with ajv
 * against the schema node it breaks before it is ever sent, so a "broken" value the contract
 * actually allows (a field typed `AnyValue`) never becomes a false failure.
 */

import type { ValidateFunction } from 'ajv';
import fc from 'fast-check';
import { type Json, VERSION_HEADER } from '../contract/index.ts';
import { type OperationModel, type Param, validRequests } from './operation.ts';
import type { FuzzRequest } from './request.ts';
import { type At, child, merged, propertyAt, typesOf } from './schema.ts';

export type Rule = 'type' | 'enum' | 'pattern' | 'format' | 'bounds' | 'required' | 'version' | 'security';

export interface Breaker {
  rule: Rule;
  /** The field broken, written as the mock names fields: `body.lines[0].quantity`, `query.status`. */
  field: string;
  requests: fc.Arbitrary<FuzzRequest>;
}

/** An API version no bundle has: every operation must refuse it. */
export const UNKNOWN_VERSION = '1999-01-01';
const WRONG_TYPES: unknown[] = ['x', 7, 1.5, true, null, {}, []];
const NOT_IN_ENUM = 'zz-not-in-enum';
const NOT_MATCHING = ['', ' ', '!', 'zz', '\u00e9'];

/** Values that break one rule of a schema node, by rule; each is checked to be refused. */
function candidates(node: Json, refused: (value: unknown) => boolean): [Rule, unknown[]][] {
  const schema = node ?? {};
  const types = typesOf(schema);
  const found: [Rule, unknown[]][] = [];
  const add = (rule: Rule, values: unknown[]) => {
    const kept = values.filter(refused);
    if (kept.length > 0) found.push([rule, kept]);
  };
  if (types.length > 0)
    add(
      'type',
      WRONG_TYPES.filter((v) => !types.includes(jsonType(v))),
    );
  if (Array.isArray(schema.enum)) add('enum', [NOT_IN_ENUM, 12345]);
  if (typeof schema.pattern === 'string') add('pattern', NOT_MATCHING);
  if (typeof schema.format === 'string') add('format', [`not-a-${schema.format}`]);
  const bounds: unknown[] = [];
  if (typeof schema.minimum === 'number') bounds.push(schema.minimum - 1);
  if (typeof schema.maximum === 'number') bounds.push(schema.maximum + 1);
  if (typeof schema.minLength === 'number' && schema.minLength > 0) bounds.push('a'.repeat(schema.minLength - 1));
  if (typeof schema.maxLength === 'number') bounds.push('a'.repeat(schema.maxLength + 1));
  if (typeof schema.minItems === 'number' && schema.minItems > 0) bounds.push([]);
  add('bounds', bounds);
  return found;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** `['lines', '0', 'quantity']` → `body.lines[0].quantity` */
const fieldOf = (path: string[]) =>
  path.reduce((text, part) => (/^\d+$/.test(part) ? `${text}[${part}]` : `${text}.${part}`), 'body');

/** A copy of `body` with `value` at `path` (`undefined`: the property removed). */
function setAt(body: unknown, path: string[], value: unknown): unknown {
  const copy = structuredClone(body) as Json;
  let node = copy;
  for (const part of path.slice(0, -1)) node = node[part];
  const last = path[path.length - 1] as string;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

type Validator = (pointer: string) => ValidateFunction;

/** Breakers of the body's fields, walking properties and first array items (depth-bounded). */
function bodyBreakers(model: OperationModel, validator: Validator): Breaker[] {
  const { document, body } = model;
  if (!body) return [];
  const out: Breaker[] = [];
  const breakAt = (path: string[], rule: Rule, values: unknown[]) =>
    out.push({
      rule,
      field: fieldOf(path),
      requests: fc
        .tuple(validRequests(model, path.slice(0, -1), true), fc.constantFrom(...values))
        .map(([request, value]) => ({ ...request, body: setAt(request.body, path, value) })),
    });
  const walk = (node: At, path: string[]) => {
    if (path.length > 0) {
      const refused = (value: unknown) => !validator(node.pointer)(value);
      for (const [rule, values] of candidates(node.node, refused)) breakAt(path, rule, values);
    }
    if (path.length >= 4) return;
    const schema = merged(document, node.node ?? {});
    for (const name of schema.required ?? []) breakAt([...path, name], 'required', [undefined]);
    for (const name of Object.keys(schema.properties ?? {})) {
      const property = propertyAt(document, node, name);
      if (property) walk(property, [...path, name]);
    }
    if (schema.items && node.node?.items) walk(child(document, node, 'items'), [...path, '0']);
  };
  walk(body.schema, []);
  // The body as a whole: another JSON type, or none when it is required.
  const wrongBodies = candidates(body.schema.node, (v) => !validator(body.schema.pointer)(v))
    .filter(([rule]) => rule === 'type')
    .flatMap(([, values]) => values);
  if (wrongBodies.length > 0) {
    out.push({
      rule: 'type',
      field: 'body',
      requests: fc
        .tuple(validRequests(model, undefined, true), fc.constantFrom(...wrongBodies))
        .map(([request, wrong]) => ({ ...request, body: wrong })),
    });
  }
  if (body.required) {
    out.push({
      rule: 'required',
      field: 'body',
      requests: validRequests(model, undefined, true).map(({ body: _, ...request }) => request),
    });
  }
  return out;
}

/** A query value as the server reads it back (numbers, booleans, comma-separated arrays). */
function coerce(node: Json, text: string): unknown {
  const types = typesOf(node ?? {});
  if (types.includes('array')) return text.split(',').map((item) => coerce(node.items ?? {}, item));
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** Breakers of the path and query parameters. */
function parameterBreakers(model: OperationModel, validator: Validator): Breaker[] {
  const out: Breaker[] = [];
  const each = (param: Param, where: 'path' | 'query') => {
    const { node, pointer } = param.schema;
    const items = node?.items && typesOf(node).includes('array') ? node.items : undefined;
    const refused = (value: unknown) => {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      return !validator(pointer)(coerce(node, text));
    };
    // A string path parameter takes any text: only its type can be broken (an integer id).
    const rules = candidates(items ?? node, refused).filter(([rule]) => where === 'query' || rule === 'type');
    for (const [rule, values] of rules) {
      const texts = values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).filter((v) => v !== '');
      if (texts.length === 0) continue;
      out.push({
        rule,
        field: `${where}.${param.name}`,
        requests: fc
          .tuple(validRequests(model, undefined, true), fc.constantFrom(...texts))
          .map(([request, value]) =>
            where === 'path'
              ? { ...request, path: { ...request.path, [param.name]: value } }
              : { ...request, query: [...request.query.filter(([n]) => n !== param.name), [param.name, value]] },
          ),
      });
    }
    if (where === 'query' && param.required) {
      out.push({
        rule: 'required',
        field: `query.${param.name}`,
        requests: validRequests(model, undefined, true).map((r) => ({
          ...r,
          query: r.query.filter(([n]) => n !== param.name),
        })),
      });
    }
  };
  for (const param of model.pathParams) each(param, 'path');
  for (const param of model.queryParams) each(param, 'query');
  return out;
}

/** Every way the fuzzer breaks one rule of `model`'s requests. */
export function breakersOf(model: OperationModel, validator: Validator): Breaker[] {
  const valid = validRequests(model, undefined, true);
  return [
    ...parameterBreakers(model, validator),
    ...bodyBreakers(model, validator),
    {
      rule: 'version',
      field: `header.${VERSION_HEADER}`,
      requests: valid.map((r) => ({ ...r, version: UNKNOWN_VERSION })),
    },
    { rule: 'security', field: 'header.Authorization', requests: valid.map((r) => ({ ...r, withToken: false })) },
  ];
}
