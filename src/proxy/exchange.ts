/**
 * One exchange through the proxy, as named stages: route and check the request (./check.ts), refuse
 * it under `--strict`, forward it (./upstream.ts), stream the answer back while keeping a copy of a
 * JSON body, then check the response, record it and count it. Upstream faults become the mock's
 * problem bodies: 502 naming the upstream (unreachable, or an answer over the size bound), 504 after
 * the upstream timeout. An upstream 5xx or 3xx is passed through as is (a redirect is never followed).
 *
 * `X-Contract-Violations` is a header giving the exchange's total: an answer up to `heldBytes` (256
 * KiB by default: any ticket, page or record) is held whole, checked, then sent in one write with
 * its Content-Length. A longer one is streamed as it comes (backpressure kept): its header counts
 * the request's violations (known before the answer starts) and a trailer gives the total. The
 * report and the log always have every violation.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { VERSION_HEADER } from '../contract/index.ts';
import {
  corsHeaders,
  isJsonMediaType,
  MAX_BODY_BYTES,
  type Problem,
  parseTarget,
  type Refusal,
  readNodeBody,
  refusal,
  routeRefusal,
  summarize,
  VIOLATIONS_HEADER,
} from '../http/index.ts';
import type { CheckedResponse, ExchangeChecker, ExchangeViolation, Route } from './check.ts';
import { routeViolation } from './check.ts';
import type { Deferred } from './deferred.ts';
import type { Recorder } from './recorder.ts';
import type { ExchangeOutcome } from './report.ts';
import { headerFilter, rawHeader, type Upstream } from './upstream.ts';

export { VIOLATIONS_HEADER };

export interface ExchangeContext {
  checker: ExchangeChecker;
  upstream: Upstream;
  strict: boolean;
  timeoutMs: number;
  maxResponseBytes: number;
  /** Answers up to this many bytes are held and sent whole, the total in the header; longer ones stream. */
  heldBytes: number;
  recorder?: Recorder;
  /** Where the recording of an answered exchange waits, off the request path (./deferred.ts). */
  deferred: Deferred;
}

/** The default of {@link ExchangeContext.heldBytes}. */
export const HELD_BYTES = 256 * 1024;

const EMPTY = Buffer.alloc(0);

interface Incoming {
  method: string;
  target: string;
  pathname: string;
  operation: string;
  version: string;
  route?: Route;
  request: ExchangeViolation[];
  /** The request's body as read, forwarded as it came. */
  body: Buffer;
}

/** The version header's name as node:http keys it (lower case), worked out once. */
const VERSION_KEY = VERSION_HEADER.toLowerCase();

/** A request header by its node:http key (lower case): repeated ones joined. */
const headerOf = (request: IncomingMessage, key: string): string | undefined => {
  const value = request.headers[key];
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

type Target = { target: string; pathname: string; searchParams: URLSearchParams };

/**
 * The request target as a path and query under the upstream's root: an origin-form one (`/x?y`) as the
 * mock reads it, an absolute-form one (`http://other:6299/x?y`, from a client that knows it talks to
 * a proxy) reduced to its path and query, so its host never reaches the upstream. Undefined for
 * anything else (`*`, an authority, garbage).
 */
function targetOf(raw: string): Target | undefined {
  if (raw.startsWith('/')) {
    const { pathname, searchParams } = parseTarget(raw);
    return { target: raw, pathname, searchParams };
  }
  if (!/^https?:\/\//i.test(raw) || !URL.canParse(raw)) return undefined;
  const url = new URL(raw);
  return { target: `${url.pathname}${url.search}`, pathname: url.pathname, searchParams: url.searchParams };
}

/** The methods the contract knows, for `OPTIONS *` (a question about the server, not a resource). */
const SERVER_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

/** A target that is not a path under the upstream: `OPTIONS *` answered here, anything else 400. */
function answerOddTarget(request: IncomingMessage, response: ServerResponse): ExchangeOutcome {
  const outcome = { operation: '(unrouted)', version: '-', request: [], response: [] };
  if (request.method === 'OPTIONS' && request.url === '*') {
    response.writeHead(204, { Allow: SERVER_METHODS, 'Content-Length': '0' });
    response.end();
    return { ...outcome, status: 204 };
  }
  const detail = 'The proxy forwards a path (origin form, /…) or an http(s) URL (absolute form) only.';
  sendProblem(request, response, refusal('badRequest', detail).body, { Connection: 'close' });
  return { ...outcome, status: 400, kind: 'refused' };
}

/** Stage 1: which operation and version, and what the request breaks. */
function describe(context: ExchangeContext, request: IncomingMessage, body: Buffer, url: Target): Incoming {
  const method = request.method ?? 'GET';
  const target = url.target;
  const versionHeader = headerOf(request, VERSION_KEY);
  const route = context.checker.route(method, url.pathname, versionHeader);
  if (route.kind !== 'matched') {
    const base = {
      method,
      target,
      pathname: url.pathname,
      operation: '(unrouted)',
      version: versionHeader?.trim() || '-',
      body,
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
    body,
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

/** What the server does once an exchange ends: count it (its answer sent), or answer the proxy's own failure. */
export interface ExchangeEnds {
  done(client: Client, outcome: ExchangeOutcome): void;
  fail(client: Client, error: Error): void;
}

/** The client's request, the response the proxy answers it on, and when it came (for the log; 0 untimed). */
export interface Client {
  request: IncomingMessage;
  response: ServerResponse;
  started: number;
}

/**
 * Handles one request; `ends.done` gets what the report counts, at once when the exchange ended
 * without waiting (a refusal), else once the answer is sent; `ends.fail` the proxy's own failure
 * after this returned (a throw before it returns is the caller's). Callbacks, not promises: a
 * promise exists only while a request's body is still coming.
 */
export function handleExchange(context: ExchangeContext, client: Client, ends: ExchangeEnds): void {
  const read = readNodeBody(client.request);
  if (read instanceof Promise)
    read.then((body) => withBody(context, client, body, ends)).catch((error: Error) => ends.fail(client, error));
  else withBody(context, client, read, ends);
}

/** The exchange once the request's body is read: answered here (refused, or not a path), or forwarded. */
function withBody(context: ExchangeContext, client: Client, body: Buffer | 'too-large', ends: ExchangeEnds): void {
  const settled = body === 'too-large' ? tooLarge(client) : answerOrDescribe(context, client, body);
  if ('status' in settled) ends.done(client, settled);
  else forward(context, client, settled, ends);
}

/** A body over MAX_BODY_BYTES: not forwarded (the mock refuses such a body too), a 413 problem. */
function tooLarge({ request, response }: Client): ExchangeOutcome {
  const detail = `The proxy forwards bodies up to ${MAX_BODY_BYTES} bytes.`;
  sendProblem(request, response, refusal('tooLarge', detail).body, { Connection: 'close' });
  return { operation: '(unrouted)', version: '-', status: 413, request: [], response: [], kind: 'refused' };
}

/** What the proxy answers itself (a target that is not a path, a `--strict` refusal), or the request to forward. */
function answerOrDescribe(context: ExchangeContext, client: Client, body: Buffer): ExchangeOutcome | Incoming {
  const { request, response } = client;
  const url = targetOf(request.url ?? '/');
  if (!url) return answerOddTarget(request, response);
  const incoming = describe(context, request, body, url);
  if (!context.strict || incoming.request.length === 0) return incoming;
  const refused = strictRefusal(context, incoming, headerOf(request, VERSION_KEY));
  sendProblem(request, response, refused.body, {
    ...refused.headers,
    [VIOLATIONS_HEADER]: String(incoming.request.length),
  });
  const { operation, version } = incoming;
  return { operation, version, request: incoming.request, response: [], status: refused.body.status, kind: 'refused' };
}

/** How the answer goes back: held and sent whole, streamed with a trailer, or without a body. */
type Delivery = { kind: 'held'; length: number } | { kind: 'streamed' } | { kind: 'bodyless' };

const VIOLATIONS_KEY = VIOLATIONS_HEADER.toLowerCase();
/** The upstream's lines for the client: never its CORS ones (the proxy answers CORS as the mock does) nor its own count. */
const forClient = headerFilter((lower) => lower.startsWith('access-control-') || lower === VIOLATIONS_KEY);

/** The mock's CORS headers as raw lines, for the origin asked last (a page sends one, every time): built once. */
let cors: { origin: string | undefined; lines: string[] } | undefined;
function corsLines(origin: string | undefined): string[] {
  if (cors === undefined || cors.origin !== origin)
    cors = { origin, lines: Object.entries(corsHeaders(origin)).flat() };
  return cors.lines;
}

/** The upstream's headers for the client (a flat list): hop-by-hop and CORS ones replaced by the mock's own. */
function headersFor(request: IncomingMessage, upstream: IncomingMessage, violations: number, delivery: Delivery) {
  const headers = forClient(upstream.rawHeaders);
  const length = delivery.kind === 'bodyless' ? rawHeader(upstream.rawHeaders, 'content-length') : undefined;
  if (length !== undefined) headers.push('Content-Length', length);
  if (delivery.kind === 'held') headers.push('Content-Length', String(delivery.length));
  for (const line of corsLines(headerOf(request, 'origin'))) headers.push(line);
  headers.push(VIOLATIONS_HEADER, String(violations));
  if (delivery.kind === 'streamed') headers.push('Trailer', VIOLATIONS_HEADER);
  return headers;
}

/** An upstream answer read to its end: held whole (within `heldBytes`) or already streamed to the client. */
interface Relayed {
  answer: IncomingMessage;
  status: number;
  contentType: string | undefined;
  /** The whole answer when it was held (not yet sent); undefined once streamed. */
  held: Buffer | undefined;
  /** The whole of a JSON answer (the same bytes when held: one copy, parsed once by the check); empty otherwise. */
  bytes: Buffer;
}

/** An exchange while the upstream has it: how it failed, when it did, and whether it has ended (it ends once). */
interface Flight {
  timedOut: boolean;
  /** The length an answer declared over the bound (it is not read at all). */
  declared: string | undefined;
  ended: boolean;
  timer: NodeJS.Timeout | undefined;
  /** The error the upstream request failed with, if any. */
  error: Error | undefined;
}

/**
 * Stage 3: sends the request upstream (./upstream.ts) and reads its answer ({@link relay}), which
 * ends the exchange once: checked, sent, recorded and counted ({@link deliver}), or a failure
 * ({@link failed}: unreachable, timed out, over the bound, cut). A throw there is the proxy's own
 * failure (`ends.fail`). Callbacks, no promise: this runs for every exchange.
 */
function forward(context: ExchangeContext, client: Client, incoming: Incoming, ends: ExchangeEnds): void {
  const { request, response } = client;
  const flight: Flight = { timedOut: false, declared: undefined, ended: false, timer: undefined, error: undefined };
  const end = (relayed: Relayed | undefined, error?: Error) => {
    if (flight.ended) return;
    flight.ended = true;
    flight.error = error;
    clearTimeout(flight.timer);
    let outcome: ExchangeOutcome;
    try {
      outcome = relayed ? deliver(context, client, incoming, relayed) : failed(context, client, incoming, flight);
    } catch (thrown) {
      return ends.fail(client, thrown as Error);
    }
    ends.done(client, outcome);
  };
  const call = {
    method: incoming.method,
    target: incoming.target,
    rawHeaders: request.rawHeaders,
    body: incoming.body,
  };
  const outgoing = context.upstream.send(call, {
    onAnswer: (answer) => {
      const declared = rawHeader(answer.rawHeaders, 'content-length');
      if (Number(declared) > context.maxResponseBytes) {
        flight.declared = declared;
        answer.destroy();
        return end(undefined, new Error('declared over the bound'));
      }
      relay(answer, client, context, { incoming, end });
    },
    onError: (error) => end(undefined, error),
  });
  flight.timer = setTimeout(() => {
    flight.timedOut = true;
    outgoing.destroy(new Error('upstream timeout'));
  }, context.timeoutMs);
  // A client that goes away cancels the upstream request (which ends the exchange).
  response.on('close', () => {
    clearTimeout(flight.timer);
    if (!response.writableFinished) outgoing.destroy();
  });
}

/** The answer read: checked, sent (held: whole, the total in the header; streamed: the total in the trailer), recorded. */
function deliver(context: ExchangeContext, client: Client, incoming: Incoming, relayed: Relayed): ExchangeOutcome {
  const { request, response } = client;
  const { answer, status, contentType } = relayed;
  const bodyless = incoming.method === 'HEAD' || status === 204 || status === 304;
  const checked: CheckedResponse = incoming.route
    ? context.checker.checkResponse(incoming.route, status, contentType ?? null, relayed.bytes)
    : { violations: [] };
  const total = incoming.request.length + checked.violations.length;
  if (relayed.held) {
    const delivery: Delivery = bodyless ? { kind: 'bodyless' } : { kind: 'held', length: relayed.held.length };
    response.writeHead(status, headersFor(request, answer, total, delivery));
    response.end(bodyless ? undefined : relayed.held);
  } else {
    response.addTrailers({ [VIOLATIONS_HEADER]: String(total) });
    response.end();
  }
  const recorder = context.recorder;
  if (recorder)
    context.deferred.add(() => record(recorder, incoming, { status, contentType, bytes: relayed.bytes }, checked));
  const { operation, version } = incoming;
  return { operation, version, request: incoming.request, status, response: checked.violations };
}

/** An answer declared longer than the proxy's bound: the 502 problem sent instead. */
function overBound(context: ExchangeContext, declared: string): Problem {
  const detail = `The upstream ${context.upstream.name} answered ${declared} bytes, over the proxy's bound of ${context.maxResponseBytes}.`;
  return refusal('upstreamTooLarge', detail).body;
}

/** The upstream failed (unreachable, timed out, cut, over the bound): a 502/504 problem, or a cut answer once streaming. */
function failed(context: ExchangeContext, client: Client, incoming: Incoming, flight: Flight): ExchangeOutcome {
  const { request, response } = client;
  const { timedOut, declared, error } = flight;
  const name = context.upstream.name;
  const base = { operation: incoming.operation, version: incoming.version, request: incoming.request, response: [] };
  if (response.headersSent) {
    // Streaming had started: the client sees the answer cut.
    response.destroy();
    return { ...base, status: timedOut ? 504 : 502, kind: timedOut ? 'timeout' : 'unreachable' };
  }
  if (declared !== undefined) {
    sendProblem(request, response, overBound(context, declared));
    return { ...base, status: 502, kind: 'unreachable' };
  }
  if (timedOut) {
    const detail = `The upstream ${name} did not answer within ${context.timeoutMs} ms (--upstream-timeout).`;
    sendProblem(request, response, refusal('gatewayTimeout', detail).body);
    return { ...base, status: 504, kind: 'timeout' };
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? error?.message;
  sendProblem(request, response, refusal('badGateway', `The upstream ${name} could not be reached (${code}).`).body);
  return { ...base, status: 502, kind: 'unreachable' };
}

/**
 * Reads the answer: held whole while it stays within `heldBytes`; past that, the headers go to the
 * client (the request's count in `X-Contract-Violations`, the total to come in the trailer) and the
 * answer is copied as it comes (backpressure kept). `end` gets the held bytes (none once streamed)
 * and the whole of a JSON answer, or the failure (an error, or the answer cut).
 */
function relay(
  answer: IncomingMessage,
  client: Client,
  context: ExchangeContext,
  flight: { incoming: Incoming; end: (relayed: Relayed | undefined, error?: Error) => void },
): void {
  const { request, response } = client;
  const { incoming, end } = flight;
  const contentType = rawHeader(answer.rawHeaders, 'content-type');
  const keep = isJsonMediaType(contentType);
  const chunks: Buffer[] = [];
  let size = 0;
  let streaming = false;
  answer.on('data', (chunk: Buffer) => {
    size += chunk.length;
    // The client's bound (MAX_RESPONSE_BYTES): beyond it the answer is cut, never buffered.
    if (size > context.maxResponseBytes)
      return answer.destroy(new Error(`the upstream answer exceeds ${context.maxResponseBytes} bytes`));
    if (!streaming && size <= context.heldBytes) return chunks.push(chunk);
    if (!streaming) {
      // Longer than what is held: the headers go now, then what was held.
      streaming = true;
      const status = answer.statusCode ?? 502;
      response.writeHead(status, headersFor(request, answer, incoming.request.length, { kind: 'streamed' }));
      for (const held of chunks) response.write(held);
      if (!keep) chunks.length = 0;
    }
    if (keep) chunks.push(chunk);
    if (!response.write(chunk)) {
      answer.pause();
      response.once('drain', () => answer.resume());
    }
  });
  answer.on('end', () => {
    const whole = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    const status = answer.statusCode ?? 502;
    end({ answer, status, contentType, held: streaming ? undefined : whole, bytes: keep ? whole : EMPTY });
  });
  answer.on('error', (error) => end(undefined, error));
  // Destroyed without an error (the client left, the timeout): no 'end' will come.
  answer.on('close', () => {
    if (!answer.complete) end(undefined, new Error('the upstream answer was cut'));
  });
}

/**
 * Stage 4 (`--record`, after the answer is sent): a 2xx JSON answer of a known operation goes to the
 * recording, as the check parsed it (parsed here only when no schema applied).
 */
function record(
  recorder: Recorder,
  incoming: Incoming,
  answer: { status: number; contentType: string | undefined; bytes: Buffer },
  checked: CheckedResponse,
): void {
  const { status, contentType, bytes } = answer;
  if (!incoming.route || status < 200 || status > 299 || !isJsonMediaType(contentType)) return;
  if (checked.violations.some((v) => v.rule === 'json')) return;
  let body: unknown;
  try {
    body = checked.parsed ? checked.parsed.value : JSON.parse(bytes.toString('utf8'));
  } catch {
    return;
  }
  recorder.add(
    {
      operation: incoming.operation,
      version: incoming.version,
      method: incoming.method,
      target: incoming.target,
      status,
      body,
    },
    bytes.length,
  );
}
