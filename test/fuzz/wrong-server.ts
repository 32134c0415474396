/**
 * A deliberately wrong store admin server for the fuzzer's tests: the data-backed mock engine, right
 * everywhere but in four planted faults the fuzzer must find (and nothing else):
 *
 * - `crash`: `GET /subscriptions/` (2024-04-01) answers 500 when `status` includes `paused`;
 * - `enum`: `GET /fulfillment-orders/` does not check `status`: unknown values are dropped, not refused;
 * - `schema`: `GET /store/` (2024-04-01) answers `name` as a number;
 * - `readBack`: `PATCH /tickets/{id}/` answers the change but does not keep it (the next read shows
 *   the old record).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VERSION_HEADER } from '../../src/contract/index.ts';
import { createMockEngine } from '../../src/mock/index.ts';

/** Each planted fault, as the fuzzer must report it. */
export const FAULTS = {
  crash: { operation: 'listSubscriptions', version: '2024-04-01', check: '5xx' },
  enum: { operation: 'listFulfillmentOrders', version: '2024-04-01', check: 'accepted', kind: 'enum' },
  schema: { operation: 'getStore', version: '2024-04-01', check: 'schema' },
  readBack: { operation: 'updateTicket', version: '2024-04-01', check: 'read-back' },
} as const;

const FULFILLMENT_STATUSES = ['not_required', 'open', 'processing', 'on_hold', 'incomplete', 'closed', 'canceled'];

async function answer(engine: ReturnType<typeof createMockEngine>, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const version = request.headers.get(VERSION_HEADER) ?? '2024-04-01';
  if (request.method === 'GET' && url.pathname === '/subscriptions/' && version === '2024-04-01') {
    if (url.searchParams.getAll('status').includes('paused')) return new Response('{"detail":"boom"}', { status: 500 });
  }
  if (request.method === 'GET' && url.pathname === '/fulfillment-orders/') {
    const kept = url.searchParams.getAll('status').filter((s) => FULFILLMENT_STATUSES.includes(s));
    url.searchParams.delete('status');
    for (const status of kept) url.searchParams.append('status', status);
    return engine.handle(new Request(url, request));
  }
  if (request.method === 'GET' && url.pathname === '/store/' && version === '2024-04-01') {
    const response = await engine.handle(request);
    if (response.status !== 200) return response;
    const body = await response.json();
    body[0].name = 42;
    return new Response(JSON.stringify(body), { status: 200, headers: response.headers });
  }
  if (request.method === 'PATCH' && /^\/tickets\/[^/]+\/$/.test(url.pathname) && request.headers.has('authorization')) {
    // Answered from a throwaway copy of the store: the caller's own record never changes.
    const headers = new Headers(request.headers);
    headers.set('Authorization', `Bearer scratch-${Math.random()}`);
    return engine.handle(new Request(request, { headers }));
  }
  return engine.handle(request);
}

async function toRequest(incoming: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  return new Request(`${origin}${incoming.url ?? '/'}`, { method: incoming.method ?? 'GET', headers, body });
}

async function send(response: ServerResponse, answered: Response): Promise<void> {
  const text = await answered.text();
  response.writeHead(answered.status, Object.fromEntries(answered.headers));
  response.end(text);
}

export async function startWrongFuzzServer(): Promise<{ url: string; close(): Promise<void> }> {
  const engine = createMockEngine();
  let origin = '';
  const server = createServer((incoming, response) => {
    toRequest(incoming, origin)
      .then((request) => answer(engine, request))
      .then((answered) => send(response, answered))
      .catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
