/**
 * Around the stages (../engine.ts runs them): the request is read once (./route.ts incomingOf); a
 * write opens a ticket on its state when it arrives, before any delay, and closes it once answered,
 * so that a reset meanwhile cancels it (../tokens/token-states.ts); every API request is logged for the
 * inspector (../admin/request-log.ts); every answer but a preflight, an admin one (its own CORS
 * rule) and a dropped connection gets the CORS headers.
 */

import { corsHeaders } from '../../http/index.ts';
import { logExchange } from '../admin/request-log.ts';
import type { EngineCore, Incoming, RawRequest, RawResponse } from './context.ts';
import { incomingOf } from './route.ts';

export function intake(
  core: EngineCore,
  raw: RawRequest,
  run: (incoming: Incoming) => RawResponse | Promise<RawResponse>,
): RawResponse | Promise<RawResponse> {
  const started = performance.now();
  const incoming = incomingOf(core, raw);
  const { token, method } = incoming;
  const keeping = method === 'GET' || method === 'HEAD' ? undefined : new BodyKeeping(raw);
  if (keeping) {
    // A request that may carry a body: what is read is kept for the log.
    incoming.raw = keeping;
    if (token) incoming.ticket = core.states.begin(token);
  }
  let response: RawResponse | Promise<RawResponse>;
  try {
    response = run(incoming);
  } catch (error) {
    close(core, incoming);
    throw error;
  }
  // Answered at once (no stage waited): no microtask.
  if (!(response instanceof Promise)) return finish(core, incoming, response, started);
  return response.then(
    (answered) => finish(core, incoming, answered, started),
    (error: unknown) => {
      close(core, incoming);
      throw error;
    },
  );
}

/** The answer logged and given the CORS headers; the write's ticket closed in any case. */
function finish(core: EngineCore, incoming: Incoming, response: RawResponse, started: number): RawResponse {
  try {
    if (response.drop || response.version === 'preflight' || response.version === 'admin') return response;
    const { token, raw } = incoming;
    const stateKey = token ? core.states.keyOf(token) : null;
    // A request that may carry a body is wrapped so that the log gets what was read.
    const kept = raw instanceof BodyKeeping ? raw : undefined;
    const request = kept?.raw ?? raw;
    logExchange(core.log, { request, response, requestBody: kept?.body, ms: performance.now() - started, stateKey });
    return { ...response, headers: { ...corsHeaders(raw.header('origin')), ...response.headers } };
  } finally {
    close(core, incoming);
  }
}

/** Closes a write's ticket on its state (a reset meanwhile has cancelled it). */
function close(core: EngineCore, incoming: Incoming): void {
  if (incoming.ticket) core.states.end(incoming.ticket);
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
