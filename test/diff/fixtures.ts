/**
 * Small in-memory OpenAPI documents for the breaking-change rules: one operation whose request
 * body, parameters or response schema each test case varies.
 */
import type { Json } from '../../src/guard/index.ts';

export const PATH = '/things/{id}/';

export interface DocParts {
  parameters?: Json[];
  request?: Json;
  requestRequired?: boolean;
  response?: Json;
  responses?: Json;
  security?: Json[];
  operationId?: string;
  method?: string;
  path?: string;
  schemas?: Record<string, Json>;
}

/** A document with one operation (default `POST /things/{id}/`) built from the given parts. */
export function doc(parts: DocParts = {}): Json {
  const operation: Json = {
    operationId: parts.operationId ?? 'updateThing',
    security: parts.security ?? [{ oauth2: ['things:write'] }],
    parameters: parts.parameters ?? [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
    responses: parts.responses ?? {
      '200': { description: 'OK', content: { 'application/json': { schema: parts.response ?? { type: 'object' } } } },
    },
  };
  if (parts.request !== undefined) {
    operation.requestBody = {
      required: parts.requestRequired ?? true,
      content: { 'application/json': { schema: parts.request } },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Things', version: '1' },
    paths: { [parts.path ?? PATH]: { [parts.method ?? 'post']: operation } },
    components: { schemas: parts.schemas ?? {} },
  };
}

/** An object schema with the given properties, all required unless listed in `optional`. */
export function object(properties: Record<string, Json>, optional: string[] = []): Json {
  return { type: 'object', properties, required: Object.keys(properties).filter((k) => !optional.includes(k)) };
}

/** A property schema wrapped the repo's way for nullable objects. */
export const nullableRef = (name: string): Json => ({
  anyOf: [{ $ref: `#/components/schemas/${name}` }, { type: 'null' }],
});
