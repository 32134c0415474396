/**
 * `drift --base-url URL --token T`: the recorded read requests (GET) sent again to a server (the
 * mock serving the recording, typically), each answer's shape diffed against the recorded one field
 * by field: the fields (array elements as `[]`) and the JSON types seen at each.
 */
import { VERSION_HEADER } from '../contract/index.ts';
import type { RecordedExchange, Recording } from '../proxy/index.ts';
import type { Findings } from './findings.ts';
import { RecordingError } from './recording.ts';

type Shape = Map<string, Set<string>>;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return Number.isInteger(value) ? 'integer' : typeof value === 'number' ? 'number' : typeof value;
}

/** Field → JSON types seen there, over the whole value. */
export function shapeOf(value: unknown, field = 'body', shape: Shape = new Map()): Shape {
  const types = shape.get(field) ?? new Set<string>();
  types.add(typeOf(value));
  shape.set(field, types);
  if (Array.isArray(value)) for (const item of value) shapeOf(item, `${field}[]`, shape);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) shapeOf(child, `${field}.${key}`, shape);
  }
  return shape;
}

export function diffShapes(
  recorded: Shape,
  replayed: Shape,
  add: (kind: 'replay-missing' | 'replay-extra' | 'replay-type', field: string, detail: string) => void,
): void {
  for (const [field, types] of recorded) {
    const other = replayed.get(field);
    if (!other) add('replay-missing', field, '');
    else if ([...types].sort().join() !== [...other].sort().join()) {
      add('replay-type', field, `recorded ${[...types].sort().join('|')}, answered ${[...other].sort().join('|')}`);
    }
  }
  for (const field of replayed.keys()) if (!recorded.has(field)) add('replay-extra', field, '');
}

export interface ReplayOptions {
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
}

/** Replays every distinct recorded GET; resolves with the number of requests sent. */
export async function replayReads(recording: Recording, options: ReplayOptions, findings: Findings): Promise<number> {
  const call = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const seen = new Set<string>();
  for (const exchange of recording.$recording.exchanges as RecordedExchange[]) {
    const key = `${exchange.version} ${exchange.target}`;
    if (exchange.method !== 'GET' || seen.has(key)) continue;
    seen.add(key);
    let response: Response;
    try {
      response = await call(`${base}${exchange.target}`, {
        headers: {
          Authorization: `Bearer ${options.token}`,
          [VERSION_HEADER]: exchange.version,
          Accept: 'application/json',
        },
        redirect: 'manual',
      });
    } catch (error) {
      throw new RecordingError(
        `cannot replay against ${base}: ${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}`,
      );
    }
    const text = await response.text();
    const { operation, version } = exchange;
    if (response.status !== exchange.status) {
      findings.add(
        'replay-status',
        operation,
        version,
        'status',
        `recorded ${exchange.status}, answered ${response.status}`,
      );
      continue;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      findings.add('replay-type', operation, version, 'body', 'answered a body that is not JSON');
      continue;
    }
    diffShapes(shapeOf(exchange.body), shapeOf(body), (kind, field, detail) =>
      findings.add(kind, operation, version, field, detail),
    );
  }
  return seen.size;
}
