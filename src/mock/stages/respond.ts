/** How every stage answers: a JSON body, or a refusal from the problem catalogue (../problems.ts). */
import type { Refusal } from '../problems.ts';
import type { RawResponse } from './context.ts';

/** JSON text already serialized (a stored record's, ../project.ts recordJson), placed as is by {@link stringify}. */
export class JsonText {
  constructor(readonly text: string) {}
}

/** JSON.stringify, with {@link JsonText} parts placed as they are (they are walked no further): for an envelope of records. */
export function stringify(value: unknown): string | undefined {
  if (value instanceof JsonText) return value.text;
  if (Array.isArray(value)) return `[${value.map((item) => stringify(item) ?? 'null').join(',')}]`;
  if (value === null || typeof value !== 'object' || 'toJSON' in value) return JSON.stringify(value);
  const members: string[] = [];
  for (const [name, item] of Object.entries(value)) {
    const text = stringify(item);
    if (text !== undefined) members.push(`${JSON.stringify(name)}:${text}`);
  }
  return `{${members.join(',')}}`;
}

export const json = (
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  version = '-',
): RawResponse => ({
  status,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: body instanceof JsonText ? body.text : JSON.stringify(body),
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
