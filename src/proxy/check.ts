/**
 * The contract check of one exchange: routes a request to its operation and version (the version
 * header, or the endpoint's default) with the contract's router (src/contract), validates the request
 * (path, query, JSON body) with the per-operation validators the mock uses too (src/validation) and
 * the response with the conformance validator (status, content type, body), so the proxy judges
 * traffic exactly as the mock and `conformance` do.
 */

import { Contract } from '../conformance/index.ts';
import {
  type Bundle,
  type BundleOperation,
  createRouter,
  pathParameterNames,
  type RouteResult,
  templateToRegExp,
  VERSION_HEADER,
} from '../contract/index.ts';
import { type OperationValidator, type Violation, validatorsOf } from '../validation/index.ts';

export interface Route {
  operation: BundleOperation;
  version: string;
  validator: OperationValidator;
  pathPattern: RegExp;
  pathNames: string[];
}

/** A violation as the proxy reports it (the request's, or the response's). */
export interface ExchangeViolation {
  field: string;
  rule: string;
  message: string;
  /** The field as segments (request violations, as the mock's refusals carry them). */
  location?: string[];
}

export interface ExchangeChecker {
  route(method: string, pathname: string, versionHeader: string | undefined): RouteResult<Route>;
  /** Path, query and body (bytes, parsed as JSON when there are some). */
  checkRequest(route: Route, pathname: string, search: URLSearchParams, body: Uint8Array): ExchangeViolation[];
  /**
   * Status, content type and body, the body parsed from `bytes` once (only when a schema applies):
   * the violations, and the parsed value when there was one (for the recording, never parsed twice).
   */
  checkResponse(route: Route, status: number, contentType: string | null, bytes: Uint8Array): CheckedResponse;
  readonly contract: Contract;
}

/** A response's violations, and its body as parsed for the check (absent when no schema applied or it is not JSON). */
export interface CheckedResponse {
  violations: ExchangeViolation[];
  parsed?: { value: unknown };
}

/** A request violation as the report keeps it: its message without the field, named beside it (as a response's). */
const toExchange = ({ field, rule, message, location }: Violation): ExchangeViolation => ({
  field,
  rule,
  message: message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message,
  location,
});

function decode(segment: string): string {
  // Most segments hold no escape: nothing to decode.
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The bytes as text (UTF-8): a Buffer decodes its own bytes without a TextDecoder. */
const textOf = (bytes: Uint8Array): string =>
  Buffer.isBuffer(bytes) ? bytes.toString('utf8') : new TextDecoder().decode(bytes);

/** A JSON body's value, or the `json` violation naming why it is not JSON (`what` opens its message). */
function parseJson(bytes: Uint8Array, what: string): { value: unknown } | { error: ExchangeViolation } {
  try {
    return { value: JSON.parse(textOf(bytes)) };
  } catch (error) {
    return {
      error: { field: 'body', rule: 'json', message: `${what}: ${(error as Error).message}`, location: ['body'] },
    };
  }
}

export function createExchangeChecker(bundles: Bundle[]): ExchangeChecker {
  const entries = bundles.flatMap((bundle) => {
    const validators = validatorsOf(bundle);
    return bundle.operations.map((operation) => ({
      method: operation.method,
      path: operation.path,
      version: bundle.version,
      target: {
        operation,
        version: bundle.version,
        validator: validators.get(operation) as OperationValidator,
        pathPattern: templateToRegExp(operation.path, true),
        pathNames: pathParameterNames(operation.path),
      },
    }));
  });
  const router = createRouter(entries);
  const contract = new Contract(bundles);
  return {
    contract,
    route: (method, pathname, versionHeader) => router.resolve(method, pathname, versionHeader),
    checkRequest(route, pathname, search, body) {
      // Built in loops, not with slice, map and fromEntries: this runs for every exchange.
      const captured = route.pathPattern.exec(pathname);
      const raw: Record<string, string> = {};
      for (let i = 0; i < route.pathNames.length; i++)
        raw[route.pathNames[i] as string] = decode(captured?.[i + 1] ?? '');
      const out: ExchangeViolation[] = [];
      for (const v of route.validator.checkPath(raw).violations) out.push(toExchange(v));
      for (const v of route.validator.checkQuery(search).violations) out.push(toExchange(v));
      if (route.validator.hasBody && body.length > 0) {
        const parsed = parseJson(body, 'not JSON');
        if ('error' in parsed) out.push(parsed.error);
        else out.push(...route.validator.checkBody(parsed.value).map(toExchange));
      } else if (route.validator.bodyRequired) {
        out.push({ field: 'body', rule: 'required', message: 'the request body is required', location: ['body'] });
      }
      return out;
    },
    checkResponse(route, status, contentType, bytes) {
      const checked: CheckedResponse = { violations: [] };
      try {
        checked.violations = contract.validate(route.operation, status, contentType, (mediaType) => {
          if (!/json/i.test(mediaType)) return { value: textOf(bytes) };
          const parsed = parseJson(bytes, 'not valid JSON');
          if ('value' in parsed) checked.parsed = parsed;
          return parsed;
        });
      } catch (error) {
        // A body nested deeper than the validator's stack (100,000 arrays): an invalid answer, not a
        // proxy fault. `json` keeps it out of the recording.
        if (!(error instanceof RangeError)) throw error;
        const violation = {
          field: 'body',
          rule: 'json',
          message: 'the body is nested too deep to check',
          location: ['body'],
        };
        return { violations: [violation] };
      }
      return checked;
    },
  };
}

/** What a request that could not be routed breaks, as a violation (field and rule). */
export function routeViolation(route: Exclude<RouteResult<Route>, { kind: 'matched' }>): ExchangeViolation {
  switch (route.kind) {
    case 'not-found':
      return { field: 'path', rule: 'operation', message: 'no operation of the contract has this path' };
    case 'method-not-allowed':
      return { field: 'method', rule: 'method', message: `${route.path} accepts ${route.allow.join(', ')}` };
    case 'unsupported-version':
      return {
        field: `header.${VERSION_HEADER}`,
        rule: 'version',
        message: `must be one of ${route.allowed.join(', ')} (received "${route.received}")`,
      };
  }
}
