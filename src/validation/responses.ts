/**
 * Validates HTTP responses against the version bundles (shared by the conformance runner, the
 * fuzzer and the tests): is the status declared for the operation,
 * and does the body match the declared schema (JSON Schema 2020-12, ajv, formats checked)?
 * Each break is reported as `{field, rule, message}`, with `field` written like the mock's error
 * fields (`body.results[0].id`) and `rule` the JSON Schema keyword (or `status`, `content-type`).
 */
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { type ApiVersion, type Bundle, type BundleOperation, deref, type Json } from '../contract/index.ts';
import { ajvWithBundle } from './ajv.ts';
import { formatField } from './field.ts';
import { ruleMessage } from './message.ts';

export interface ResponseViolation {
  field: string;
  rule: string;
  message: string;
}

const escapePointer = (segment: string) =>
  encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1')).replace(/%7E/gi, '~');

/** `/results/0/id` → `body.results[0].id`, written as the mock writes its error fields. */
export function fieldOf(instancePath: string, missingProperty?: string): string {
  const segments = instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (missingProperty !== undefined) segments.push(missingProperty);
  return formatField(['body', ...segments]);
}

/**
 * Keeps the errors that say what is wrong: under `anyOf: [X, {type: null}]` ajv also reports that
 * the value is not null and that no branch matched; those are dropped when a deeper error explains.
 */
export function explain(errors: readonly ErrorObject[]): ResponseViolation[] {
  const meaningful = errors.filter((e) => !(e.keyword === 'type' && e.params.type === 'null'));
  const kept = meaningful.filter((e) => {
    if (e.keyword !== 'anyOf' && e.keyword !== 'oneOf') return true;
    return !meaningful.some(
      (other) => other !== e && other.instancePath.startsWith(e.instancePath) && other.keyword !== e.keyword,
    );
  });
  const seen = new Set<string>();
  const out: ResponseViolation[] = [];
  for (const error of kept) {
    const missing = error.keyword === 'required' ? String(error.params.missingProperty) : undefined;
    const field = fieldOf(error.instancePath, missing);
    const message = ruleMessage(error);
    const key = `${field} ${error.keyword}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ field, rule: error.keyword, message });
  }
  return out;
}

export class Contract {
  readonly bundles: Bundle[];
  private readonly ajvs = new Map<ApiVersion, Ajv2020>();
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(bundles: Bundle[]) {
    this.bundles = bundles;
    for (const bundle of bundles) {
      this.ajvs.set(bundle.version, ajvWithBundle(bundle.document, this.id(bundle.version)));
    }
  }

  private id(version: ApiVersion) {
    return `https://store-admin.invalid/bundles/${version}.json`;
  }

  get operations(): BundleOperation[] {
    return this.bundles.flatMap((b) => b.operations);
  }

  find(version: string, operationId: string): BundleOperation | undefined {
    return this.operations.find((o) => o.version === version && o.operationId === operationId);
  }

  documentOf(version: ApiVersion): Json {
    const bundle = this.bundles.find((b) => b.version === version);
    if (!bundle) throw new Error(`No bundle for version ${version}`);
    return bundle.document;
  }

  /** The declared response of a status (exact code, then `4XX`-style range, then `default`). */
  declaredResponse(
    operation: BundleOperation,
    status: number,
  ): { code: string; pointer: string; response: Json } | undefined {
    const responses = operation.operation.responses ?? {};
    const code = [String(status), `${String(status)[0]}XX`, 'default'].find((c) => c in responses);
    if (code === undefined) return undefined;
    const document = this.documentOf(operation.version);
    const raw = responses[code];
    const pointer =
      typeof raw?.$ref === 'string'
        ? raw.$ref.slice(1)
        : `/paths/${escapePointer(operation.path)}/${operation.method}/responses/${escapePointer(code)}`;
    return { code, pointer, response: deref(document, raw) };
  }

  /** A validator for the schema at a JSON pointer of a version bundle (compiled once). */
  validatorAt(version: ApiVersion, pointer: string): ValidateFunction {
    const ref = `${this.id(version)}#${pointer}`;
    let validate = this.compiled.get(ref);
    if (!validate) {
      const ajv = this.ajvs.get(version);
      if (!ajv) throw new Error(`No bundle for version ${version}`);
      validate = ajv.compile({ $ref: ref });
      this.compiled.set(ref, validate);
    }
    return validate;
  }

  /**
   * Validates one response of `operation`. `bodyText` is the raw body; it is parsed when the
   * declared content is JSON.
   */
  validateResponse(
    operation: BundleOperation,
    status: number,
    contentType: string | null,
    bodyText: string,
  ): ResponseViolation[] {
    return this.check(operation, status, contentType, (mediaType) => {
      if (!/json/i.test(mediaType)) return { value: bodyText };
      try {
        return { value: JSON.parse(bodyText) };
      } catch (error) {
        return {
          error: { field: 'body', rule: 'json', message: `not valid JSON: ${(error as Error).message}` },
        };
      }
    });
  }

  /** Validates one response whose body is already parsed (e.g. the `data` of openapi-fetch). */
  validateValue(
    operation: BundleOperation,
    status: number,
    contentType: string | null,
    value: unknown,
  ): ResponseViolation[] {
    return this.check(operation, status, contentType, () => ({ value }));
  }

  private check(
    operation: BundleOperation,
    status: number,
    contentType: string | null,
    read: (mediaType: string) => { value: unknown } | { error: ResponseViolation },
  ): ResponseViolation[] {
    const declared = this.declaredResponse(operation, status);
    if (!declared) {
      const codes = Object.keys(operation.operation.responses ?? {}).join(', ');
      return [{ field: 'status', rule: 'status', message: `status ${status} is not declared (declared: ${codes})` }];
    }
    const content: Record<string, Json> = declared.response?.content ?? {};
    const mediaTypes = Object.keys(content);
    if (mediaTypes.length === 0) return [];
    const received = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const mediaType = mediaTypes.find((m) => m.toLowerCase() === received);
    if (!mediaType) {
      return [
        {
          field: 'header.Content-Type',
          rule: 'content-type',
          message: `content type "${received || '(none)'}" is not declared (declared: ${mediaTypes.join(', ')})`,
        },
      ];
    }
    if (!content[mediaType]?.schema) return [];
    const body = read(mediaType);
    if ('error' in body) return [body.error];
    const validate = this.validatorAt(
      operation.version,
      `${declared.pointer}/content/${escapePointer(mediaType)}/schema`,
    );
    return validate(body.value) ? [] : explain(validate.errors ?? []);
  }
}
