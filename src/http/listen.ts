/**
 * A node:http server's life, for the mock's server (src/mock), `--static` (through it) and the proxy
 * (src/proxy): the timeouts that bound a slow client, the answer to a request Node could not read,
 * and listening. Only types are imported from node: (the module stays loadable anywhere).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { refusal } from './catalogue.ts';

/**
 * How long a client may take, so a slow or idle one cannot hold a socket open (issue #21):
 * - `headersMs`: to send the request line and headers (Node's `headersTimeout`): 408 beyond;
 * - `requestMs`: to send the whole request, body included (Node's `requestTimeout`): 408 beyond;
 * - `keepAliveMs`: an idle keep-alive connection is closed after it (Node's `keepAliveTimeout`).
 */
export interface ServerTimeouts {
  headersMs: number;
  requestMs: number;
  keepAliveMs: number;
}

/**
 * A mock on a developer's machine or in CI answers in milliseconds and receives at most a 1 MiB
 * body: 10 s for the headers and 30 s for a whole request are generous for any honest client on a
 * slow link, and end a trickling one's hold long before Node's defaults (60 s and 300 s, checked
 * only every 30 s). 5 s keep-alive is Node's default, kept.
 */
export const DEFAULT_TIMEOUTS: ServerTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 };

/** Node's server options: the timeouts (DEFAULT_TIMEOUTS unless given) and how often they are checked . */
export function serverOptionsOf(given: Partial<ServerTimeouts> = {}) {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...given };
  return {
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    // Node checks the two request timeouts on this interval (30 s by default): half the shorter
    // one, so a slow client is cut off within 1.5 times its timeout.
    connectionsCheckingInterval: Math.max(10, Math.min(timeouts.headersMs, timeouts.requestMs) / 2),
  };
}

/** A request Node could not read (malformed, headers too large, too slow): a problem, then close . */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const title = status === 431 ? 'Request header fields too large' : status === 408 ? 'Request timeout' : 'Bad request';
  const problem = refusal('badRequest', `The server could not read this HTTP request (${title.toLowerCase()}).`).body;
  const body = JSON.stringify({ ...problem, status, title });
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Listens on `port` (0: a free one) and `host`; the URL, address and port it got. */
export async function listen(
  server: Server,
  port: number,
  host: string,
): Promise<{ url: string; host: string; port: number }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { url: `http://${urlHost}:${address.port}`, host: address.address, port: address.port };
}
