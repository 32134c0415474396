/**
 * Before and after the pipeline (../engine.ts runs it): the request is read once into the context
 * every stage works on; a CORS preflight and the mock's admin paths (../admin) are answered before
 * the pipeline; an API answer is counted for coverage (../coverage/recorder.ts), logged for the
 * inspector (../admin/request-log.ts) and given the CORS headers (but a dropped connection), and a
 * write's ticket (./ticket.ts) is closed, so that a reset meanwhile cancels it
 * (../tokens/memory-states.ts).
 */

import { corsHeaders, isDecodablePath, parseTarget, preflightHeaders } from '../../http/index.ts';
import { adminPreflight } from '../admin/guard.ts';
import { logExchange } from '../admin/request-log.ts';
import { answerAdmin, isAdminPath } from '../admin/routes.ts';
import type { EngineCore, Incoming, Last, RawRequest, RawResponse, RequestContext } from './context.ts';

/**
 * The request read once (method, path and query, bearer token) as the context of every stage: one
 * literal of every field the stages add, so that the context keeps one fast object shape. A request
 * that may carry a body is wrapped so that what is read is kept for the log.
 */
export function incomingOf(core: EngineCore, request: RawRequest): RequestContext {
  const { pathname, searchParams } = parseTarget(request.target);
  const authorization = request.header('authorization');
  const method = request.method.toUpperCase();
  return {
    core,
    raw: method === 'GET' || method === 'HEAD' ? request : new BodyKeeping(request),
    method,
    pathname,
    searchParams,
    authorization,
    token: tokenOf(authorization) as string,
    // Set by the stages (./context.ts says which), before any reads them.
    target: undefined as never,
    version: undefined as never,
    served: undefined as never,
    problem: undefined as never,
    ticket: undefined,
    preferences: {},
    scenario: undefined,
    body: undefined,
    path: {},
    query: {},
    cursor: undefined,
    result: undefined as never,
    addressed: undefined,
    viewContext: undefined,
    shown: undefined,
  };
}

/** The last Authorization header read and its bearer token: a client sends the same one request after request. */
let lastAuthorization: string | undefined;
let lastToken: string | undefined;

/** The bearer token an Authorization header holds, if it holds one. */
export function tokenOf(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  if (authorization !== lastAuthorization) {
    lastToken = /^bearer[ \t]+(\S.*)$/i.exec(authorization.trim())?.[1]?.trim();
    lastAuthorization = authorization;
  }
  return lastToken;
}

/** What is answered before the pipeline: a CORS preflight (it carries no token), the admin endpoints. */
export function outside(incoming: Incoming): RawResponse | Promise<RawResponse> | undefined {
  const { raw, method, pathname } = incoming;
  if (method === 'OPTIONS' && raw.header('access-control-request-method') !== undefined) {
    const [origin, requested] = [raw.header('origin'), raw.header('access-control-request-headers')];
    const headers = isAdminPath(pathname) ? adminPreflight(origin, requested) : preflightHeaders(origin, requested);
    return { status: 204, headers, body: '', kind: 'preflight', version: '-' };
  }
  // The mock's own endpoints, outside the API: no version; CORS for loopback origins only. (A
  // malformed escape is the route stage's refusal.)
  if (isAdminPath(pathname) && isDecodablePath(pathname)) return answerAdmin(incoming);
  return undefined;
}

/**
 * An API request through the pipeline: its answer logged and given the CORS headers, its ticket
 * closed, also when a stage throws. At once when no stage waited.
 */
export function through(context: RequestContext, pipeline: Last<RequestContext>): RawResponse | Promise<RawResponse> {
  const started = performance.now();
  let response: RawResponse | Promise<RawResponse>;
  try {
    response = pipeline(context);
  } catch (error) {
    close(context);
    throw error;
  }
  // Answered at once (no stage waited): no microtask.
  if (!(response instanceof Promise)) return finish(context, response, started);
  return response.then(
    (answered) => finish(context, answered, started),
    (error: unknown) => {
      close(context);
      throw error;
    },
  );
}

/** The answer counted for coverage, logged and given the CORS headers; the write's ticket closed in any case. */
function finish(context: RequestContext, response: RawResponse, started: number): RawResponse {
  try {
    const { token, raw, core } = context;
    const stateKey = token ? core.states.keyOf(token) : null;
    core.coverage.record(context, response, stateKey);
    if (response.drop) return response;
    const kept = raw instanceof BodyKeeping ? raw : undefined;
    const request = kept?.raw ?? raw;
    logExchange(core.log, { request, response, requestBody: kept?.body, ms: performance.now() - started, stateKey });
    // One literal of every field (not a spread of the answer): the same object shape for every answer.
    const headers = { ...corsHeaders(raw.header('origin')), ...response.headers };
    return { status: response.status, headers, body: response.body, kind: response.kind, version: response.version };
  } finally {
    close(context);
  }
}

/** Closes a write's ticket on its state (a reset meanwhile has cancelled it). */
function close(context: RequestContext): void {
  if (context.ticket) context.core.states.end(context.ticket);
}

/** A request whose body, once read, is kept for the log (a class: no closures made per request). */
class BodyKeeping implements RawRequest {
  body: Uint8Array | 'too-large' | undefined;
  constructor(readonly raw: RawRequest) {}
  get method() {
    return this.raw.method;
  }
  get target() {
    return this.raw.target;
  }
  get origin() {
    return this.raw.origin;
  }
  header(name: string) {
    return this.raw.header(name);
  }
  repeated(name: string) {
    return this.raw.repeated?.(name) ?? false;
  }
  readBody() {
    const body = this.raw.readBody();
    if (body instanceof Promise) return body.then((read) => (this.body = read));
    this.body = body;
    return body;
  }
}
