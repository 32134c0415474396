// Table-driven tests of the breaking-change rules (src/guard/): each row compares two small
// documents and expects exactly the listed changes, as `severity location rule`. Requests and
// responses are judged in opposite directions, so most rules have a row for each.
import { describe, expect, it } from 'vitest';
import type { Json } from '../../src/guard/index.ts';
import { compareDocuments } from '../../src/guard/index.ts';
import { doc, nullableRef, object } from './fixtures.ts';

interface Row {
  name: string;
  base: Json;
  head: Json;
  /** `severity location rule`, in any order. */
  expect: string[];
}

const run = (row: Row): string[] =>
  compareDocuments(row.base, row.head)
    .map((c) => `${c.severity} ${c.location || '-'} ${c.rule}`)
    .sort();

const str = { type: 'string' };
const req = (schema: Json) => doc({ request: schema });
const res = (schema: Json) => doc({ response: schema });
const query = (p: Json) =>
  doc({ parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }, p] });

const cases: Record<string, Row[]> = {
  operations: [
    { name: 'identical documents', base: doc(), head: doc(), expect: [] },
    {
      name: 'removed operation',
      base: doc(),
      head: doc({ method: 'put' }),
      expect: ['breaking - operation-removed', 'info - operation-added'],
    },
    {
      name: 'renamed path parameter is the same operation',
      base: doc(),
      head: doc({
        path: '/things/{thing_id}/',
        parameters: [{ name: 'thing_id', in: 'path', required: true, schema: { type: 'integer' } }],
      }),
      expect: [],
    },
    {
      name: 'changed operationId',
      base: doc(),
      head: doc({ operationId: 'patchThing' }),
      expect: ['warning - operation-id-changed'],
    },
  ],
  security: [
    {
      name: 'scope replaced',
      base: doc(),
      head: doc({ security: [{ oauth2: ['things:admin'] }] }),
      expect: ['breaking security scopes-changed'],
    },
    {
      name: 'alternative scope added',
      base: doc(),
      head: doc({ security: [{ oauth2: ['things:write'] }, { oauth2: ['things:admin'] }] }),
      expect: [],
    },
    {
      name: 'one of two alternative scopes removed',
      base: doc({ security: [{ oauth2: ['things:write'] }, { oauth2: ['things:admin'] }] }),
      head: doc(),
      expect: ['breaking security scopes-changed'],
    },
    {
      name: 'a second scope required together with the first',
      base: doc(),
      head: doc({ security: [{ oauth2: ['things:write', 'things:admin'] }] }),
      expect: ['breaking security scopes-changed'],
    },
  ],
  parameters: [
    {
      name: 'removed parameter',
      base: query({ name: 'q', in: 'query', schema: str }),
      head: doc(),
      expect: ['breaking query q parameter-removed'],
    },
    {
      name: 'new required parameter',
      base: doc(),
      head: query({ name: 'q', in: 'query', required: true, schema: str }),
      expect: ['breaking query q required-parameter-added'],
    },
    {
      name: 'new optional parameter',
      base: doc(),
      head: query({ name: 'q', in: 'query', schema: str }),
      expect: ['info query q parameter-added'],
    },
    {
      name: 'optional parameter made required',
      base: query({ name: 'q', in: 'query', schema: str }),
      head: query({ name: 'q', in: 'query', required: true, schema: str }),
      expect: ['breaking query q parameter-now-required'],
    },
    {
      name: 'required parameter made optional',
      base: query({ name: 'q', in: 'query', required: true, schema: str }),
      head: query({ name: 'q', in: 'query', schema: str }),
      expect: ['info query q parameter-now-optional'],
    },
    {
      name: 'array parameter no longer exploded',
      base: query({ name: 's', in: 'query', schema: { type: 'array', items: str } }),
      head: query({ name: 's', in: 'query', explode: false, schema: { type: 'array', items: str } }),
      expect: ['breaking query s parameter-style-changed'],
    },
    {
      name: 'enum of an array filter narrowed (request side)',
      base: query({ name: 's', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } }),
      head: query({ name: 's', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['a'] } } }),
      expect: ['breaking query s[] enum-value-removed'],
    },
    {
      name: 'header names compare case-insensitively',
      base: query({ name: 'X-Version', in: 'header', schema: str }),
      head: query({ name: 'x-version', in: 'header', schema: str }),
      expect: [],
    },
  ],
  'type changes': [
    {
      name: 'request field type changed',
      base: req(object({ n: str })),
      head: req(object({ n: { type: 'integer' } })),
      expect: ['breaking request body.n type-changed'],
    },
    {
      name: 'response field type changed',
      base: res(object({ n: str })),
      head: res(object({ n: { type: 'integer' } })),
      expect: ['breaking response 200 body.n type-changed'],
    },
    {
      name: 'request integer widened to number',
      base: req(object({ n: { type: 'integer' } })),
      head: req(object({ n: { type: 'number' } })),
      expect: ['info request body.n type-widened'],
    },
    {
      name: 'response integer widened to number',
      base: res(object({ n: { type: 'integer' } })),
      head: res(object({ n: { type: 'number' } })),
      expect: ['breaking response 200 body.n type-widened'],
    },
    {
      name: 'request number narrowed to integer',
      base: req(object({ n: { type: 'number' } })),
      head: req(object({ n: { type: 'integer' } })),
      expect: ['breaking request body.n type-narrowed'],
    },
    {
      name: 'response number narrowed to integer',
      base: res(object({ n: { type: 'number' } })),
      head: res(object({ n: { type: 'integer' } })),
      expect: ['info response 200 body.n type-narrowed'],
    },
    {
      name: 'format changed',
      base: res(object({ d: { type: 'string', format: 'date' } })),
      head: res(object({ d: { type: 'string', format: 'date-time' } })),
      expect: ['breaking response 200 body.d format-changed'],
    },
    {
      name: 'format added to a request field',
      base: req(object({ e: str })),
      head: req(object({ e: { type: 'string', format: 'email' } })),
      expect: ['breaking request body.e format-added'],
    },
  ],
  nullability: [
    {
      name: 'response field may now be null',
      base: res(object({ s: str })),
      head: res(object({ s: { type: ['string', 'null'] } })),
      expect: ['breaking response 200 body.s null-added'],
    },
    {
      name: 'response field no longer null',
      base: res(object({ s: { type: ['string', 'null'] } })),
      head: res(object({ s: str })),
      expect: ['info response 200 body.s null-removed'],
    },
    {
      name: 'request field no longer accepts null',
      base: req(object({ s: { type: ['string', 'null'] } })),
      head: req(object({ s: str })),
      expect: ['breaking request body.s null-removed'],
    },
    {
      name: 'request field now accepts null',
      base: req(object({ s: str })),
      head: req(object({ s: { type: ['string', 'null'] } })),
      expect: ['info request body.s null-added'],
    },
    {
      name: 'nullable object wrapper (anyOf [$ref, null]) added on a response field',
      base: doc({ response: object({ a: { $ref: '#/components/schemas/A' } }), schemas: { A: object({ x: str }) } }),
      head: doc({ response: object({ a: nullableRef('A') }), schemas: { A: object({ x: str }) } }),
      expect: ['breaking response 200 body.a null-added'],
    },
  ],
  enums: [
    {
      name: 'request enum narrowed',
      base: req(object({ p: { type: 'string', enum: ['high', 'medium', 'low'] } })),
      head: req(object({ p: { type: 'string', enum: ['high', 'low'] } })),
      expect: ['breaking request body.p enum-value-removed'],
    },
    {
      name: 'request enum widened',
      base: req(object({ p: { type: 'string', enum: ['high', 'low'] } })),
      head: req(object({ p: { type: 'string', enum: ['high', 'medium', 'low'] } })),
      expect: ['info request body.p enum-value-added'],
    },
    {
      name: 'response enum widened (warning: exhaustive switches may fail)',
      base: res(object({ status: { type: 'string', enum: ['active', 'paused'] } })),
      head: res(object({ status: { type: 'string', enum: ['active', 'paused', 'canceled'] } })),
      expect: ['warning response 200 body.status enum-value-added'],
    },
    {
      name: 'response enum narrowed',
      base: res(object({ status: { type: 'string', enum: ['active', 'paused', 'canceled'] } })),
      head: res(object({ status: { type: 'string', enum: ['active', 'paused'] } })),
      expect: ['info response 200 body.status enum-value-removed'],
    },
    {
      name: 'enum added on a request field',
      base: req(object({ p: str })),
      head: req(object({ p: { type: 'string', enum: ['high'] } })),
      expect: ['breaking request body.p enum-added'],
    },
    {
      name: 'enum removed from a response field',
      base: res(object({ p: { type: 'string', enum: ['high'] } })),
      head: res(object({ p: str })),
      expect: ['warning response 200 body.p enum-removed'],
    },
    {
      name: 'null in an enum is nullability, not a value',
      base: res(object({ p: { type: ['string', 'null'], enum: ['a', null] } })),
      head: res(object({ p: { type: ['string', 'null'], enum: ['a', null] } })),
      expect: [],
    },
  ],
  fields: [
    {
      name: 'new required request field',
      base: req(object({ a: str })),
      head: req(object({ a: str, b: str })),
      expect: ['breaking request body.b required-property-added'],
    },
    {
      name: 'new optional request field',
      base: req(object({ a: str })),
      head: req(object({ a: str, b: str }, ['b'])),
      expect: ['info request body.b property-added'],
    },
    {
      name: 'existing request field made required',
      base: req(object({ a: str, b: str }, ['b'])),
      head: req(object({ a: str, b: str })),
      expect: ['breaking request body.b property-now-required'],
    },
    {
      name: 'request field removed from an open object',
      base: req(object({ a: str, b: str }, ['b'])),
      head: req(object({ a: str })),
      expect: ['warning request body.b property-removed'],
    },
    {
      name: 'request field removed from a closed object',
      base: req({ ...object({ a: str, b: str }, ['b']), additionalProperties: false }),
      head: req({ ...object({ a: str }), additionalProperties: false }),
      expect: ['breaking request body.b property-removed'],
    },
    {
      name: 'response field removed',
      base: res(object({ a: str, b: str })),
      head: res(object({ a: str })),
      expect: ['breaking response 200 body.b property-removed'],
    },
    {
      name: 'response field no longer required',
      base: res(object({ a: str, b: str })),
      head: res(object({ a: str, b: str }, ['b'])),
      expect: ['breaking response 200 body.b property-now-optional'],
    },
    {
      name: 'new response field',
      base: res(object({ a: str })),
      head: res(object({ a: str, b: str })),
      expect: ['info response 200 body.b property-added'],
    },
    {
      name: 'readOnly fields are not part of requests',
      base: req(object({ a: str })),
      head: req(object({ a: str, id: { type: 'integer', readOnly: true } })),
      expect: [],
    },
    {
      name: 'request object closed to unknown fields',
      base: req(object({ a: str })),
      head: req({ ...object({ a: str }), additionalProperties: false }),
      expect: ['breaking request body additional-properties-closed'],
    },
    {
      name: 'nested location through arrays and $refs',
      base: doc({
        response: object({ results: { type: 'array', items: { $ref: '#/components/schemas/S' } } }),
        schemas: { S: object({ status: { type: 'string', enum: ['active', 'paused'] } }) },
      }),
      head: doc({
        response: object({ results: { type: 'array', items: { $ref: '#/components/schemas/S' } } }),
        schemas: { S: object({ status: { type: 'string', enum: ['active'] } }) },
      }),
      expect: ['info response 200 body.results[].status enum-value-removed'],
    },
    {
      name: 'a shared component change is reported where it is used (request and response)',
      base: doc({
        request: { $ref: '#/components/schemas/T' },
        response: { $ref: '#/components/schemas/T' },
        schemas: { T: object({ a: str }) },
      }),
      head: doc({
        request: { $ref: '#/components/schemas/T' },
        response: { $ref: '#/components/schemas/T' },
        schemas: { T: object({}) },
      }),
      expect: ['breaking response 200 body.a property-removed', 'warning request body.a property-removed'],
    },
    {
      name: 'recursive schemas terminate',
      base: doc({
        response: { $ref: '#/components/schemas/Node' },
        schemas: { Node: object({ child: nullableRef('Node'), v: str }) },
      }),
      head: doc({
        response: { $ref: '#/components/schemas/Node' },
        schemas: { Node: object({ child: nullableRef('Node'), v: { type: 'integer' } }) },
      }),
      expect: ['breaking response 200 body.v type-changed'],
    },
    {
      name: 'allOf parts are merged',
      base: doc({
        response: { allOf: [{ $ref: '#/components/schemas/A' }, object({ b: str })] },
        schemas: { A: object({ a: str }) },
      }),
      head: doc({
        response: { allOf: [{ $ref: '#/components/schemas/A' }, object({ b: str })] },
        schemas: { A: object({}) },
      }),
      expect: ['breaking response 200 body.a property-removed'],
    },
  ],
  limits: [
    {
      name: 'request maxLength lowered',
      base: req(object({ t: { type: 'string', maxLength: 255 } })),
      head: req(object({ t: { type: 'string', maxLength: 200 } })),
      expect: ['breaking request body.t limit-tightened'],
    },
    {
      name: 'request maxLength raised',
      base: req(object({ t: { type: 'string', maxLength: 200 } })),
      head: req(object({ t: { type: 'string', maxLength: 255 } })),
      expect: ['info request body.t limit-loosened'],
    },
    {
      name: 'request maxLength added',
      base: req(object({ t: str })),
      head: req(object({ t: { type: 'string', maxLength: 3 } })),
      expect: ['breaking request body.t limit-added'],
    },
    {
      name: 'request maximum lowered',
      base: req(object({ n: { type: 'integer', maximum: 2147483647 } })),
      head: req(object({ n: { type: 'integer', maximum: 1000 } })),
      expect: ['breaking request body.n limit-tightened'],
    },
    {
      name: 'request minimum raised',
      base: req(object({ n: { type: 'integer', minimum: 0 } })),
      head: req(object({ n: { type: 'integer', minimum: 1 } })),
      expect: ['breaking request body.n limit-tightened'],
    },
    {
      name: 'request exclusiveMinimum added',
      base: req(object({ n: { type: 'number' } })),
      head: req(object({ n: { type: 'number', exclusiveMinimum: 0 } })),
      expect: ['breaking request body.n limit-added'],
    },
    {
      name: 'request minItems raised',
      base: req(object({ l: { type: 'array', items: str, minItems: 0 } })),
      head: req(object({ l: { type: 'array', items: str, minItems: 1 } })),
      expect: ['breaking request body.l limit-tightened'],
    },
    {
      name: 'request pattern changed',
      base: req(object({ m: { type: 'string', pattern: '^\\d{0,10}$' } })),
      head: req(object({ m: { type: 'string', pattern: '^\\d{0,7}$' } })),
      expect: ['breaking request body.m pattern-changed'],
    },
    {
      name: 'request pattern added',
      base: req(object({ m: str })),
      head: req(object({ m: { type: 'string', pattern: '^\\d+$' } })),
      expect: ['breaking request body.m pattern-added'],
    },
    {
      name: 'request pattern removed',
      base: req(object({ m: { type: 'string', pattern: '^\\d+$' } })),
      head: req(object({ m: str })),
      expect: ['info request body.m pattern-removed'],
    },
    {
      name: 'response maxLength raised (warning: readers may store less)',
      base: res(object({ t: { type: 'string', maxLength: 200 } })),
      head: res(object({ t: { type: 'string', maxLength: 255 } })),
      expect: ['warning response 200 body.t limit-loosened'],
    },
    {
      name: 'response maxLength lowered',
      base: res(object({ t: { type: 'string', maxLength: 255 } })),
      head: res(object({ t: { type: 'string', maxLength: 200 } })),
      expect: ['info response 200 body.t limit-tightened'],
    },
    {
      name: 'parameter maximum lowered',
      base: query({ name: 'n', in: 'query', schema: { type: 'integer', maximum: 100 } }),
      head: query({ name: 'n', in: 'query', schema: { type: 'integer', maximum: 50 } }),
      expect: ['breaking query n limit-tightened'],
    },
  ],
  'bodies and responses': [
    {
      name: 'new required request body',
      base: doc(),
      head: req(object({ a: str })),
      expect: ['breaking request body request-body-added'],
    },
    {
      name: 'request body made required',
      base: doc({ request: object({ a: str }), requestRequired: false }),
      head: req(object({ a: str })),
      expect: ['breaking request body request-body-now-required'],
    },
    {
      name: 'success response removed',
      base: doc(),
      head: doc({ responses: { '201': { description: 'Created' } } }),
      expect: ['breaking response 200 response-removed', 'warning response 201 response-added'],
    },
    {
      name: 'response media type removed',
      base: doc(),
      head: doc({ responses: { '200': { description: 'OK', content: { 'text/plain': { schema: str } } } } }),
      expect: ['breaking response 200 body media-type-removed', 'info response 200 body media-type-added'],
    },
    {
      name: 'error response added',
      base: doc(),
      head: doc({
        responses: {
          '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } },
          '401': { description: 'Unauthorized' },
        },
      }),
      expect: ['info response 401 response-added'],
    },
  ],
  unions: [
    {
      name: 'request variant removed',
      base: req({ oneOf: [{ $ref: '#/components/schemas/A' }, { $ref: '#/components/schemas/B' }] }),
      head: req({ oneOf: [{ $ref: '#/components/schemas/A' }] }),
      expect: ['breaking request body variant-removed'],
    },
    {
      name: 'response variant added',
      base: res({ oneOf: [{ $ref: '#/components/schemas/A' }, { $ref: '#/components/schemas/B' }] }),
      head: res({
        oneOf: [
          { $ref: '#/components/schemas/A' },
          { $ref: '#/components/schemas/B' },
          { $ref: '#/components/schemas/C' },
        ],
      }),
      expect: ['warning response 200 body variant-added'],
    },
    {
      name: 'a type list written as anyOf of bare types is the same schema',
      base: res(object({ v: { type: ['object', 'array', 'string', 'null'], additionalProperties: true, items: {} } })),
      head: res(
        object({
          v: {
            anyOf: [
              { type: 'object', additionalProperties: true },
              { type: 'array', items: {} },
              str,
              { type: 'null' },
            ],
          },
        }),
      ),
      expect: [],
    },
    {
      name: 'a type dropped from an anyOf of bare types narrows the response',
      base: res(object({ v: { type: ['string', 'number'] } })),
      head: res(object({ v: { anyOf: [str, { type: 'boolean' }] } })),
      expect: ['breaking response 200 body.v type-changed'],
    },
  ],
};

// Components the union rows refer to.
for (const rows of Object.values(cases)) {
  for (const row of rows) {
    for (const d of [row.base, row.head]) {
      d.components.schemas = {
        A: object({ a: str }),
        B: object({ b: str }),
        C: object({ c: str }),
        ...d.components.schemas,
      };
    }
  }
}

describe.each(Object.entries(cases))('%s', (_, rows) => {
  it.each(rows)('$name', (row) => {
    expect(run(row)).toEqual([...row.expect].sort());
  });
});

describe('change records', () => {
  it('name the operation and a readable message', () => {
    const [change] = compareDocuments(
      res(object({ status: { type: 'string', enum: ['active', 'paused'] } })),
      res(object({ status: { type: 'string', enum: ['active'] } })),
    );
    expect(change).toEqual({
      operation: 'POST /things/{id}/',
      location: 'response 200 body.status',
      rule: 'enum-value-removed',
      severity: 'info',
      message: 'enum narrowed: "paused" removed',
    });
  });
});
