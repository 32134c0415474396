/**
 * The contract tests' validator: `ajvWithBundle` (src/validation/ajv.ts) per version bundle
 * (cached), and a helper that validates a value against an inline schema of the bundle.
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { ajvWithBundle } from '../../src/validation/index.ts';
import { type ApiVersion, type Json, loadBundle } from './bundles.ts';

const validators = new Map<ApiVersion, Ajv2020>();

/** An ajv instance holding the bundle as schema `bundle.json`; refs resolve inside it. */
export function ajvFor(version: ApiVersion): Ajv2020 {
  let ajv = validators.get(version);
  if (!ajv) {
    ajv = ajvWithBundle(loadBundle(version), 'bundle.json');
    validators.set(version, ajv);
  }
  return ajv;
}

/** Validates `value` against a schema of the bundle (inline, with `#/components/...` refs). */
export function validateAgainst(version: ApiVersion, schema: Json, value: unknown): string[] {
  const ajv = ajvFor(version);
  const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"bundle.json#/components/'));
  const validate = ajv.compile(rebased);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}
