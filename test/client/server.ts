/**
 * A tiny node:http server for the client's runtime tests: it records every request and answers
 * with the test's handler (JSON by default).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  /** Path and query, e.g. `/subscriptions/?status=active`. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Handler = (request: Recorded, response: ServerResponse, index: number) => void | Promise<void>;

export interface TestServer {
  url: string;
  requests: Recorded[];
  /** Replaces the handler (requests stay recorded). */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = body === undefined ? '' : JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

export async function startServer(handler: Handler = (_, response) => json(response, 200, {})): Promise<TestServer> {
  let current = handler;
  const requests: Recorded[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const recorded: Recorded = {
        method: request.method ?? '',
        url: request.url ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      try {
        await current(recorded, response, requests.length - 1);
      } catch (error) {
        if (!response.headersSent) json(response, 500, { error: String(error) });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
