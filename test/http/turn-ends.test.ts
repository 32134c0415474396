/**
 * Answers sent at the end of the event loop's turn (src/http/answer.ts TurnEnds), as the mock's
 * server sends its engine's: not before the turn ends, then together in the order they were
 * added, none to a connection closed meanwhile; and the server's answers and log lines unchanged.
 */

import type { ServerResponse } from 'node:http';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TurnEnds } from '../../src/http/index.ts';
import { type MockServer, startMock } from '../../src/mock/index.ts';

/** A response that records its end (or throws at it). */
function fakeResponse(ended: string[], name: string, options: { destroyed?: boolean; throws?: boolean } = {}) {
  const response = {
    destroyed: options.destroyed === true,
    end(body: string | Uint8Array) {
      if (options.throws) throw new Error('end failed');
      ended.push(`${name} ${String(body)}`);
    },
    destroy() {
      response.destroyed = true;
      ended.push(`${name} destroyed`);
    },
  };
  return response as typeof response & ServerResponse;
}

const nextTurn = () => new Promise((done) => setImmediate(done));

describe('TurnEnds', () => {
  it('sends nothing before the turn ends, then every answer added in it, in order', async () => {
    const ended: string[] = [];
    const ends = new TurnEnds();
    ends.add(fakeResponse(ended, 'a'), 'A');
    ends.add(fakeResponse(ended, 'b'), 'B');
    await Promise.resolve();
    expect(ended).toEqual([]);
    await nextTurn();
    expect(ended).toEqual(['a A', 'b B']);
    // The next turn's answers wait for its end in turn.
    ends.add(fakeResponse(ended, 'c'), 'C');
    expect(ended).toEqual(['a A', 'b B']);
    await nextTurn();
    expect(ended).toEqual(['a A', 'b B', 'c C']);
  });

  it('skips a connection closed meanwhile, and one answer that fails does not stop the others', async () => {
    const ended: string[] = [];
    const ends = new TurnEnds();
    ends.add(fakeResponse(ended, 'gone', { destroyed: true }), 'G');
    ends.add(fakeResponse(ended, 'fails', { throws: true }), 'F');
    ends.add(fakeResponse(ended, 'ok'), 'O');
    await nextTurn();
    expect(ended).toEqual(['fails destroyed', 'ok O']);
  });
});

describe("the mock's server, its answers sent at the end of their turn", () => {
  let server: MockServer;
  const lines: string[] = [];
  beforeAll(async () => {
    server = await startMock({ port: 0, log: (line) => lines.push(line) });
  });
  afterAll(async () => server.close());

  /** A create over a connection of its own. */
  const create = (token: string, base = server.url) =>
    new Promise<{ status: number; body: string }>((done, fail) => {
      const body = JSON.stringify({ currency: 'EUR', initial: '5.00' });
      const outgoing = request(`${base}/gift-cards/`, {
        method: 'POST',
        agent: false,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      });
      outgoing.on('response', (incoming) => {
        let text = '';
        incoming.on('data', (chunk) => (text += chunk));
        incoming.on('end', () => done({ status: incoming.statusCode ?? 0, body: text }));
      });
      outgoing.on('error', fail);
      outgoing.end(body);
    });

  it('answers many connections at once, each its own record, and logs each with its status', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => create('turn')));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const ids = answers.map((a) => (JSON.parse(a.body) as { id: number }).id);
    expect(new Set(ids).size).toBe(20);
    const logged = lines.filter((line) => line.startsWith('POST /gift-cards/'));
    expect(logged).toHaveLength(20);
    for (const line of logged) expect(line).toMatch(/^POST \/gift-cards\/ \[[\d-]+\] 200 /);
  });

  it('closes with an answer still to send (its head made, its end not yet): nothing sent, nothing thrown', async () => {
    let closed: Promise<void> | undefined;
    // The log line comes once the head is made, before the turn's end sends the answer.
    const closeOnce = () => {
      closed ??= other.close();
    };
    const other: MockServer = await startMock({ port: 0, log: closeOnce });
    const answer = await create('closing', other.url).catch((error: Error) => error);
    await closed;
    expect(answer).toBeInstanceOf(Error);
  });
});
