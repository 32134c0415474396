/**
 * One exchange through the proxy, as named stages: route and check the request (./check.ts), refuse
 * it under `--strict`, forward it (./upstream.ts), stream the answer back while keeping a copy of a
 * JSON body, then check the response, record it and count it. Upstream faults become the mock's
 * problem bodies: 502 naming the upstream (unreachable, or an answer over the size bound), 504 after
 * the upstream timeout. An upstream 5xx or 3xx is passed through as is (a redirect is never followed).
 *
 * `X-Contract-Violations` is a header (the request's violations, known before the answer starts) and
 * a trailer (the total, the response's included), since the answer is streamed: the body is checked
 * once it has passed through. The report and the log always have every violation.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { VERSION_HEADER } from '../contract/index.ts';
import {
  corsHeaders,
  MAX_BODY_BYTES,
  type Problem,
  type Refusal,
  refusal,
  routeRefusal,
  summarize,
} from '../mock/index.ts';
import type { ExchangeChecker, ExchangeViolation, Route } from './check.ts';
import { routeViolation } from './check.ts';
import type { Recorder } from './recorder.ts';
import type { ExchangeOutcome } from './report.ts';
import { HOP_BY_HOP, type Upstream } from './upstream.ts';

export const VIOLATIONS_HEADER = 'X-Contract-Violations';

export interface ExchangeContext {
  checker: ExchangeChecker;
  upstream: Upstream;
  strict: boolean;
  timeoutMs: number;
  maxResponseBytes: number;
  recorder?: Recorder;
}

interface Incoming {
  method: string;
  target: string;
  pathname: string;
  operation: string;
  version: string;
  route?: Route;
  request: ExchangeViolation[];
}

const headerOf = (request: IncomingMessage, name: string): string | undefined => {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
};

function sendProblem(
  request: IncomingMessage,
  response: ServerResponse,
  body: Problem,
  extra: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(body.status, {
    ...corsHeaders(headerOf(request, 'origin')),
    ...extra,
    'Content-Type': 'application/problem+json',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}

/** The request body, at most the mock's MAX_BODY_BYTES (the rest is left unread). */
function readBody(request: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) resolve('too-large');
      else chunks.push(chunk);
    });
    request.once('end', () => resolve(Buffer.concat(chunks)));
    request.once('error', reject);
  });
}

/** Stage 1: which operation and version, and what the request breaks. */
function describe(context: ExchangeContext, request: IncomingMessage, body: Buffer): Incoming {
  const method = request.method ?? 'GET';
  const target = request.url ?? '/';
  const url = new URL(target.startsWith('/') ? `http://proxy.invalid${target}` : target);
  const versionHeader = headerOf(request, VERSION_HEADER);
  const route = context.checker.route(method, url.pathname, versionHeader);
  if (route.kind !== 'matched') {
    const base = {
      method,
      target,
      pathname: url.pathname,
      operation: '(unrouted)',
      version: versionHeader?.trim() || '-',
    };
    return { ...base, request: [routeViolation(route)] };
  }
  const violations = context.checker.checkRequest(route.target, url.pathname, url.searchParams, body);
  const operation = route.target.operation.operationId;
  return {
    method,
    target,
    pathname: url.pathname,
    operation,
    version: route.version,
    route: route.target,
    request: violations,
  };
}

/** Stage 2 (`--strict`): the mock's refusal of a request that breaks the contract. */
function strictRefusal(context: ExchangeContext, incoming: Incoming, versionHeader: string | undefined): Refusal {
  if (incoming.route) {
    const { operation, version } = incoming;
    const violations = incoming.request.map((v) => ({ ...v, location: v.location ?? [v.field] }));
    const detail = `The request breaks the contract of ${operation} (${version}): ${summarize(violations)}.`;
    return refusal('invalidRequest', detail, violations, { operation, version });
  }
  const route = context.checker.route(incoming.method, incoming.pathname, versionHeader);
  if (route.kind === 'matched') throw new Error('a routed request has no route refusal');
  return routeRefusal(route, incoming.pathname);
}

/** Handles one request; resolves with what the report counts. */
export async function handleExchange(
  context: ExchangeContext,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<ExchangeOutcome & { incoming?: Incoming }> {
  const body = await readBody(request);
  if (body === 'too-large') {
    // Not forwarded: the mock refuses such a body too.
    sendProblem(
      request,
      response,
      refusal('tooLarge', `The proxy forwards bodies up to ${MAX_BODY_BYTES} bytes.`).body,
      { Connection: 'close' },
    );
    return { operation: '(unrouted)', version: '-', status: 413, request: [], response: [], kind: 'refused' };
  }
  const incoming = describe(context, request, body);
  const base = {
    operation: incoming.operation,
    version: incoming.version,
    request: incoming.request,
    response: [],
    incoming,
  };
  if (context.strict && incoming.request.length > 0) {
    const refused = strictRefusal(context, incoming, headerOf(request, VERSION_HEADER));
    sendProblem(request, response, refused.body, {
      ...refused.headers,
      [VIOLATIONS_HEADER]: String(incoming.request.length),
    });
    return { ...base, status: refused.body.status, kind: 'refused' };
  }
  return forward(context, request, response, incoming, body);
}

const isJson = (contentType: string | undefined) => /^application\/([\w.+-]+\+)?json\b/i.test(contentType ?? '');

/** The upstream's headers for the client: hop-by-hop and CORS ones replaced by the mock's own. */
function headersFor(request: IncomingMessage, upstream: IncomingMessage, requestViolations: number, bodyless: boolean) {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(upstream.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || name.startsWith('access-control-')) continue;
    headers[name] = value;
  }
  if (bodyless && upstream.headers['content-length'] !== undefined)
    headers['content-length'] = upstream.headers['content-length'];
  return {
    ...headers,
    ...corsHeaders(headerOf(request, 'origin')),
    [VIOLATIONS_HEADER]: String(requestViolations),
    ...(!bodyless && { Trailer: VIOLATIONS_HEADER }),
  };
}

type Outcome = ExchangeOutcome & { incoming: Incoming };

/** Stage 3: forward, stream the answer back (bounded), then check, record and count it. */
async function forward(
  context: ExchangeContext,
  request: IncomingMessage,
  response: ServerResponse,
  incoming: Incoming,
  body: Buffer,
): Promise<Outcome> {
  const base = { operation: incoming.operation, version: incoming.version, request: incoming.request, incoming };
  const { request: outgoing, answer: answered } = context.upstream.send(
    incoming.method,
    incoming.target,
    request.headers,
    body,
  );
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    outgoing.destroy(new Error('upstream timeout'));
  }, context.timeoutMs);
  // A client that goes away cancels the upstream request.
  response.once('close', () => {
    if (!response.writableFinished) outgoing.destroy();
  });
  const name = context.upstream.name;
  try {
    const answer = await answered;
    const status = answer.statusCode ?? 502;
    if (Number(answer.headers['content-length']) > context.maxResponseBytes) {
      answer.destroy();
      const detail = `The upstream ${name} answered ${answer.headers['content-length']} bytes, over the proxy's bound of ${context.maxResponseBytes}.`;
      sendProblem(request, response, refusal('upstreamTooLarge', detail).body);
      return { ...base, status: 502, response: [], kind: 'unreachable' };
    }
    const bodyless = incoming.method === 'HEAD' || status === 204 || status === 304;
    response.writeHead(status, headersFor(request, answer, incoming.request.length, bodyless));
    const text = await stream(answer, response, isJson(answer.headers['content-type']), context.maxResponseBytes);
    const checked = incoming.route
      ? context.checker.checkResponse(incoming.route, status, answer.headers['content-type'] ?? null, text)
      : [];
    if (!bodyless) response.addTrailers({ [VIOLATIONS_HEADER]: String(incoming.request.length + checked.length) });
    response.end();
    record(context, incoming, status, answer.headers['content-type'], text, checked);
    return { ...base, status, response: checked };
  } catch (error) {
    if (response.headersSent) {
      response.destroy();
      return { ...base, status: timedOut ? 504 : 502, response: [], kind: timedOut ? 'timeout' : 'unreachable' };
    }
    if (timedOut) {
      const detail = `The upstream ${name} did not answer within ${context.timeoutMs} ms (--upstream-timeout).`;
      sendProblem(request, response, refusal('gatewayTimeout', detail).body);
      return { ...base, status: 504, response: [], kind: 'timeout' };
    }
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    sendProblem(request, response, refusal('badGateway', `The upstream ${name} could not be reached (${code}).`).body);
    return { ...base, status: 502, response: [], kind: 'unreachable' };
  } finally {
    clearTimeout(timer);
  }
}

/** Copies the answer to the client as it comes (backpressure kept); resolves with the JSON text it kept. */
function stream(answer: IncomingMessage, response: ServerResponse, keep: boolean, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    answer.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // The client's bound (MAX_RESPONSE_BYTES): beyond it the answer is cut, never buffered.
      if (size > max) {
        answer.destroy(new Error(`the upstream answer exceeds ${max} bytes`));
        return;
      }
      if (keep) chunks.push(chunk);
      // Corked until the next turn: a body that ends now leaves in one write with its trailer.
      response.cork();
      setImmediate(() => response.uncork());
      if (!response.write(chunk)) {
        answer.pause();
        response.once('drain', () => answer.resume());
      }
    });
    answer.once('end', () => resolve(keep ? Buffer.concat(chunks).toString('utf8') : ''));
    answer.once('error', reject);
    // Destroyed without an error (the client left, the timeout): no 'end' will come.
    answer.once('close', () => {
      if (!answer.complete) reject(new Error('the upstream answer was cut'));
    });
  });
}

/** Stage 4 (`--record`): a 2xx JSON answer of a known operation goes to the recording. */
function record(
  context: ExchangeContext,
  incoming: Incoming,
  status: number,
  contentType: string | undefined,
  text: string,
  checked: ExchangeViolation[],
): void {
  if (!context.recorder || !incoming.route || status < 200 || status > 299 || !isJson(contentType)) return;
  if (checked.some((v) => v.rule === 'json')) return;
  context.recorder.add({
    operation: incoming.operation,
    version: incoming.version,
    method: incoming.method,
    target: incoming.target,
    status,
    body: JSON.parse(text),
  });
}
