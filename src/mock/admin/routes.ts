/**
 * The admin endpoints under `/__mock/` (outside the API's paths), for the inspector page and for
 * scripts; docs/mock.md lists them. Each acts on one state: the bearer token's, the shared one with
 * `--shared-state`, or the one named `state` (its id from `GET /__mock/states`, as the inspector
 * sends it). POST and DELETE need `Content-Type: application/json` (./guard.ts); resetting every
 * state needs `{"scope": "all"}`. Answers carry CORS headers for loopback origins only. The global
 * snapshots and forks (`/global-snapshots`, `/forks`) belong to no state but the one they copy or make.
 */

import { bodyText, fieldRefusal, methodNotAllowed } from '../../http/index.ts';
import { fixturesOf } from '../model/fixtures.ts';
import type { Incoming, RawResponse } from '../stages/context.ts';
import { json, refuse as refuseWith } from '../stages/respond.ts';
import { newForkToken } from '../tokens/api.ts';
import { shortHash, tokenHint } from '../tokens/hash.ts';
import { snapshotNameProblem } from '../tokens/names.ts';
import { stateFileFailed } from '../tokens/refusals.ts';
import { adminCors, contentTypeRefusal } from './guard.ts';
import { INSPECTOR_HTML } from './inspector.ts';

export const ADMIN_PREFIX = '/__mock';

export const isAdminPath = (pathname: string) => pathname === ADMIN_PREFIX || pathname.startsWith(`${ADMIN_PREFIX}/`);

interface Call {
  incoming: Incoming;
  body: Record<string, unknown>;
}

type Route = { method: string; path: RegExp; run(call: Call, name: string): Promise<RawResponse> | RawResponse };

/** A refusal naming one field, of a kind of the catalogue (src/http/catalogue.ts). */
const failure = (
  kind: 'adminRequest' | 'invalidRequest' | 'notFound' | 'tooLarge' | 'limit',
  field: string,
  rule: string,
  message: string,
) => refuseWith(fieldRefusal(kind, { field, rule, message }));

/** The state a call acts on: the token's, the shared one, or the one named `state`; else a refusal. */
function stateOf({ incoming, body }: Call): string | RawResponse {
  const states = incoming.core.states;
  const named = body.state ?? incoming.searchParams.get('state') ?? undefined;
  if (named !== undefined) {
    const found = states.keys().find((key) => shortHash(key) === named);
    return found ?? failure('notFound', 'state', 'exists', `No state with id ${String(named)} (GET /__mock/states).`);
  }
  if (incoming.token !== undefined) return incoming.token;
  if (states.shared) return '';
  const message = 'Name the state: send Authorization: Bearer <token>, or "state": "<id>" from GET /__mock/states.';
  return failure('adminRequest', 'header.Authorization', 'required', message);
}

const withState = (run: (call: Call, key: string, name: string) => Promise<RawResponse> | RawResponse) => {
  return (call: Call, name: string) => {
    const key = stateOf(call);
    return typeof key === 'string' ? run(call, key, name) : key;
  };
};

/**
 * The answer once the state file has the change: a file that cannot be written gives 503 (the
 * change is made in memory), as for the API's writes, never a 500.
 */
async function saved(durable: Promise<void>, answer: () => RawResponse): Promise<RawResponse> {
  try {
    await durable;
  } catch (error) {
    return refuseWith(stateFileFailed(error, {}));
  }
  return answer();
}

const missingSnapshot = (name: string) =>
  failure('notFound', 'path.name', 'exists', `No snapshot named "${name}" for this state (GET /__mock/snapshots).`);

async function reset(call: Call): Promise<RawResponse> {
  const { scope } = call.body;
  const states = call.incoming.core.states;
  if (scope === 'all') return saved(states.reset({ all: true }), () => json(200, { reset: 'all' }));
  if (scope !== undefined && scope !== 'state') {
    const message = `scope must be "all" or "state", got ${JSON.stringify(scope)}.`;
    return failure('invalidRequest', 'body.scope', 'enum', message);
  }
  const key = stateOf(call);
  if (typeof key !== 'string') {
    const message = 'Resetting every state needs {"scope": "all"}; to reset one, send its token or "state": "<id>".';
    return failure('adminRequest', 'body.scope', 'required', message);
  }
  return saved(states.reset(key), () => json(200, { reset: key === '' ? 'shared' : 'state', state: shortHash(key) }));
}

function requests({ incoming }: Call): RawResponse {
  const text = incoming.searchParams.get('limit') ?? '50';
  const limit = Number(text);
  const { size } = incoming.core.log;
  if (!/^\d+$/.test(text) || limit < 1 || limit > size) {
    return failure(
      'adminRequest',
      'query.limit',
      'range',
      `limit must be a whole number from 1 to ${size}, got "${text}".`,
    );
  }
  return json(200, { requests: incoming.core.log.list(limit) });
}

const snapshot = withState(async (call, key) => {
  const { name } = call.body;
  const problem = snapshotNameProblem(name);
  if (typeof name !== 'string' || problem) {
    return failure('invalidRequest', 'body.name', name === undefined ? 'required' : 'pattern', `${problem}.`);
  }
  const states = call.incoming.core.states;
  const taken = states.snapshot(name, key);
  if (taken === 'full') {
    const message = `This state holds ${states.maxSnapshots} snapshots, the mock's limit per state (maxSnapshots); delete one (DELETE /__mock/snapshots/{name}) first.`;
    return failure('limit', 'body.name', 'maxSnapshots', message);
  }
  return saved(taken.durable, () => json(taken.created ? 201 : 200, taken.info));
});

/** A snapshot name from the body's `field`, or the 422 naming it (rule `required` or `pattern`). */
function nameIn(body: Record<string, unknown>, field: string): string | RawResponse {
  const name = body[field];
  const problem = snapshotNameProblem(name);
  if (typeof name === 'string' && !problem) return name;
  const rule = name === undefined ? 'required' : 'pattern';
  return failure('invalidRequest', `body.${field}`, rule, `${problem?.replace(/^name/, field)}.`);
}

const missingGlobal = (field: string, name: string) =>
  failure('notFound', field, 'exists', `No global snapshot named "${name}" (GET /__mock/global-snapshots).`);

/** Saves the state named as a global snapshot: 201, or 200 when it replaced one (its forks keep theirs). */
const publish = withState(async (call, key) => {
  const name = nameIn(call.body, 'name');
  if (typeof name !== 'string') return name;
  const states = call.incoming.core.states;
  const taken = states.publish(name, key);
  if (taken === 'full') {
    const message = `The mock holds ${states.maxSnapshots} global snapshots, its limit (maxSnapshots); delete one (DELETE /__mock/global-snapshots/{name}) first.`;
    return failure('limit', 'body.name', 'maxSnapshots', message);
  }
  return saved(taken.durable, () => json(taken.created ? 201 : 200, taken.info));
});

/**
 * Makes a state a fork of global snapshot `snapshot`: the bearer token's, or a new token's (in the
 * answer): 201 `{token, state, snapshot, at}`. Refused with one state for every token.
 */
async function fork(call: Call): Promise<RawResponse> {
  const name = nameIn(call.body, 'snapshot');
  if (typeof name !== 'string') return name;
  const states = call.incoming.core.states;
  if (states.shared) {
    const message = 'Forks need one state per token; this mock runs with --shared-state.';
    return failure('adminRequest', 'body.snapshot', 'perTokenState', message);
  }
  const token = call.incoming.token ?? newForkToken();
  const done = states.fork(name, token);
  if (!done) return missingGlobal('body.snapshot', name);
  const at = states.globalSnapshots().find((s) => s.name === name)?.at;
  return saved(done, () => json(201, { token, state: shortHash(token), snapshot: name, at }));
}

/**
 * What the requests exercised (docs/mock.md "Coverage"): one token state's, named by `?token=`, the
 * bearer token or `?state=<id>`, else the whole process's.
 */
function coverage(call: Call): RawResponse {
  const { core, searchParams } = call.incoming;
  const token = searchParams.get('token') ?? call.incoming.token;
  if (token === '') return failure('adminRequest', 'query.token', 'required', 'token must not be empty.');
  if (token !== undefined) return json(200, core.coverage.report(core.states.keyOf(token)));
  if (!searchParams.has('state')) return json(200, core.coverage.report());
  const key = stateOf(call);
  return typeof key === 'string' ? json(200, core.coverage.report(key)) : key;
}

const ROUTES: Route[] = [
  {
    method: 'GET',
    path: /^\/?$/,
    run: () => ({
      status: 200,
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
      body: INSPECTOR_HTML,
      kind: 'admin',
      version: '-',
    }),
  },
  { method: 'POST', path: /^\/reset$/, run: reset },
  { method: 'GET', path: /^\/coverage$/, run: coverage },
  {
    method: 'DELETE',
    path: /^\/coverage$/,
    run: ({ incoming }) => {
      incoming.core.coverage.clear();
      return { status: 204, headers: {}, body: '', kind: 'admin', version: '-' };
    },
  },
  { method: 'GET', path: /^\/requests$/, run: requests },
  {
    method: 'GET',
    path: /^\/states$/,
    run: ({ incoming: { core } }) => {
      const states = core.states
        .summaries()
        .map(({ key, ...rest }) => ({ id: shortHash(key), hint: tokenHint(key), ...rest }));
      return json(200, { states, limits: core.states.limits, usage: core.states.usage });
    },
  },
  {
    method: 'GET',
    path: /^\/state$/,
    run: withState((call, key) => json(200, fixturesOf(call.incoming.core.states.data(key)))),
  },
  {
    method: 'GET',
    path: /^\/snapshots$/,
    run: withState((call, key) => json(200, { snapshots: call.incoming.core.states.snapshots(key) })),
  },
  { method: 'POST', path: /^\/snapshots$/, run: snapshot },
  {
    method: 'POST',
    path: /^\/snapshots\/([^/]+)\/restore$/,
    run: withState(async (call, key, name) => {
      const done = call.incoming.core.states.restore(name, key);
      if (!done) return missingSnapshot(name);
      return saved(done, () => json(200, { restored: name }));
    }),
  },
  {
    method: 'DELETE',
    path: /^\/snapshots\/([^/]+)$/,
    run: withState(async (call, key, name) => {
      const done = call.incoming.core.states.drop(name, key);
      if (!done) return missingSnapshot(name);
      return saved(done, () => ({ status: 204, headers: {}, body: '', kind: 'admin', version: '-' }));
    }),
  },
  {
    method: 'GET',
    path: /^\/global-snapshots$/,
    run: ({ incoming }) => json(200, { snapshots: incoming.core.states.globalSnapshots() }),
  },
  { method: 'POST', path: /^\/global-snapshots$/, run: publish },
  {
    method: 'DELETE',
    path: /^\/global-snapshots\/([^/]+)$/,
    run: async (call, name) => {
      const done = call.incoming.core.states.unpublish(name);
      if (!done) return missingGlobal('path.name', name);
      return saved(done, () => ({ status: 204, headers: {}, body: '', kind: 'admin', version: '-' }));
    },
  },
  { method: 'POST', path: /^\/forks$/, run: fork },
];

/** Reads an admin request's JSON object body ({} when empty), or the refusal when it is not one. */
async function bodyOf(incoming: Incoming): Promise<{ body: Record<string, unknown> } | { refusal: RawResponse }> {
  const bytes = await incoming.raw.readBody();
  if (bytes === 'too-large') {
    return {
      refusal: failure('tooLarge', 'body', 'maxBytes', 'Admin request bodies are small JSON objects.'),
    };
  }
  const text = bodyText(bytes).trim();
  if (text === '') return { body: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return { body: value as Record<string, unknown> };
  } catch {}
  return { refusal: failure('adminRequest', 'body', 'json', 'The body must be a JSON object.') };
}

/** Route (404), method (405), content type (415), body (400), then the endpoint. */
async function dispatch(incoming: Incoming): Promise<RawResponse> {
  const { method, pathname } = incoming;
  const subpath = pathname.slice(ADMIN_PREFIX.length);
  const matching = ROUTES.filter((route) => route.path.test(subpath));
  const route = matching.find((r) => r.method === method);
  if (!route) {
    // No such admin endpoint.
    if (matching.length === 0)
      return failure('notFound', 'path', 'exists', `No admin endpoint ${pathname} (docs/mock.md).`);
    const allow = matching.map((r) => r.method).join(', ');
    return refuseWith(methodNotAllowed(pathname, allow));
  }
  // A request a web page could send without a preflight.
  const unsafe = contentTypeRefusal(method, incoming.raw.header('content-type'));
  if (unsafe) return refuseWith(unsafe);
  const read = method === 'GET' ? { body: {} } : await bodyOf(incoming);
  // Not a JSON object.
  if ('refusal' in read) return read.refusal;
  const name = decodeURIComponent(route.path.exec(subpath)?.[1] ?? '');
  return route.run({ incoming, body: read.body }, name);
}

/** Answers a request under {@link ADMIN_PREFIX}, its CORS headers for a loopback origin only. */
export async function answerAdmin(incoming: Incoming): Promise<RawResponse> {
  const answered = await dispatch(incoming);
  return {
    ...answered,
    headers: { ...adminCors(incoming.raw.header('origin')), ...answered.headers },
    kind: 'admin',
  };
}
