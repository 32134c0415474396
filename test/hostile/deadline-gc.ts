/**
 * A child process of deadline.test.ts (run with `node --expose-gc`, bundled by test/setup/cli.ts): a call with
 * `timeout: 500` to a node:http server that trickles its answer, first before its headers, then
 * inside its body, with a forced garbage collection every 20 ms. Prints one JSON line per phase:
 * `{"phase", "outcome": <the call's error name, or answered / pending>, "ms": <until settled>}`.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdminClient } from '../../src/client/index.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

let phase: 'headers' | 'body' = 'headers';
function trickle(response: ServerResponse) {
  if (phase === 'body') response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 1000 });
  const timer = setInterval(() => {
    if (response.destroyed) clearInterval(timer);
    else if (phase === 'body') response.write(' ');
  }, 50);
}

async function call(client: ReturnType<typeof createAdminClient>) {
  const collecting = setInterval(gc as () => void, 20);
  const started = performance.now();
  let pending: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    client.GET('/store/').then(
      () => 'answered',
      (error: Error) => error.name,
    ),
    new Promise((resolve) => {
      pending = setTimeout(resolve, 5000, 'pending');
    }),
  ]);
  clearTimeout(pending);
  clearInterval(collecting);
  console.log(JSON.stringify({ phase, outcome, ms: Math.round(performance.now() - started) }));
}

const server = createServer((_, response) => trickle(response));
server.listen(0, '127.0.0.1', async () => {
  const { port } = server.address() as AddressInfo;
  const client = createAdminClient({ baseUrl: `http://127.0.0.1:${port}`, token: 't', retry: false, timeout: 500 });
  await call(client);
  phase = 'body';
  await call(client);
  server.closeAllConnections();
  server.close();
});
