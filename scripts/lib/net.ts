/** A TCP port on 127.0.0.1 that was free a moment ago, for starting a process on a known `PORT`. */
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const address = probe.address();
  await new Promise((done) => probe.close(done));
  if (!address || typeof address === 'string') throw new Error('no port could be reserved on 127.0.0.1');
  return address.port;
}
