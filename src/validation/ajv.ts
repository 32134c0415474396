/**
 * A JSON Schema 2020-12 validator (ajv, formats checked) holding one version bundle under `id`,
 * so `<id>#/components/...` refs resolve inside it as a downstream validator would see them.
 * Shared by the mock, the conformance runner and the contract tests.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Bundle } from '../contract/index.ts';
import { DATE_TIME_FORMAT } from './date-time.ts';

export function ajvWithBundle(document: object, id: string): Ajv2020 {
  // strict off: OpenAPI keywords (example, discriminator...) sit beside JSON Schema ones.
  // verbose: each error carries the value it refused (`error.data`), which messages show.
  // validateSchema off: neither the bundle (an OpenAPI document holding schemas, not a schema) nor the
  // schemas compiled from it are checked against the 2020-12 meta-schema, whose compilation alone cost
  // ~0.2 s of CPU per bundle; `redocly lint` checks the bundles' schemas at build time.
  // code.optimize off: ajv's pass over the code it generates (dropping unused names, folding
  // constants) was ~40 % of a compile (the 119 components of the three bundles: ~790 -> ~490 ms of
  // CPU), and V8 optimises that code anyway: a page example's check took as long (75-95 ns, either way).
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    validateFormats: true,
    verbose: true,
    validateSchema: false,
    code: { optimize: false },
  });
  addFormats.default(ajv); // includes int32/int64
  // The same date-time check, with a fast path for the usual UTC spelling (./date-time.ts).
  ajv.addFormat('date-time', DATE_TIME_FORMAT);
  ajv.addSchema(document, id);
  return ajv;
}

/**
 * The one ajv holding a bundle (as `mock-<version>`) that every validator of that bundle compiles
 * into (the mock's request and response validators, its component checks, the `Contract` of
 * conformance, the proxy, the fuzzer and drift), made on first use. Bundles are shared per process
 * (`loadBundles`), so a second engine, runner or proxy compiles nothing again.
 */
const ajvs = new WeakMap<Bundle, Ajv2020>();
export const idOf = (bundle: Bundle): string => `mock-${bundle.version}`;
export function ajvOf(bundle: Bundle): Ajv2020 {
  let ajv = ajvs.get(bundle);
  if (!ajv) {
    ajv = ajvWithBundle(bundle.document, idOf(bundle));
    ajvs.set(bundle, ajv);
  }
  return ajv;
}

const atPointer = new WeakMap<Bundle, Map<string, ValidateFunction>>();

/**
 * The validator of the schema at a JSON pointer of `bundle`, written as a URI fragment (`{` as `%7B`):
 * compiled once per bundle and pointer.
 */
export function validatorAt(bundle: Bundle, pointer: string): ValidateFunction {
  let byPointer = atPointer.get(bundle);
  if (!byPointer) {
    byPointer = new Map();
    atPointer.set(bundle, byPointer);
  }
  let validate = byPointer.get(pointer);
  if (!validate) {
    validate = ajvOf(bundle).compile({ $ref: `${idOf(bundle)}#${pointer}` });
    byPointer.set(pointer, validate);
  }
  return validate;
}
