// A stand-in for the real API, started by the tests on port 0 under a base path (/api/admin): the
// mock engine's answers, diverging on purpose on some reads, and every request it receives kept
// (method, url, headers, body) so tests can see what the proxy forwarded.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMockEngine } from '../../src/mock/index.ts';

export const BASE_PATH = '/api/admin';

/** The divergences, by request path (under the base path). */
export const PLANTED = {
  /** An extra field the contract lacks. */
  extraField: '/tickets/7/',
  /** A wrong type: num_in_stock as a string. */
  wrongType: '/stockrecords/3/',
  /** A number outside its stated bounds (num_allocated beyond int32). */
  outOfBounds: '/stockrecords/4/',
  /** An unknown enum value: the first paused subscription is "trialing". */
  unknownEnum: '/subscriptions/?status=paused',
  /** A null: the store's name. */
  nullValue: '/store/',
  /** Answers after 2 s. */
  slow: '/tickets/8/',
  /** A 500 problem. */
  serverError: '/tickets/9/',
  /** A 302 to another host. */
  redirect: '/tickets/10/',
  /** Two Set-Cookie lines and an X-Contract-Violations of its own. */
  ownHeaders: '/tickets/11/',
} as const;

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface StandIn {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

type Json = Record<string, unknown>;
const DIVERGE: Record<string, (body: Json & Json[]) => unknown> = {
  [PLANTED.extraField]: (body) => ({ ...body, satisfaction_rating: 4 }),
  [PLANTED.wrongType]: (body) => ({ ...body, num_in_stock: String(body.num_in_stock) }),
  [PLANTED.outOfBounds]: (body) => ({ ...body, num_allocated: 2_147_483_648 }),
  [PLANTED.unknownEnum]: (body) => ({
    ...body,
    results: (body.results as Json[]).map((s, i) => (i === 0 ? { ...s, status: 'trialing' } : s)),
  }),
  [PLANTED.nullValue]: (body) => body.map((store: Json) => ({ ...store, name: null })),
};

/** Starts the stand-in; `redirectTo` is the other host a redirect points at. */
export async function startStandIn(redirectTo = 'http://other.invalid'): Promise<StandIn> {
  const engine = createMockEngine();
  const received: Received[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    received.push({ method: request.method ?? 'GET', url: request.url ?? '/', headers: request.headers, body });
    const target = (request.url ?? '/').slice(BASE_PATH.length);
    if (target === PLANTED.slow) await new Promise((done) => setTimeout(done, 6000));
    if (target === PLANTED.serverError) {
      response.writeHead(500, { 'Content-Type': 'application/json' }).end('{"error":"boom"}');
      return;
    }
    if (target === PLANTED.redirect) {
      response.writeHead(302, { Location: `${redirectTo}${PLANTED.redirect}`, 'Content-Length': '0' }).end();
      return;
    }
    const answer = await engine.handle(
      new Request(`http://stand-in.test${request.url}`, {
        method: request.method ?? 'GET',
        headers: request.headers as Record<string, string>,
        ...(body && { body }),
      }),
      { basePath: BASE_PATH },
    );
    const text = await answer.text();
    const diverge = DIVERGE[target];
    const out = diverge && answer.ok ? JSON.stringify(diverge(JSON.parse(text))) : text;
    response.writeHead(answer.status, {
      'Content-Type': answer.headers.get('Content-Type') ?? 'application/json',
      'X-Service-API-Version': answer.headers.get('X-Service-API-Version') ?? '-',
      'Access-Control-Allow-Origin': 'https://upstream-only.example',
      'Content-Length': String(Buffer.byteLength(out)),
      ...(target === PLANTED.ownHeaders && { 'Set-Cookie': ['a=1', 'b=2'], 'X-Contract-Violations': '7' }),
    });
    response.end(out);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${BASE_PATH}`,
    received,
    close: () =>
      new Promise((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
