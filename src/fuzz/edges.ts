/**
 * The edges of an operation's valid requests, sent before any random one: each enum value and each
 * bound (minimum, maximum, minLength, maxLength) of every query parameter and top-level body
 * field, set one at a time on a minimal valid request. Random draws may miss one value of one
 * parameter; these never do.
 */
import fc from 'fast-check';
import { deref, type Json } from '../contract/index.ts';
import { type OperationModel, validRequests } from './operation.ts';
import type { FuzzRequest } from './request.ts';
import { merged, typesOf } from './schema.ts';

/** The values at the edges of a schema: its enum, or its bounds. */
function edgesOf(document: Json, raw: Json): unknown[] {
  const schema = merged(document, deref(document, raw) ?? {});
  if (Array.isArray(schema.enum)) return schema.enum;
  const types = typesOf(schema);
  const out: unknown[] = [];
  if (types.includes('integer') || types.includes('number')) {
    if (typeof schema.minimum === 'number') out.push(schema.minimum);
    if (typeof schema.maximum === 'number') out.push(schema.maximum);
  }
  if (types.includes('string')) {
    if (typeof schema.minLength === 'number' && schema.minLength > 0) out.push('a'.repeat(schema.minLength));
    if (typeof schema.maxLength === 'number') out.push('a'.repeat(schema.maxLength));
  }
  if (types.includes('array') && schema.items) return edgesOf(document, schema.items).map((v) => [v]);
  return out;
}

const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

export function edgeRequests(model: OperationModel, seed: number): FuzzRequest[] {
  const [base] = fc.sample(validRequests(model, undefined, true), { seed, numRuns: 1 });
  if (!base) return [];
  const out: FuzzRequest[] = [];
  for (const param of model.queryParams) {
    for (const value of edgesOf(model.document, param.schema.node)) {
      const pairs = (Array.isArray(value) ? value : [value]).map((v): [string, string] => [param.name, text(v)]);
      out.push({ ...base, query: [...base.query.filter(([name]) => name !== param.name), ...pairs] });
    }
  }
  const body = model.body && merged(model.document, model.body.schema.node);
  const record = base.body && typeof base.body === 'object' && !Array.isArray(base.body) ? base.body : {};
  for (const [name, schema] of Object.entries<Json>(body?.properties ?? {})) {
    for (const value of edgesOf(model.document, schema)) out.push({ ...base, body: { ...record, [name]: value } });
  }
  return out;
}
