/**
 * Contract testing of a running server (the mock, a staging API, a local backend): calls each
 * operation of each version bundle and validates the response against the contract.
 *
 * - Read-only operations (GET) always; writes only with `allowWrites` (they send the operation's
 *   request example, so they change data on a real server). Before the writes, the token's state is
 *   reset through the mock's admin endpoint (`POST /__mock/reset`), so every run starts from the
 *   seeded data; a server without it answers that request with an error and is used as it is.
 * - Each operation is also called without a token, and must answer 401 (the only declared error).
 * - Path parameters come from `params` (`id=5`, or per operation `getTicket.id=5`), else from the
 *   contract's parameter examples.
 * - A server that does not answer the first call is unreachable: the run rejects (`cannot reach`),
 *   as the fuzzer's does; a call without an answer later is a `network` entry of the report.
 */
import {
  type ApiVersion,
  type BundleOperation,
  deref,
  type Json,
  loadBundles,
  parameterExample,
  VERSION_HEADER,
} from '../contract/index.ts';

import { Contract, type ResponseViolation } from '../validation/index.ts';

export interface ConformanceOptions {
  baseUrl: string;
  token: string;
  allowWrites?: boolean;
  /** Path parameter values: `name` → value, or `operationId.name` → value. */
  params?: Record<string, string>;
  /** Only these versions (default: all bundles). */
  versions?: string[];
  bundlesDir?: string;
  /** Per-request timeout. Default 10 s. */
  timeoutMs?: number;
  /**
   * With `allowWrites`: first reset the token's state (`POST /__mock/reset`, the mock's admin
   * endpoint), so that a second run finds the records as the first did. Default true.
   */
  resetState?: boolean;
  /** Skip the "no token must give 401" check. */
  skipAuthCheck?: boolean;
  fetch?: typeof fetch;
}

export interface ConformanceViolation extends ResponseViolation {
  operation: string;
  version: string;
}

export interface ConformanceCheck {
  operation: string;
  version: string;
  method: string;
  /** The URL path requested (parameters filled in). */
  path: string;
  /** `response` (with the token) or `auth` (without it, expecting 401). */
  kind: 'response' | 'auth';
  status: number | null;
  violations: ConformanceViolation[];
}

/** The reset of the token's state before the writes: done, or why not (the server is not the mock). */
export interface StateReset {
  reset: boolean;
  /** The answer's status; null when the server could not be reached. */
  status: number | null;
  message: string;
}

export interface ConformanceReport {
  baseUrl: string;
  /** Present when the run asked for a reset (writes allowed, `resetState` not false). */
  stateReset?: StateReset;
  checks: ConformanceCheck[];
  violations: ConformanceViolation[];
  skipped: { operation: string; version: string; reason: string }[];
}

const READ_METHODS = new Set(['get', 'head', 'options']);

export function buildPath(operation: BundleOperation, document: Json, params: Record<string, string>): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const parameter = operation.parameters.find((p) => p?.in === 'path' && p.name === name) ?? {};
    const value = params[`${operation.operationId}.${name}`] ?? params[name] ?? parameterExample(parameter, document);
    return encodeURIComponent(value);
  });
}

/** The first request-body example of a write operation (`example` or `examples` map), else `{}`. */
export function requestExample(operation: BundleOperation, document: Json): unknown {
  const body = deref(document, operation.operation.requestBody);
  if (!body) return undefined;
  const content: Record<string, Json> = body.content ?? {};
  const media = content['application/json'] ?? Object.values<Json>(content)[0];
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const first = deref(document, Object.values<Json>(media.examples ?? {})[0]);
  return first?.value ?? {};
}

/** Records a check of `operation` at `path` (and its violations) in the report. */
const recorder =
  (report: ConformanceReport, version: string, operation: BundleOperation, path: string) =>
  (kind: ConformanceCheck['kind'], status: number | null, found: ResponseViolation[]): void => {
    const violations = found.map((v) => ({ ...v, operation: operation.operationId, version }));
    const method = operation.method.toUpperCase();
    report.checks.push({ operation: operation.operationId, version, method, path, kind, status, violations });
    report.violations.push(...violations);
  };

export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const doFetch = options.fetch ?? fetch;
  const bundles = loadBundles(options.bundlesDir);
  const contract = new Contract(bundles);
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const params = options.params ?? {};
  const timeoutMs = options.timeoutMs ?? 10_000;
  const report: ConformanceReport = { baseUrl, checks: [], violations: [], skipped: [] };
  if (options.allowWrites && options.resetState !== false) {
    report.stateReset = await resetState(doFetch, baseUrl, options.token, timeoutMs);
  }

  for (const bundle of bundles) {
    if (options.versions && !options.versions.includes(bundle.version)) continue;
    for (const operation of bundle.operations) {
      const write = !READ_METHODS.has(operation.method);
      if (write && !options.allowWrites) {
        report.skipped.push({
          operation: operation.operationId,
          version: bundle.version,
          reason: 'write (use --allow-writes)',
        });
        continue;
      }
      const path = buildPath(operation, bundle.document, params);
      const body = write ? requestExample(operation, bundle.document) : undefined;
      const call = async (withToken: boolean) => {
        const headers: Record<string, string> = { Accept: 'application/json', [VERSION_HEADER]: bundle.version };
        if (withToken) headers.Authorization = `Bearer ${options.token}`;
        if (body !== undefined) headers['Content-Type'] = 'application/json';
        return doFetch(`${baseUrl}${path}`, {
          method: operation.method.toUpperCase(),
          headers,
          ...(body !== undefined && { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      };
      const record = recorder(report, bundle.version, operation, path);

      const answer = await responseCheck(() => call(true), contract, operation);
      // Nothing answered the first call: the server is unreachable, no finding about the contract.
      if (answer[0] === null && report.checks.length === 0) {
        throw new Error(`cannot reach ${baseUrl}: ${answer[1][0]?.message}`);
      }
      record('response', ...answer);
      if (options.skipAuthCheck) continue;
      record('auth', ...(await authCheck(() => call(false))));
    }
  }
  return report;
}

/** Resets the token's state on the mock (`POST /__mock/reset`); never throws. */
async function resetState(
  doFetch: typeof fetch,
  baseUrl: string,
  token: string,
  timeoutMs: number,
): Promise<StateReset> {
  try {
    const response = await doFetch(`${baseUrl}/__mock/reset`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: '{}',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    if (response.ok)
      return { reset: true, status: response.status, message: 'the token’s state was reset (POST /__mock/reset)' };
    const detail = text.replace(/\s+/g, ' ').slice(0, 200);
    return {
      reset: false,
      status: response.status,
      message: `POST /__mock/reset answered ${response.status} (not the mock?): the writes run against the data as it is${detail ? `; body: ${detail}` : ''}`,
    };
  } catch (error) {
    return { reset: false, status: null, message: `POST /__mock/reset failed: ${describe(error)}` };
  }
}

type Outcome = [status: number | null, violations: ResponseViolation[]];

/** The call with the token: its response validated against the operation (a status break quotes the body). */
async function responseCheck(
  call: () => Promise<Response>,
  contract: Contract,
  operation: BundleOperation,
): Promise<Outcome> {
  try {
    const response = await call();
    const text = await response.text();
    const found = contract.validateResponse(operation, response.status, response.headers.get('content-type'), text);
    return [
      response.status,
      found.map((v) =>
        v.rule === 'status' && text
          ? { ...v, message: `${v.message}; body: ${text.replace(/\s+/g, ' ').slice(0, 200)}` }
          : v,
      ),
    ];
  } catch (error) {
    return [null, [{ field: 'request', rule: 'network', message: describe(error) }]];
  }
}

/** The call without a token: it must answer 401. */
async function authCheck(call: () => Promise<Response>): Promise<Outcome> {
  try {
    const response = await call();
    await response.arrayBuffer();
    return [
      response.status,
      response.status === 401
        ? []
        : [
            {
              field: 'header.Authorization',
              rule: 'security',
              message: `a request without a bearer token got ${response.status}; the contract requires 401`,
            },
          ],
    ];
  } catch (error) {
    return [null, [{ field: 'request', rule: 'network', message: describe(error) }]];
  }
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}: ${cause.message ?? ''}`.trim();
  return cause?.message ? `${(error as Error).message}: ${cause.message}` : (error as Error).message;
}

export type { ApiVersion };
