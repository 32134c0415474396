/**
 * The upstream side of the proxy: where a request goes (the upstream's base path + the request's
 * path and query), which headers travel (all of the client's, `Authorization` and the version header
 * included, minus hop-by-hop ones and `Accept-Encoding`, so the body arrives readable for validation),
 * and the one outgoing request, on a keep-alive agent. Redirects are never followed: node:http hands
 * the 3xx back, and the proxy passes it to the client as is.
 */
import { type ClientRequest, Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';

/** Headers that describe one connection, never forwarded (RFC 9110 §7.6.1). */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

/** Node's raw header lines (`rawHeaders`: name, value, name, value…), or a flat list of them to send. */
export type RawHeaders = string[];

/** The value of header `lower` (a lower-case name) in raw header lines: the first one. */
export function rawHeader(raw: readonly string[], lower: string): string | undefined {
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length === lower.length && name.toLowerCase() === lower) return raw[i + 1];
  }
  return undefined;
}

/** What becomes of a header line at this hop: passed on, dropped, or dropped and read (`Connection`). */
type Verdict = 'pass' | 'drop' | 'connection';

/** Header names whose verdict a filter remembers (as sent: `Content-Type` and `content-type` are two). */
const REMEMBERED_NAMES = 256;

/**
 * A filter of the lines of `raw` that travel past this hop, as a flat list for `writeHead` or
 * `request` (Node stores it without building a header object): none of {@link HOP_BY_HOP}, none
 * named in a `Connection` header (RFC 9110 §7.6.1: a sender lists there the headers meant for this
 * hop only), and none `drop` refuses (it is given lower-case names). Names keep their case, repeated
 * lines stay separate lines. Each name's verdict is remembered (bounded): a client or an upstream
 * sends the same names on every exchange, so no name is lower-cased and looked up twice.
 */
export function headerFilter(drop: (lower: string) => boolean = () => false): (raw: readonly string[]) => RawHeaders {
  const verdicts = new Map<string, Verdict>();
  const verdictOf = (name: string): Verdict => {
    let verdict = verdicts.get(name);
    if (verdict !== undefined) return verdict;
    const lower = name.toLowerCase();
    if (lower === 'connection') verdict = 'connection';
    else verdict = HOP_BY_HOP.has(lower) || drop(lower) ? 'drop' : 'pass';
    if (verdicts.size < REMEMBERED_NAMES) verdicts.set(name, verdict);
    return verdict;
  };
  // The names the last `Connection` value listed beyond the hop-by-hop ones: a peer sends the same
  // value every time (node's `keep-alive`), split once.
  let last: { value: string; named: string[] } = { value: '', named: [] };
  const namedBy = (value: string): string[] => {
    if (value !== last.value) last = { value, named: namedIn(value) };
    return last.named;
  };
  return (raw) => {
    const out: RawHeaders = [];
    let connection: string | undefined;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i] as string;
      const verdict = verdictOf(name);
      if (verdict === 'pass') out.push(name, raw[i + 1] as string);
      else if (verdict === 'connection')
        connection = connection === undefined ? (raw[i + 1] as string) : `${connection},${raw[i + 1]}`;
    }
    const named = connection === undefined ? [] : namedBy(connection);
    return named.length === 0 ? out : withoutNamed(out, named);
  };
}

/** The header names a `Connection` value lists, lower-cased, but the hop-by-hop ones (dropped anyway). */
function namedIn(value: string): string[] {
  return value
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '' && !HOP_BY_HOP.has(name));
}

/** The lines of `out` but those `named` (lower-case names). */
function withoutNamed(out: RawHeaders, named: string[]): RawHeaders {
  const kept: RawHeaders = [];
  for (let i = 0; i < out.length; i += 2) {
    const name = out[i] as string;
    if (!named.includes(name.toLowerCase())) kept.push(name, out[i + 1] as string);
  }
  return kept;
}

/** Methods whose request announces no body when it has none (every other one says `Content-Length: 0`). */
const BODILESS_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE']);

/** One request to the upstream: its method and target, the client's raw header lines, the body read. */
export interface UpstreamCall {
  method: string;
  target: string;
  rawHeaders: readonly string[];
  body: Uint8Array;
}

export interface Upstream {
  /** The base URL without credentials, query or trailing slash: what messages and reports name. */
  readonly name: string;
  /** The URL a request target (an origin-form path and query, `/tickets/7/?x=1`) goes to. */
  urlOf(target: string): URL;
  /**
   * Sends one request (`call.rawHeaders`: the client's raw header lines); `onAnswer` gets the status and
   * headers, `onError` a failure to reach the upstream. The request is returned, to cancel it.
   */
  send(
    call: UpstreamCall,
    handlers: { onAnswer: (answer: IncomingMessage) => void; onError: (error: Error) => void },
  ): ClientRequest;
  close(): void;
}

export function parseUpstream(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TypeError(`--upstream must be an absolute http(s) URL, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`--upstream must be an http or https URL, got "${url.protocol}"`);
  }
  return url;
}

/** The client's lines for the upstream: `Accept-Encoding` is not forwarded (the body must arrive readable for validation). */
const forUpstream = headerFilter((lower) => lower === 'accept-encoding');

/** Node's margin before a server's announced keep-alive timeout (HTTP_AGENT_KEEP_ALIVE_TIMEOUT_BUFFER). */
const KEEP_ALIVE_MARGIN_MS = 1000;

/**
 * The agent's `keepSocketAlive` (an override node:http documents), as node's own does it: a socket
 * goes back to the pool with the agent's timeout (none by default), shortened to 1 s before the
 * `Keep-Alive: timeout=N` the upstream announced, and is not kept when that leaves nothing. The
 * hint is read from the answer's raw lines: node's own reads `res.headers`, which builds the answer's
 * header object for that one line on every exchange (the proxy builds none).
 */
function keepSocketAlive(this: { keepAliveMsecs: number; options: { timeout?: number } }, socket: Socket): boolean {
  socket.setKeepAlive(true, this.keepAliveMsecs);
  socket.unref();
  let timeout = this.options.timeout || 0;
  // The request the socket carried, as node's agent reads it (an internal field: absent, no hint).
  const answer = (socket as Socket & { _httpMessage?: { res?: IncomingMessage } })._httpMessage?.res;
  const hint = answer && rawHeader(answer.rawHeaders, 'keep-alive');
  const seconds = hint ? /^timeout=(\d+)/.exec(hint)?.[1] : undefined;
  if (seconds !== undefined) {
    const hinted = Number.parseInt(seconds, 10) * 1000 - KEEP_ALIVE_MARGIN_MS;
    if (hinted <= 0) return false;
    if (hinted < timeout) timeout = hinted;
  }
  if (socket.timeout !== timeout) socket.setTimeout(timeout);
  return true;
}

export function createUpstream(base: URL): Upstream {
  const basePath = base.pathname.replace(/\/+$/, '');
  const secure = base.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  agent.keepSocketAlive = keepSocketAlive;
  const request = secure ? httpsRequest : httpRequest;
  const name = `${base.protocol}//${base.host}${basePath}`;
  const hostname = base.hostname.replace(/^\[|\]$/g, '');
  const port = base.port || (secure ? 443 : 80);
  const urlOf = (target: string) => new URL(`${basePath}${target}`, `${base.protocol}//${base.host}`);
  return {
    name,
    urlOf,
    send({ method, target, rawHeaders, body }, { onAnswer, onError }) {
      const outgoing = forUpstream(rawHeaders);
      outgoing.push('Host', base.host);
      if (body.length > 0 || !BODILESS_METHODS.has(method)) outgoing.push('Content-Length', String(body.length));
      // Options, not a URL object, and the headers as a flat list: this runs once per exchange.
      const options = { hostname, port, path: `${basePath}${target}`, method, headers: outgoing, agent };
      const outgoingRequest = request(options, onAnswer);
      outgoingRequest.on('error', onError);
      outgoingRequest.end(body.length > 0 ? body : undefined);
      return outgoingRequest;
    },
    close: () => agent.destroy(),
  };
}
