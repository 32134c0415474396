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
export function writeAnswer(response: ServerResponse, answer: Answer, ends?: TurnEnds): void {
  const { headers, body } = answer;
  const flat: (string | number)[] = [];
  // Ours replaces one the headers carry (a spread did so).
  for (const name in headers) if (name !== 'Content-Length') flat.push(name, headers[name] as string);
  flat.push('Content-Length', typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  // The head is only kept by node:http until the end: status and headers are set now either way.
  response.writeHead(answer.status, flat as string[]);
  if (ends) ends.add(response, body);
  else response.end(body);
}

/**
 * Answers whose bytes are sent together at the end of the event loop's turn (an immediate), in the
 * order they were added: the answers to the requests read in one turn, over many connections, are
 * written back to back, so a client on the same machine that waits for them is woken once for all,
 * not once per answer (waking it cost the mock's create ~7 µs of kernel time a request,
 * docs/benchmarks.md "The create path again"). An answer is delayed by the rest of its turn.
 */
export class TurnEnds {
  private responses: ServerResponse[] = [];
  private bodies: (string | Uint8Array)[] = [];

  add(response: ServerResponse, body: string | Uint8Array): void {
    if (this.responses.length === 0) setImmediate(this.flush);
    this.responses.push(response);
    this.bodies.push(body);
  }

  private readonly flush = (): void => {
    const { responses, bodies } = this;
    this.responses = [];
    this.bodies = [];
    for (let i = 0; i < responses.length; i++) {
      const response = responses[i] as ServerResponse;
      // Its connection closed meanwhile (a server closing, a client gone): nothing to send.
      if (response.destroyed) continue;
      try {
        response.end(bodies[i]);
      } catch {
        response.destroy();
      }
    }
  };
}
