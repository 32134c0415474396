/** How every stage answers: a JSON body, or a refusal from the problem catalogue (src/http/catalogue.ts). */
import { problemAnswer, type Refusal } from '../../http/index.ts';
import type { RawResponse } from './context.ts';

/** JSON text already serialized (a stored record's, ../view-cache.ts), placed as is by {@link stringify}. */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * JSON.stringify, with {@link JsonText} parts placed as they are (they are walked no further): for an
 * envelope of records. The text is appended piece by piece (V8 keeps it as a rope, flattened once
 * when it is written out), so a page's records are copied once: joining an array of its parts cost
 * a copy more (4 µs for a 23 KB page, issue 28).
 */
export function stringify(value: unknown): string | undefined {
  if (value instanceof JsonText) return value.text;
  const out = { text: '' };
  return write(value, out) ? out.text : undefined;
}

/** Appends `value`'s JSON to `out.text`; false (nothing appended) for what JSON.stringify leaves out. */
function write(value: unknown, out: { text: string }): boolean {
  if (value instanceof JsonText) {
    out.text += value.text;
    return true;
  }
  if (value === null || typeof value !== 'object' || 'toJSON' in value) {
    const text = JSON.stringify(value);
    if (text !== undefined) out.text += text;
    return text !== undefined;
  }
  if (Array.isArray(value)) {
    out.text += '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.text += ',';
      if (!write(value[i], out)) out.text += 'null';
    }
    out.text += ']';
    return true;
  }
  out.text += '{';
  let separator = '';
  for (const name of Object.keys(value)) {
    const before = out.text;
    out.text += `${separator}${JSON.stringify(name)}:`;
    // A member JSON.stringify leaves out (undefined, a function): its name goes too.
    if (!write((value as Record<string, unknown>)[name], out)) out.text = before;
    else separator = ',';
  }
  out.text += '}';
  return true;
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
  kind: 'api',
  version,
});

/** An API answer with a body already written (empty for a 204, a declared status without a body). */
export const api = (status: number, headers: Record<string, string>, body: string, version = '-'): RawResponse => ({
  status,
  headers,
  body,
  kind: 'api',
  version,
});

/** A refusal as an answer, with the version it was routed to (`-` before routing). */
export const refuse = (refusal: Refusal, headers: Record<string, string> = {}, version = '-'): RawResponse => ({
  ...problemAnswer(refusal, headers),
  kind: 'api',
  version,
});

/** A refusal of a routed request: the version header and the served version go with it. */
export const refuseRouted = (context: { served: Record<string, string>; version: string }, refusal: Refusal) =>
  refuse(refusal, context.served, context.version);
