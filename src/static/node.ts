/**
 * The static mode's node:http side: CORS on every answer and the preflight (the same headers as the
 * data-backed mock's, from src/mock), and JSON and problem bodies written to a ServerResponse.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { corsHeaders, type Problem, preflightHeaders } from '../mock/browser.ts';

/** Headers added to every response. */
export function setCorsHeaders(request: IncomingMessage, response: ServerResponse): void {
  for (const [name, value] of Object.entries(corsHeaders(request.headers.origin))) response.setHeader(name, value);
}

/** True for a CORS preflight (`OPTIONS` with `Access-Control-Request-Method`). */
export function isPreflight(request: IncomingMessage): boolean {
  return request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
}

/** Answers a preflight: 204, the methods and headers allowed, cached for 10 minutes. */
export function answerPreflight(request: IncomingMessage, response: ServerResponse): void {
  const headers = preflightHeaders(request.headers.origin, request.headers['access-control-request-headers']);
  response.writeHead(204, { ...headers, 'Content-Length': '0' });
  response.end();
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  contentType = 'application/json',
  headers: Record<string, string> = {},
): void {
  const payload = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(payload),
  });
  response.end(payload);
}

export function sendProblem(response: ServerResponse, body: Problem, headers: Record<string, string> = {}): void {
  sendJson(response, body.status, body, 'application/problem+json', headers);
}
