/**
 * A JSON Schema 2020-12 validator (ajv) loaded with one version bundle, so that schemas are
 * compiled by `$ref` into the bundle exactly as a downstream validator would see them.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { type ApiVersion, type Json, loadBundle } from './bundles.ts';

const validators = new Map<ApiVersion, Ajv2020>();

/** An ajv instance holding the bundle as schema `bundle.json`; refs resolve inside it. */
export function ajvFor(version: ApiVersion): Ajv2020 {
  let ajv = validators.get(version);
  if (!ajv) {
    // strict off: OpenAPI keywords (example, discriminator, xml…) sit beside JSON Schema ones.
    ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats.default(ajv);
    ajv.addSchema(loadBundle(version), 'bundle.json');
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
