/**
 * Validates HTTP responses against the version bundles (shared by the conformance runner, the
 * fuzzer and the tests): is the status declared for the operation,
 * and does the body match the declared schema (JSON Schema 2020-12, ajv, formats checked)?
 * Each break is reported as `{field, rule, message}`, with `field` written like the mock's error
 * fields (`body.results[0].id`) and `rule` the JSON Schema keyword (or `status`, `content-type`).
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { type ApiVersion, type Bundle, type BundleOperation, deref, type Json } from '../contract/index.ts';
import { validatorAt } from './ajv.ts';
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

/**
 * What one (operation, status) of a version asks of a response, worked out once: the status refused
 * (undeclared), or per declared media type (lower-cased) its name and the compiled validator of its
 * schema (none when it declares no schema).
 */
type ResponsePlan =
  | { kind: 'undeclared'; violation: ResponseViolation }
  | { kind: 'declared'; declared: string[]; media: Map<string, { name: string; validate?: ValidateFunction }> };

/** How a body is read once a schema applies: its value, or the violation that it cannot be read. */
export type BodyReader = (mediaType: string) => { value: unknown } | { error: ResponseViolation };

/** The last Content-Type read and its media type: a server answers with the same one every time. */
let lastType: { contentType: string | null; media: string } = { contentType: null, media: '' };

/** The media type of a Content-Type, lower-cased, without parameters (`application/json; charset=utf-8` → `application/json`). */
function mediaTypeOf(contentType: string | null): string {
  if (contentType !== lastType.contentType)
    lastType = { contentType, media: (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '' };
  return lastType.media;
}

export class Contract {
  readonly bundles: Bundle[];
  /**
   * The plans per operation (an operation belongs to one version) and status: a check looks up two
   * maps, not the responses, the pointer and the compiled validator of each exchange (the proxy's
   * hot path).
   */
  private readonly plans = new Map<BundleOperation, Map<number, ResponsePlan>>();

  constructor(bundles: Bundle[]) {
    this.bundles = bundles;
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

  /**
   * A validator for the schema at a JSON pointer of a version bundle: compiled once per bundle and
   * pointer for the whole process (./ajv.ts), so a second runner, proxy or fuzzer compiles nothing.
   */
  validatorAt(version: ApiVersion, pointer: string): ValidateFunction {
    const bundle = this.bundles.find((b) => b.version === version);
    if (!bundle) throw new Error(`No bundle for version ${version}`);
    return validatorAt(bundle, pointer);
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
    return this.validate(operation, status, contentType, (mediaType) => {
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
    return this.validate(operation, status, contentType, () => ({ value }));
  }

  /**
   * Validates one response of `operation`, its body read by `read` only when a declared schema
   * applies (the proxy parses the bytes it holds once, there, and keeps the value).
   */
  validate(
    operation: BundleOperation,
    status: number,
    contentType: string | null,
    read: BodyReader,
  ): ResponseViolation[] {
    const plan = this.planOf(operation, status);
    if (plan.kind === 'undeclared') return [plan.violation];
    if (plan.declared.length === 0) return [];
    const received = mediaTypeOf(contentType);
    const media = plan.media.get(received);
    if (!media) {
      return [
        {
          field: 'header.Content-Type',
          rule: 'content-type',
          message: `content type "${received || '(none)'}" is not declared (declared: ${plan.declared.join(', ')})`,
        },
      ];
    }
    if (!media.validate) return [];
    const body = read(media.name);
    if ('error' in body) return [body.error];
    return media.validate(body.value) ? [] : explain(media.validate.errors ?? []);
  }

  /** The plan of (operation, status), made on first use. */
  private planOf(operation: BundleOperation, status: number): ResponsePlan {
    let byStatus = this.plans.get(operation);
    if (!byStatus) {
      byStatus = new Map();
      this.plans.set(operation, byStatus);
    }
    let plan = byStatus.get(status);
    if (!plan) {
      plan = this.plan(operation, status);
      byStatus.set(status, plan);
    }
    return plan;
  }

  private plan(operation: BundleOperation, status: number): ResponsePlan {
    const declared = this.declaredResponse(operation, status);
    if (!declared) {
      const codes = Object.keys(operation.operation.responses ?? {}).join(', ');
      const message = `status ${status} is not declared (declared: ${codes})`;
      return { kind: 'undeclared', violation: { field: 'status', rule: 'status', message } };
    }
    const content: Record<string, Json> = declared.response?.content ?? {};
    const media = new Map<string, { name: string; validate?: ValidateFunction }>();
    for (const [name, entry] of Object.entries(content)) {
      const pointer = `${declared.pointer}/content/${escapePointer(name)}/schema`;
      media.set(name.toLowerCase(), {
        name,
        ...(entry?.schema && { validate: this.validatorAt(operation.version, pointer) }),
      });
    }
    return { kind: 'declared', declared: Object.keys(content), media };
  }
}
