/**
 * A child process of deadline.test.ts (run with `node --expose-gc --import tsx`): one call with
 * `timeout: 500` to a node:http server that trickles its answer, before its headers
 * (`headers`) or inside its body (`body`), with a forced garbage collection every 20 ms. Prints
 * `{"outcome": <the call's error name, or answered / pending>, "ms": <until settled>}`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdminClient } from '../../src/client/index.ts';

const phase = process.argv[2] === 'headers' ? 'headers' : 'body';
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const server = createServer((_, response) => {
  if (phase === 'body') response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 1000 });
  const timer = setInterval(() => {
    if (response.destroyed) clearInterval(timer);
    else if (phase === 'body') response.write(' ');
  }, 50);
});
server.listen(0, '127.0.0.1', async () => {
  const { port } = server.address() as AddressInfo;
  const client = createAdminClient({ baseUrl: `http://127.0.0.1:${port}`, token: 't', retry: false, timeout: 500 });
  const collecting = setInterval(gc, 20);
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
  console.log(JSON.stringify({ outcome, ms: Math.round(performance.now() - started) }));
  clearInterval(collecting);
  server.closeAllConnections();
  server.close();
});
