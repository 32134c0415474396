/**
 * The upstream side of the proxy: where a request goes (the upstream's base path + the request's
 * path and query), which headers travel (all of the client's, `Authorization` and the version header
 * included, minus hop-by-hop ones and `Accept-Encoding`, so the body arrives readable for validation),
 * and the one outgoing request, on a keep-alive agent. Redirects are never followed: node:http hands
 * the 3xx back, and the proxy passes it to the client as is.
 */
import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

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

/**
 * The headers of `headers` that travel past this hop: none of {@link HOP_BY_HOP}, none named in its
 * `Connection` header (RFC 9110 §7.6.1: a sender lists there the headers meant for this hop only),
 * and none of `drop`.
 */
export function endToEnd(
  headers: IncomingHttpHeaders,
  drop: (name: string) => boolean = () => false,
): Record<string, string | string[]> {
  const connection = headers.connection;
  // Most requests name no header in `Connection`: no set is built for them (this runs twice per exchange).
  const named =
    connection === undefined
      ? undefined
      : new Set(
          (Array.isArray(connection) ? connection.join(',') : connection)
            .split(',')
            .map((name) => name.trim().toLowerCase())
            .filter(Boolean),
        );
  const out: Record<string, string | string[]> = {};
  for (const header in headers) {
    const value = headers[header];
    if (value === undefined || HOP_BY_HOP.has(header) || named?.has(header) || drop(header)) continue;
    out[header] = value;
  }
  return out;
}

export interface Upstream {
  /** The base URL without credentials, query or trailing slash: what messages and reports name. */
  readonly name: string;
  /** The URL a request target (an origin-form path and query, `/tickets/7/?x=1`) goes to. */
  urlOf(target: string): URL;
  /** Sends one request: `request` to cancel it (destroy), `answer` once the status and headers came. */
  send(
    method: string,
    target: string,
    headers: IncomingHttpHeaders,
    body: Uint8Array,
  ): { request: ClientRequest; answer: Promise<IncomingMessage> };
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

export function createUpstream(base: URL): Upstream {
  const basePath = base.pathname.replace(/\/+$/, '');
  const secure = base.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const request = secure ? httpsRequest : httpRequest;
  const name = `${base.protocol}//${base.host}${basePath}`;
  const hostname = base.hostname.replace(/^\[|\]$/g, '');
  const port = base.port || (secure ? 443 : 80);
  const urlOf = (target: string) => new URL(`${basePath}${target}`, `${base.protocol}//${base.host}`);
  return {
    name,
    urlOf,
    send(method, target, headers, body) {
      const outgoing = endToEnd(headers, (header) => header === 'accept-encoding');
      outgoing.host = base.host;
      if (body.length > 0 || !['GET', 'HEAD', 'OPTIONS', 'DELETE'].includes(method)) {
        outgoing['content-length'] = String(body.length);
      }
      // Options, not a URL object: this runs once per exchange.
      const options = { hostname, port, path: `${basePath}${target}`, method, headers: outgoing, agent };
      const outgoingRequest = request(options);
      const answer = new Promise<IncomingMessage>((resolve, reject) => {
        outgoingRequest.once('response', resolve);
        outgoingRequest.once('error', reject);
      });
      outgoingRequest.end(body.length > 0 ? body : undefined);
      return { request: outgoingRequest, answer };
    },
    close: () => agent.destroy(),
  };
}
