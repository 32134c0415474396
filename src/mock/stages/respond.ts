/** How every stage answers: a JSON body, or a refusal from the problem catalogue (src/http/catalogue.ts). */
import { problemAnswer, type Refusal } from '../../http/index.ts';
import type { RawResponse } from './context.ts';

/** JSON already serialized as UTF-8 (a stored record's, ../view-cache.ts), placed as is by {@link jsonBytes}. */
export class JsonBytes {
  constructor(readonly bytes: Uint8Array) {}
}

/** The pieces of a body being written: the JSON text between kept parts, and the kept parts' bytes. */
interface Pieces {
  /** Text since the last kept part (appended piece by piece: V8 keeps it as a rope). */
  text: string;
  parts: (string | Uint8Array)[];
}

/**
 * JSON.stringify as UTF-8 bytes, with {@link JsonBytes} parts placed as they are (they are walked no
 * further): for an envelope of records. A page is one allocation its records' bytes are copied into
 * once; a node:http server writes it as a Buffer (a string body cost node 1.5x the CPU of the same
 * bytes, issue 28). A lone JsonBytes is answered as it is, without a copy.
 */
export function jsonBytes(value: unknown): Uint8Array | undefined {
  if (value instanceof JsonBytes) return value.bytes;
  const out: Pieces = { text: '', parts: [] };
  if (!write(value, out)) return undefined;
  if (out.text !== '') out.parts.push(out.text);
  return joined(out.parts);
}

const encoder = new TextEncoder();

/** UTF-8 bytes of a string, without encoding it (a lone surrogate counts 3, as TextEncoder writes U+FFFD). */
function utf8Length(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    length += code < 0x800 ? 1 : 2;
    // A surrogate pair: 4 bytes for its two units (2 + 2 counted so far).
    if (code >= 0xd800 && code < 0xdc00 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  return length;
}

/** The pieces one after the other in one allocation: the texts encoded in place (ASCII by a plain copy). */
function joined(parts: readonly (string | Uint8Array)[]): Uint8Array {
  const lengths = parts.map((part) => (typeof part === 'string' ? utf8Length(part) : part.byteLength));
  let total = 0;
  for (const length of lengths) total += length;
  const bytes = new Uint8Array(total);
  let at = 0;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p] as string | Uint8Array;
    const length = lengths[p] as number;
    if (typeof part !== 'string') bytes.set(part, at);
    else if (length !== part.length) encoder.encodeInto(part, bytes.subarray(at));
    else for (let i = 0; i < length; i++) bytes[at + i] = part.charCodeAt(i);
    at += length;
  }
  return bytes;
}

/** Appends `value`'s JSON to `out`; false (nothing appended) for what JSON.stringify leaves out. */
function write(value: unknown, out: Pieces): boolean {
  if (value instanceof JsonBytes) {
    if (out.text !== '') out.parts.push(out.text);
    out.parts.push(value.bytes);
    out.text = '';
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
  return writeObject(value as Record<string, unknown>, out);
}

/** An object's members; one JSON.stringify leaves out (undefined, a function) goes with its name. */
function writeObject(value: Record<string, unknown>, out: Pieces): boolean {
  out.text += '{';
  let separator = '';
  for (const name of Object.keys(value)) {
    const before = out.text;
    out.text += `${separator}${JSON.stringify(name)}:`;
    // Only a member written as text can be left out, so the text since the last kept part holds it.
    if (!write(value[name], out)) out.text = before;
    else separator = ',';
  }
  out.text += '}';
  return true;
}

export const json = (
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
  version = '-',
): RawResponse => ({
  status,
  headers: jsonHeaders(headers),
  body: body instanceof JsonBytes ? body.bytes : JSON.stringify(body),
  kind: 'api',
  version,
});

const JSON_TYPE = { 'Content-Type': 'application/json' } as const;
/** The last frozen headers given to {@link jsonHeaders} (a route's `served`) and its answer's. */
let lastGiven: Readonly<Record<string, string>> | undefined;
let lastMade: Record<string, string> = JSON_TYPE;

/**
 * A JSON answer's headers: the Content-Type and `headers`. For frozen ones (a route's `served`,
 * shared by its every answer) made once and frozen too: the intake copies an API answer's headers
 * (./intake.ts), so nothing writes to them.
 */
function jsonHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  if (headers === lastGiven) return lastMade;
  const made = { ...JSON_TYPE, ...headers };
  if (!Object.isFrozen(headers)) return made;
  lastGiven = headers;
  lastMade = Object.freeze(made);
  return made;
}

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
