/**
 * The admin endpoints under `/__mock/` (outside the API's paths), for the inspector page and for
 * scripts; docs/mock.md lists them. Each acts on one state: the bearer token's, the shared one with
 * `--shared-state`, or the one named `state` (its id from `GET /__mock/states`, as the inspector
 * sends it). POST and DELETE need `Content-Type: application/json` (./guard.ts); resetting every
 * state needs `{"scope": "all"}`.
 */
import type { RawRequest, RawResponse } from '../engine.ts';
import { PROBLEM_TYPES, problem } from '../errors.ts';
import { json, problemResponse } from '../respond.ts';
import { shortHash } from '../tokens/hash.ts';
import type { TokenStore } from '../tokens/store.ts';
import { contentTypeRefusal } from './guard.ts';
import { INSPECTOR_HTML } from './inspector.ts';
import type { RequestLog } from './request-log.ts';

export const ADMIN_PREFIX = '/__mock';
const SNAPSHOT_NAME = /^[A-Za-z0-9._-]{1,64}$/;

export interface AdminContext {
  store: TokenStore;
  log: RequestLog;
  /** A state's data in the `--data` fixtures format. */
  exportData(key: string): unknown;
}

interface Call {
  method: string;
  url: URL;
  token: string | undefined;
  body: Record<string, unknown>;
  context: AdminContext;
}

type Route = { method: string; path: RegExp; run(call: Call, name: string): Promise<RawResponse> | RawResponse };

const refuse = (status: number, field: string, rule: string, message: string): RawResponse =>
  problemResponse(
    problem(
      status,
      status === 404 ? PROBLEM_TYPES.notFound : PROBLEM_TYPES.adminRequest,
      status === 404 ? 'Not found' : 'Invalid admin request',
      message,
      [{ field, rule, message, location: field.split('.') }],
    ),
  );

/** The state a call acts on: the token's, the shared one, or the one named `state`; else a refusal. */
function stateOf(call: Call): string | RawResponse {
  const named = call.body.state ?? call.url.searchParams.get('state') ?? undefined;
  if (named !== undefined) {
    const found = call.context.store.summaries().find((s) => shortHash(s.key) === named);
    return found
      ? found.key
      : refuse(404, 'state', 'exists', `No state with id ${String(named)} (GET /__mock/states).`);
  }
  if (call.token !== undefined) return call.token;
  if (call.context.store.keyOf('-') === '') return '';
  return refuse(
    400,
    'header.Authorization',
    'required',
    'Name the state: send Authorization: Bearer <token>, or "state": "<id>" from GET /__mock/states.',
  );
}

const withState = (run: (call: Call, key: string, name: string) => Promise<RawResponse> | RawResponse) => {
  return (call: Call, name: string) => {
    const key = stateOf(call);
    return typeof key === 'string' ? run(call, key, name) : key;
  };
};

const missingSnapshot = (name: string) =>
  refuse(404, 'path.name', 'exists', `No snapshot named "${name}" for this state (GET /__mock/snapshots).`);

async function reset(call: Call): Promise<RawResponse> {
  const scope = call.body.scope;
  if (scope === 'all') {
    await call.context.store.reset({ all: true });
    return json(200, { reset: 'all' });
  }
  if (scope !== undefined && scope !== 'state') {
    return refuse(422, 'body.scope', 'enum', `scope must be "all" or "state", got ${JSON.stringify(scope)}.`);
  }
  const key = stateOf(call);
  if (typeof key !== 'string') {
    return refuse(
      400,
      'body.scope',
      'required',
      'Resetting every state needs {"scope": "all"}; to reset one, send its token or "state": "<id>".',
    );
  }
  await call.context.store.reset(key);
  return json(200, { reset: key === '' ? 'shared' : 'state', state: shortHash(key) });
}

const ROUTES: Route[] = [
  {
    method: 'GET',
    path: /^\/?$/,
    run: () => ({
      status: 200,
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
      body: INSPECTOR_HTML,
      version: '-',
    }),
  },
  { method: 'POST', path: /^\/reset$/, run: reset },
  {
    method: 'GET',
    path: /^\/requests$/,
    run: (call) => {
      const text = call.url.searchParams.get('limit') ?? '50';
      const limit = Number(text);
      const size = call.context.log.size;
      if (!/^\d+$/.test(text) || limit < 1 || limit > size) {
        return refuse(400, 'query.limit', 'range', `limit must be a whole number from 1 to ${size}, got "${text}".`);
      }
      return json(200, { requests: call.context.log.list(limit) });
    },
  },
  {
    method: 'GET',
    path: /^\/states$/,
    run: (call) => {
      const { store } = call.context;
      const states = store.summaries().map(({ key, ...rest }) => ({ id: shortHash(key), ...rest }));
      return json(200, { states, limits: store.limits, usage: store.usage });
    },
  },
  { method: 'GET', path: /^\/state$/, run: withState((call, key) => json(200, call.context.exportData(key))) },
  {
    method: 'GET',
    path: /^\/snapshots$/,
    run: withState((call, key) => json(200, { snapshots: call.context.store.snapshots(key) })),
  },
  {
    method: 'POST',
    path: /^\/snapshots$/,
    run: withState(async (call, key) => {
      const name = call.body.name;
      if (typeof name !== 'string' || !SNAPSHOT_NAME.test(name)) {
        const message = 'name must be 1-64 letters, digits, ".", "_" or "-".';
        return refuse(422, 'body.name', name === undefined ? 'required' : 'pattern', message);
      }
      const { info, created, durable } = call.context.store.snapshot(name, key);
      await durable;
      return json(created ? 201 : 200, info);
    }),
  },
  {
    method: 'POST',
    path: /^\/snapshots\/([^/]+)\/restore$/,
    run: withState(async (call, key, name) => {
      const done = call.context.store.restore(name, key);
      if (!done) return missingSnapshot(name);
      await done;
      return json(200, { restored: name });
    }),
  },
  {
    method: 'DELETE',
    path: /^\/snapshots\/([^/]+)$/,
    run: withState(async (call, key, name) => {
      const done = call.context.store.drop(name, key);
      if (!done) return missingSnapshot(name);
      await done;
      return { status: 204, headers: {}, body: '', version: '-' };
    }),
  },
];

/** Reads an admin request's JSON object body ({} when empty), or the refusal when it is not one. */
async function bodyOf(request: RawRequest): Promise<{ body: Record<string, unknown> } | { refusal: RawResponse }> {
  const bytes = await request.readBody();
  if (bytes === 'too-large') {
    return { refusal: refuse(413, 'body', 'maxBytes', 'Admin request bodies are small JSON objects.') };
  }
  const text = new TextDecoder().decode(bytes).trim();
  if (text === '') return { body: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return { body: value as Record<string, unknown> };
  } catch {}
  return { refusal: refuse(400, 'body', 'json', 'The body must be a JSON object.') };
}

/** Answers a request under {@link ADMIN_PREFIX}: route, method (405), content type (415), body, endpoint. */
export async function answerAdmin(
  request: RawRequest,
  url: URL,
  token: string | undefined,
  context: AdminContext,
): Promise<RawResponse> {
  const method = request.method.toUpperCase();
  const subpath = url.pathname.slice(ADMIN_PREFIX.length);
  const matching = ROUTES.filter((route) => route.path.test(subpath));
  const route = matching.find((r) => r.method === method);
  if (!route) {
    if (matching.length === 0)
      return refuse(404, 'path', 'exists', `No admin endpoint ${url.pathname} (docs/mock.md).`);
    const allow = matching.map((r) => r.method).join(', ');
    const body = problem(
      405,
      PROBLEM_TYPES.methodNotAllowed,
      'Method not allowed',
      `${url.pathname} accepts ${allow}.`,
    );
    return problemResponse(body, { Allow: allow });
  }
  const unsafe = contentTypeRefusal(method, request.header('content-type'));
  if (unsafe) return problemResponse(unsafe);
  const read = method === 'GET' ? { body: {} } : await bodyOf(request);
  if ('refusal' in read) return read.refusal; // not a JSON object: 400
  const name = decodeURIComponent(route.path.exec(subpath)?.[1] ?? '');
  return route.run({ method, url, token, body: read.body, context }, name);
}
