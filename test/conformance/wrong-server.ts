/**
 * A deliberately wrong store admin server for the conformance runner's tests: it answers most
 * operations with the contract's own examples (so they pass), and breaks the contract in known
 * ways on a few. Records the paths it was asked for.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deref, type Json, loadBundles, VERSION_HEADER } from '../../src/contract/index.ts';
import { templateToRegExp } from '../../src/mock/index.ts';

/** The defects, as the runner must report them: operation, version, field, rule. */
export const DEFECTS = [
  { operation: 'getStore', version: '2024-04-01', field: 'body[0].name', rule: 'type' },
  { operation: 'getStore', version: '2024-04-01', field: 'body[0].timezone', rule: 'required' },
  { operation: 'listSubscriptions', version: '2023-02-10', field: 'body.results[0].is_tax_known', rule: 'required' },
  {
    operation: 'listSubscriptions',
    version: '2023-02-10',
    field: 'body.results[0].lines[0].stockrecord',
    rule: 'required',
  },
  { operation: 'getTicket', version: 'unstable', field: 'status', rule: 'status' },
  { operation: 'getStockRecord', version: '2023-02-10', field: 'header.Content-Type', rule: 'content-type' },
  { operation: 'getOrderFulfillments', version: '2023-02-10', field: 'body', rule: 'json' },
  { operation: 'listFulfillmentOrders', version: '2024-04-01', field: 'header.Authorization', rule: 'security' },
  { operation: 'listSubscriptionTransactions', version: '2024-04-01', field: 'body.results[0].amount', rule: 'type' },
] as const;

const bundles = loadBundles();
const routes = bundles.flatMap((bundle) =>
  bundle.operations.map((operation) => {
    const media = deref(bundle.document, operation.operation.responses['200']).content['application/json'];
    const first = deref(bundle.document, Object.values<Json>(media.examples)[0]).value;
    return { ...operation, pattern: templateToRegExp(operation.path), example: first as Json };
  }),
);

function send(response: ServerResponse, status: number, body: string, type = 'application/json') {
  response.writeHead(status, { 'Content-Type': type });
  response.end(body);
}

export async function startWrongServer(): Promise<{ url: string; requested: string[]; close(): Promise<void> }> {
  const requested: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    const url = new URL(request.url ?? '/', 'http://x');
    requested.push(`${request.method} ${url.pathname}`);
    const version = request.headers[VERSION_HEADER.toLowerCase()];
    const route = routes.find(
      (r) => r.method === request.method?.toLowerCase() && r.pattern.test(url.pathname) && r.version === version,
    );
    if (!route) return send(response, 404, '{"detail":"not found"}');
    const authorized = /^Bearer \S+/.test(request.headers.authorization ?? '');
    if (!authorized && route.operationId !== 'listFulfillmentOrders') return send(response, 401, '');
    const example = structuredClone(route.example);
    switch (`${route.operationId} ${route.version}`) {
      case 'getStore 2024-04-01':
        example[0].name = 42;
        delete example[0].timezone;
        return send(response, 200, JSON.stringify(example));
      case 'listSubscriptions 2023-02-10': {
        // answers the 2024-04-01 shape under the older version
        const newer = routes.find((r) => r.operationId === 'listSubscriptions' && r.version === '2024-04-01');
        return send(response, 200, JSON.stringify(newer?.example));
      }
      case 'getTicket unstable':
        return send(response, 404, '{"detail":"Not found."}');
      case 'getStockRecord 2023-02-10':
        return send(response, 200, '<html>stock</html>', 'text/html');
      case 'getOrderFulfillments 2023-02-10':
        return send(response, 200, '{"id": 1,');
      case 'listSubscriptionTransactions 2024-04-01':
        example.results[0].amount = 49.9;
        return send(response, 200, JSON.stringify(example));
      default:
        return send(response, 200, JSON.stringify(example));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requested,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
