/** How every stage answers: a JSON body, or a refusal from the problem catalogue (../problems.ts). */
import type { Refusal } from '../problems.ts';
import type { RawResponse } from './context.ts';

export const json = (
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  version = '-',
): RawResponse => ({
  status,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
  version,
});

/** A refusal as an answer, with the version it was routed to (`-` before routing). */
export const refuse = (refusal: Refusal, headers: Record<string, string> = {}, version = '-'): RawResponse => ({
  status: refusal.body.status,
  headers: { 'Content-Type': 'application/problem+json', ...headers, ...refusal.headers },
  body: JSON.stringify(refusal.body),
  version,
});

/** A refusal of a routed request: the version header and the served version go with it. */
export const refuseRouted = (context: { served: Record<string, string>; version: string }, refusal: Refusal) =>
  refuse(refusal, context.served, context.version);
