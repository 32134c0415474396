/**
 * Reading a node:http request's body, for the mock's server (src/mock), `--static` (src/static) and
 * the proxy (src/proxy): at most MAX_BODY_BYTES, and, with a budget, at most so many bytes buffered across
 * every request at once. Only a type is imported from node: (the module stays loadable anywhere).
 */
import type { IncomingMessage } from 'node:http';

/** The bytes buffered by every body being read, shared by the reads of one server. */
export interface BodyBudget {
  buffered: number;
  readonly max: number;
}

/** Thrown (rejected) when reading a body would take the buffered bytes over the budget. */
export class BusyError extends Error {}

/** The largest request body read (1 MiB); beyond it, 413 (docs/mock.md "Limits"). */
export const MAX_BODY_BYTES = 1024 * 1024;

// Made on first use, so that loading the module needs no Buffer (a browser bundle loads src/http).
let EMPTY: Buffer | undefined;
const empty = (): Buffer => (EMPTY ??= Buffer.alloc(0));

/** A Content-Length or a Transfer-Encoding: a body follows the headers (RFC 9112 §6.3). */
export const announcesBody = (request: IncomingMessage): boolean =>
  request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined;

/**
 * The body's bytes, or `'too-large'` beyond MAX_BODY_BYTES (the rest is left unread). Synchronous
 * when there is nothing to wait for: no body announced, or Node has already parsed every byte the
 * Content-Length announced (a small body comes in the packet of its headers, and is read after the
 * handler's first `await`).
 */
export function readNodeBody(
  request: IncomingMessage,
  budget?: BodyBudget,
): Buffer | 'too-large' | Promise<Buffer | 'too-large'> {
  // No body announced: nothing to read.
  if (!announcesBody(request)) {
    request.resume();
    return empty();
  }
  const announced = request.headers['content-length'];
  // Every announced byte parsed and none read yet: taken at once. The bytes are let go as soon as
  // they are parsed, so they take no budget, but a body the budget could not hold is refused alike.
  const held = request.readableLength;
  if (announced !== undefined && request.readableFlowing === null && held === Number(announced)) {
    const refused = held > MAX_BODY_BYTES ? 'too-large' : budget && budget.buffered + held > budget.max ? 'busy' : '';
    // Refused: the bytes are dropped, not read.
    if (refused) request.resume();
    if (refused === 'busy') return Promise.reject(new BusyError());
    return refused || ((request.read() as Buffer | null) ?? empty());
  }
  return new Promise((resolve, reject) => {
    const read: BodyRead = { chunks: [], size: 0, settled: false, budget };
    // Inline callbacks, not named closures (tsx's keepNames wraps each named one made per request).
    request.on('data', (piece: Buffer) => {
      if (read.settled) return;
      read.size += piece.length;
      if (budget) budget.buffered += piece.length;
      if (read.size > MAX_BODY_BYTES) settle(read) && resolve('too-large');
      else if (budget && budget.buffered > budget.max) settle(read) && reject(new BusyError());
      else read.chunks.push(piece);
    });
    request.once('end', () => {
      const { chunks } = read;
      if (settle(read)) resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    });
    request.once('error', (error) => settle(read) && reject(error));
    // Closed before its end: the client went away mid-body.
    request.once('close', () => settle(read) && reject(new Error('request closed before its body ended')));
  });
}

interface BodyRead {
  chunks: Buffer[];
  size: number;
  settled: boolean;
  budget: BodyBudget | undefined;
}

/** Ends a body read once: its bytes leave the budget and are let go. False if it had ended. */
function settle(read: BodyRead): boolean {
  if (read.settled) return false;
  read.settled = true;
  if (read.budget) read.budget.buffered -= read.size;
  read.chunks = [];
  return true;
}
