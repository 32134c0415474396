/**
 * An answer as the package's servers hold it before writing it: a status, headers and the body, as
 * text or as UTF-8 bytes (the mock engine's RawResponse is one, `--static` makes them from Prism's
 * verdict), and the one way a node:http server writes it. Only a type is imported from node:.
 */
import type { ServerResponse } from 'node:http';
import type { Refusal } from './catalogue.ts';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** Text, or UTF-8 bytes (written as they are: node:http writes bytes for less CPU than text). */
  body: string | Uint8Array;
}

const decoder = new TextDecoder();

/** A body as text, whichever way it is held. */
export const bodyText = (body: string | Uint8Array): string => (typeof body === 'string' ? body : decoder.decode(body));

/** A refusal as an answer: its problem body as `application/problem+json`, with `headers` and its own. */
export const problemAnswer = (refusal: Refusal, headers: Record<string, string> = {}): Answer => ({
  status: refusal.body.status,
  headers: { 'Content-Type': 'application/problem+json', ...headers, ...refusal.headers },
  body: JSON.stringify(refusal.body),
});

/**
 * Writes an answer, with its Content-Length. The headers go to writeHead as one flat name, value
 * list: node:http walks it as it is, where a fresh object costs a spread, a key enumeration and an
 * own-property check per name (perf, docs/benchmarks.md "Mock").
 */
export function writeAnswer(response: ServerResponse, answer: Answer): void {
  const { headers, body } = answer;
  const flat: (string | number)[] = [];
  // Ours replaces one the headers carry (a spread did so).
  for (const name in headers) if (name !== 'Content-Length') flat.push(name, headers[name] as string);
  flat.push('Content-Length', typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  response.writeHead(answer.status, flat as string[]);
  response.end(body);
}
