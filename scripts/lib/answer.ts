/**
 * One request through node:http and its answer as the benches compare it (status, end-to-end
 * headers, body): what a bare server replays as "the same bytes", and what a bench checks before it
 * measures a server.
 */
import { request as httpRequest } from 'node:http';

export interface Answer {
  status: number;
  /** Without the per-connection ones (date, connection, keep-alive, content-length, transfer-encoding). */
  headers: Record<string, string>;
  body: string;
}

export function answerOf(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
): Promise<Answer> {
  return new Promise((done, fail) => {
    const outgoing = httpRequest(url, { method: init.method, headers: init.headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (!/^(date|connection|keep-alive|content-length|transfer-encoding)$/.test(name))
            headers[name] = String(value);
        }
        done({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString() });
      });
    });
    outgoing.on('error', fail);
    outgoing.end(init.body);
  });
}
