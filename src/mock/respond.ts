/** The engine's two answer shapes (a JSON body, a problem body), shared by the API and the admin routes. */
import type { RawResponse } from './engine.ts';
import type { Problem } from './errors.ts';

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

export const problemResponse = (body: Problem, headers: Record<string, string> = {}, version = '-'): RawResponse => ({
  status: body.status,
  headers: { 'Content-Type': 'application/problem+json', ...headers },
  body: JSON.stringify(body),
  version,
});
