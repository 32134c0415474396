/**
 * The stateful mock engine, transport-independent: `createMockEngine({ bundles })` returns
 * `{ handle(request: Request): Promise<Response>, reset() }` over a seeded store (./seed.ts). The
 * node:http server (./server.ts) is one thin adapter over {@link MockEngine.handleRaw}; an MSW
 * handler can call `handle` in a browser (no node: import here; bundles are passed in as data).
 *
 * Order of checks: CORS preflight, route (404/405, version 400), auth (401), headers (Prefer 400,
 * Content-Length 413), path and query (422, cursor 400), body (415, UTF-8 400, JSON 400, schema
 * 422), then the store (404 for an unknown id, 422 for a write the store refuses). A refused request
 * changes nothing.
 */
import type { components as Components2023 } from '../../generated/types/2023-02-10.ts';
import type { components as Components2024 } from '../../generated/types/2024-04-01.ts';
import type { components as ComponentsUnstable } from '../../generated/types/unstable.ts';
import {
  type ApiVersion,
  type Bundle,
  type BundleOperation,
  deref,
  type Json,
  listExamples,
  loadBundles,
  VERSION_HEADER,
} from '../contract/index.ts';
import type { Violation } from '../validation/index.ts';
import { adminCors, adminPreflight } from './admin/guard.ts';
import { type LoggedRequest, logExchange, RequestLog } from './admin/request-log.ts';
import { ADMIN_PREFIX, answerAdmin } from './admin/routes.ts';
import { corsHeaders, preflightHeaders } from './cors.ts';
import { PROBLEM_TYPES, type Problem, problem } from './errors.ts';
import { decodeCursor, encodeCursor, pageOf } from './pagination.ts';
import { parsePrefer } from './prefer.ts';
import { createProjector, type Projector } from './project.ts';
import { badPrefer, routeRefusal, summarize, unauthorized } from './refusals.ts';
import { type FilterDecl, OPERATION_DECLS, type OperationDecl, type WriteDecl } from './resources.ts';
import { json, problemResponse } from './respond.ts';
import { createRouter, templateToRegExp } from './router.ts';
import { failureProblem, type Scenario, scenarioOf, sleep } from './scenarios.ts';
import { insufficientScope, requirementsOf } from './scopes.ts';
import { generateStore, type Rec, type StoreData, subscriptionLineV2023, templatesOf } from './seed.ts';
import { keyField, State, sortKey } from './state.ts';
import { stateApi } from './tokens/api.ts';
import { shortHash } from './tokens/hash.ts';
import { resetConflict, stateEvicted, stateFileFailed } from './tokens/refusals.ts';
import { type Persistence, type SnapshotInfo, type Ticket, TokenStore } from './tokens/store.ts';
import { compileValidators, type OperationValidator } from './validate.ts';

export const DEFAULT_SEED = 'store-admin';
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_BODY_BYTES = 1024 * 1024;
export const IGNORED_FILTERS_HEADER = 'X-Mock-Ignored-Filters';
export const RESET_PATH = '/__mock/reset';

type V2024 = Components2024['schemas'];
type V2023 = Components2023['schemas'];
/**
 * Records per collection, as `--data file.json` holds them, typed by the generated types (each
 * resource in the shape of the version whose operation serves it; subscriptions in 2024-04-01's),
 * so a fixture that breaks the contract fails at type-check; at run time it is refused naming the
 * field.
 */
export interface MockFixtures {
  subscriptions?: V2024['Subscription'][];
  transactions?: V2024['Transaction'][];
  fulfillmentOrders?: V2024['FulfillmentOrder'][];
  tickets?: ComponentsUnstable['schemas']['Ticket'][];
  orders?: V2024['Order'][];
  fulfillments?: V2023['OrderFulfillment'][];
  stockrecords?: V2023['StockRecord'][];
  giftCards?: V2023['GiftCard'][];
  metadata?: V2023['MetadataDefinition'][];
  pages?: V2024['Page'][];
  store?: V2024['Store'][];
}
export type FixtureCollection = keyof MockFixtures;

/** Which operation's 200 response holds each fixture collection's records (list items or the body). */
const FIXTURE_SCHEMAS: Record<FixtureCollection, { operationId: string; shape: 'item' | 'body' | 'element' }> = {
  subscriptions: { operationId: 'renewSubscription', shape: 'body' },
  transactions: { operationId: 'listSubscriptionTransactions', shape: 'item' },
  fulfillmentOrders: { operationId: 'acceptCancellationRequest', shape: 'body' },
  tickets: { operationId: 'getTicket', shape: 'body' },
  orders: { operationId: 'addOrderLineItems', shape: 'body' },
  fulfillments: { operationId: 'getOrderFulfillments', shape: 'body' },
  stockrecords: { operationId: 'getStockRecord', shape: 'body' },
  giftCards: { operationId: 'createGiftCard', shape: 'body' },
  metadata: { operationId: 'updateMetadataDefinition', shape: 'body' },
  pages: { operationId: 'updatePage', shape: 'body' },
  store: { operationId: 'getStore', shape: 'element' },
};

/** A `--data` file the mock refuses: names the file, the record and the field. */
export class FixtureError extends Error {
  override name = 'FixtureError';
}

export interface MockEngineOptions {
  /** The version bundles. Default: the package's own, read from disk (Node); in a browser pass them. */
  bundles?: Bundle[];
  /** Seed of the generated store. Default `store-admin`. */
  seed?: string;
  /** Records per page of every list. Default 10. */
  pageSize?: number;
  /** One state for every token instead of one per bearer token. Default false. */
  sharedState?: boolean;
  /** Fixtures replacing the seeded collections they name (validated against the contract). */
  data?: MockFixtures;
  /** Where `data` came from, for error messages. Default `data`. */
  dataSource?: string;
  /** The clock of write timestamps. Default: the real one. */
  now?: () => Date;
  /** Failure scenarios for every request, or one operation's (./scenarios.ts); `Prefer` tokens win. */
  scenarios?: readonly Scenario[];
  /** The state file (`--state`; startMock opens it in Node). Default: states live in memory only. */
  persistence?: Persistence;
  /** Token states kept in memory, least recently used evicted beyond. Default 1000. */
  maxStates?: number;
  /** Estimated bytes the token states may hold beyond the seeded data. Default 256 MiB. */
  maxStateBytes?: number;
  /** Requests kept by the request log (`GET /__mock/requests`, the inspector). Default 500. */
  requestLogSize?: number;
}

/** A request as an adapter hands it over: lower-case header names; the body read on demand. */
export interface RawRequest {
  method: string;
  /** Origin-form target: path and query, e.g. `/subscriptions/?status=active`. */
  target: string;
  /** Origin the client used, e.g. `http://localhost:4010` (from the Host header), for `next` URLs. */
  origin: string;
  header(name: string): string | undefined;
  /** The body bytes; `'too-large'` beyond {@link MAX_BODY_BYTES}. */
  readBody(): Promise<Uint8Array | 'too-large'>;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The version that served the request (or `-`), for the request log. */
  version: string;
  /** A `fail=drop` scenario: the adapter drops the connection instead of answering. */
  drop?: true;
}

export interface MockEngine {
  /**
   * Answers a Fetch request. `basePath` is the path the API is mounted under (`/api` when the app
   * calls `https://host/api/store/`): stripped before routing, kept in `next`/`previous` URLs.
   * A dropped connection (`Prefer: fail=drop`) is `Response.error()`.
   */
  handle(request: Request, options?: { basePath?: string }): Promise<Response>;
  handleRaw(request: RawRequest): Promise<RawResponse>;
  /**
   * Back to the seeded data: one token's state, or every state (the shared one with `sharedState`).
   * Atomic with respect to writes in flight: one that started before is not applied (409). The
   * change is made at once; the promise resolves when the state file has it.
   */
  reset(token?: string): Promise<void>;
  /** @deprecated since 0.3.0: the data the shared or seeded state holds; use {@link MockEngine.export}. */
  snapshot(): StoreData;
  /**
   * Saves a token's state as snapshot `name` (replacing one of that name). Without a token: the
   * shared state with `sharedState`, else every token state (each saves its own).
   */
  snapshot(name: string, token?: string): Promise<SnapshotInfo[]>;
  /** Makes snapshot `name` the state again (token omitted: as for snapshot; states without it are reset). False when none has it. */
  restore(name: string, token?: string): Promise<boolean>;
  /** A token's data (token omitted: the shared state, else the seeded data) in the `--data` fixtures format. */
  export(token?: string): MockFixtures;
  /** The last requests answered, newest first (the inspector's log). */
  requests(limit?: number): LoggedRequest[];
  readonly versions: string[];
  /** Number of operations served, counted once per method and path. */
  readonly operations: number;
  readonly seed: string;
  readonly pageSize: number;
}

interface Target {
  operation: BundleOperation;
  version: ApiVersion;
  validator: OperationValidator;
  decl: OperationDecl;
  project: Projector;
  pathPattern: RegExp;
  pathNames: string[];
  examples: Record<string, string[]>;
  exampleValues: Record<string, unknown>;
  statuses: string[];
}

function invalid(violations: Violation[], context: { operation: string; version: string }, status = 422): Problem {
  const detail = `The request breaks the contract of ${context.operation} (${context.version}): ${summarize(violations)}.`;
  const title = status === 422 ? 'Invalid request' : 'Bad request';
  return problem(status, PROBLEM_TYPES.invalid, title, detail, violations, context);
}

function matches(filter: FilterDecl, record: Rec, wanted: unknown): boolean {
  const value = filter.get(record);
  const values = Array.isArray(value) ? value : [value];
  switch (filter.kind) {
    case 'any':
      return (wanted as unknown[]).some((w) => values.some((v) => String(v) === String(w)));
    case 'eq':
    case 'bool':
      return values.some((v) => v !== undefined && v !== null && String(v) === String(wanted));
    case 'from':
      return values.some((v) => typeof v === 'string' && v >= String(wanted));
    case 'to':
      return values.some((v) => typeof v === 'string' && v <= String(wanted));
  }
}

export function createMockEngine(options: MockEngineOptions = {}): MockEngine {
  const bundles = options.bundles ?? loadBundles();
  const seed = options.seed ?? DEFAULT_SEED;
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) {
    throw new RangeError(`pageSize must be an integer from 1 to 1000, got ${pageSize}`);
  }
  const now = options.now ?? (() => new Date());
  const listing = listExamples(bundles);
  const templates = templatesOf(bundles);

  const targets: { method: string; path: string; version: string; target: Target }[] = [];
  const byOperation = new Map<string, Target>();
  for (const bundle of bundles) {
    const validators = compileValidators(bundle);
    const projector = createProjector(bundle.document);
    for (const operation of bundle.operations) {
      const decl = OPERATION_DECLS[operation.operationId];
      if (!decl) throw new Error(`the mock has no declaration for ${operation.operationId} (src/mock/resources.ts)`);
      const media = deref(bundle.document, operation.operation.responses?.['200'])?.content?.['application/json'];
      const schema = media?.schema;
      const exampleMap: Record<string, unknown> = {};
      for (const [name, example] of Object.entries<Json>(media?.examples ?? {})) {
        exampleMap[name] = deref(bundle.document, example)?.value;
      }
      const target: Target = {
        operation,
        version: bundle.version,
        validator: validators.get(operation) as OperationValidator,
        decl,
        project: schema ? projector(schema) : (v) => v,
        pathPattern: templateToRegExp(operation.path, true),
        pathNames: [...operation.path.matchAll(/\{([^}/]+)\}/g)].map((m) => m[1] as string),
        examples:
          listing.find((l) => l.version === bundle.version && l.operationId === operation.operationId)?.examples ?? {},
        exampleValues: exampleMap,
        statuses: Object.keys(operation.operation.responses ?? {}),
      };
      targets.push({ method: operation.method, path: operation.path, version: bundle.version, target });
      byOperation.set(`${bundle.version} ${operation.operationId}`, target);
    }
  }
  const router = createRouter(
    targets,
    bundles.map((b) => b.version),
  );

  // The seeded data, fixtures applied and checked.
  const seeded = generateStore(bundles, { seed });
  if (options.data !== undefined) applyFixtures(seeded, options.data, options.dataSource ?? 'data');
  const seedState = new State(seeded);
  const store = new TokenStore({
    seed: seedState,
    shared: options.sharedState ?? false,
    now,
    ...(options.persistence && { persistence: options.persistence }),
    ...(options.maxStates !== undefined && { maxStates: options.maxStates }),
    ...(options.maxStateBytes !== undefined && { maxBytes: options.maxStateBytes }),
  });
  const requestLog = new RequestLog(options.requestLogSize);
  const adminContext = { store, log: requestLog, exportData: (key: string) => structuredClone(store.data(key)) };

  function applyFixtures(store: StoreData, data: unknown, source: string): void {
    if (!data || typeof data !== 'object' || Array.isArray(data)) {
      throw new FixtureError(
        `${source}: must be a JSON object of record arrays by resource (${Object.keys(FIXTURE_SCHEMAS).join(', ')})`,
      );
    }
    for (const [collection, records] of Object.entries(data as Record<string, unknown>)) {
      const spec = FIXTURE_SCHEMAS[collection as FixtureCollection];
      if (!spec) {
        throw new FixtureError(
          `${source}: unknown resource "${collection}" (one of ${Object.keys(FIXTURE_SCHEMAS).join(', ')})`,
        );
      }
      if (!Array.isArray(records)) throw new FixtureError(`${source}: ${collection} must be an array of records`);
      const target = [...byOperation.values()].find((t) => t.operation.operationId === spec.operationId);
      if (!target)
        throw new FixtureError(`${source}: ${collection} needs ${spec.operationId}, absent from the bundles`);
      const key = keyField(collection);
      const seen = new Set<string>();
      records.forEach((record, index) => {
        const name = `${source}: ${collection}[${index}]${record && typeof record === 'object' && key in record ? ` (${key} ${JSON.stringify(record[key])})` : ''}`;
        if (!record || typeof record !== 'object' || Array.isArray(record))
          throw new FixtureError(`${name}: not an object`);
        const wrapped =
          spec.shape === 'item'
            ? { next: null, previous: null, results: [record] }
            : spec.shape === 'element'
              ? [record]
              : record;
        const violations = target.validator.checkResponse(wrapped);
        const first = violations[0];
        if (first) {
          const prefix = spec.shape === 'item' ? 3 : spec.shape === 'element' ? 2 : 1;
          const field = first.location.slice(prefix).join('.') || '(record)';
          throw new FixtureError(`${name}: field ${field} breaks the contract (${first.rule}): ${first.message}`);
        }
        if (spec.shape !== 'element') {
          const value = String((record as Rec)[key]);
          if (!Number.isSafeInteger(Number(value)))
            throw new FixtureError(`${name}: field ${key} must be an integer (or a numeric order number)`);
          if (seen.has(value)) throw new FixtureError(`${name}: duplicate ${key} ${value}`);
          seen.add(value);
        }
      });
      store[collection] = structuredClone(records as Rec[]);
    }
  }

  /** A token's state to read (the seeded one if it was evicted meanwhile: its write is then refused). */
  const readState = (token: string): State => {
    const state = store.read(token);
    return state === 'evicted' ? seedState : state;
  };

  /** A record as `version` shows it (before the projection on the version's schema). */
  function view(collection: string, record: Rec, version: string, state: State): Rec {
    if (collection === 'subscriptions' && version === '2023-02-10') {
      return {
        ...record,
        is_tax_known: record.is_tax_known ?? true,
        lines: ((record.lines ?? []) as Rec[]).map((line) =>
          subscriptionLineV2023(line, templates.subscriptionLineV2023, record.currency, state.list('stockrecords')),
        ),
      };
    }
    if (collection === 'orders') {
      return { ...record, fulfillments: state.list('fulfillments').filter((f) => f.order_number === record.number) };
    }
    return record;
  }

  const timestamp = () =>
    now()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');

  /** Every request: a write opens a ticket on its state (see ./tokens/store.ts), then is answered and logged. */
  async function handleRaw(request: RawRequest): Promise<RawResponse> {
    const started = performance.now();
    const token = tokenOf(request.header('authorization'));
    const method = request.method.toUpperCase();
    if (/^\/__mock(\/|\?|$)/.test(request.target)) return answer(request, undefined); // the inspector's calls are not logged
    const ticket = token && method !== 'GET' && method !== 'HEAD' ? store.begin(token) : undefined;
    let requestBody: Uint8Array | 'too-large' | undefined;
    const readBody = async () => {
      requestBody = await request.readBody();
      return requestBody;
    };
    try {
      const response = await answer({ ...request, readBody }, ticket);
      const state = token ? shortHash(store.keyOf(token)) : null;
      logExchange(requestLog, { request, response, requestBody, ms: performance.now() - started, state });
      return response;
    } finally {
      if (ticket) store.end(ticket);
    }
  }

  async function answer(request: RawRequest, ticket: Ticket | undefined): Promise<RawResponse> {
    const origin = request.header('origin');
    const cors = corsHeaders(origin);
    const method = request.method.toUpperCase();
    const out = (response: RawResponse): RawResponse => ({ ...response, headers: { ...cors, ...response.headers } });

    const admin = request.target === ADMIN_PREFIX || request.target.startsWith(`${ADMIN_PREFIX}/`);
    if (method === 'OPTIONS' && request.header('access-control-request-method') !== undefined) {
      const requested = request.header('access-control-request-headers');
      return {
        status: 204,
        headers: admin ? adminPreflight(origin, requested) : preflightHeaders(origin, requested),
        body: '',
        version: 'preflight',
      };
    }
    const url = new URL(`http://mock.invalid${request.target.startsWith('/') ? request.target : `/${request.target}`}`);
    let pathname: string;
    try {
      decodeURIComponent(url.pathname);
      pathname = url.pathname;
    } catch {
      const message = `The path ${url.pathname} has a malformed percent-escape.`;
      return out(
        problemResponse(
          problem(400, PROBLEM_TYPES.malformedUrl, 'Malformed URL', message, [
            { field: 'path', rule: 'uri', message, location: ['path'] },
          ]),
        ),
      );
    }
    const authorization = request.header('authorization');
    const token = tokenOf(authorization);

    if (admin) {
      const answered = await answerAdmin(request, url, token, adminContext);
      return { ...answered, headers: { ...adminCors(origin), ...answered.headers } };
    }
    if (token && store.read(token) === 'evicted') {
      return out(problemResponse(stateEvicted(store.limits.maxStates)));
    }

    const route = router.resolve(method, pathname, request.header(VERSION_HEADER.toLowerCase()) || undefined);
    if (route.kind !== 'matched') {
      if (route.kind === 'method-not-allowed' && method === 'OPTIONS') {
        return out({ status: 204, headers: { Allow: [...route.allow, 'OPTIONS'].join(', ') }, body: '', version: '-' });
      }
      const refusal = routeRefusal(route, pathname);
      return out(
        problemResponse(refusal.body, refusal.headers, route.kind === 'unsupported-version' ? route.received : '-'),
      );
    }
    const { target, version } = route;
    const context = { operation: target.operation.operationId, version };
    const served = { [VERSION_HEADER]: version };
    const refuse = (body: Problem, headers: Record<string, string> = {}) =>
      out(problemResponse(body, { ...served, ...headers }, version));

    if (!token) {
      const refusal = unauthorized(authorization, true, context);
      return refuse(refusal.body, refusal.headers);
    }
    // Scopes (only a token that carries them is checked), then the failure scenarios asked for.
    const scopeRefusal = insufficientScope(token, requirementsOf(target.operation.operation.security), context);
    if (scopeRefusal) return refuse(scopeRefusal.body, scopeRefusal.headers);
    const scenario = scenarioOf(
      request.header('prefer'),
      [target.operation.operationId, `${method} ${target.operation.path}`],
      options.scenarios ?? [],
    );
    if (!scenario.ok) return refuse(badPrefer(scenario.message, context).body);
    const { fail, delay, retryAfter = 1 } = scenario.scenario;
    if (delay) await sleep(delay);
    if (fail === 'drop') return { status: 0, headers: {}, body: '', version, drop: true };
    if (fail !== undefined) {
      const failure = failureProblem(fail, retryAfter, context);
      return refuse(failure.body, failure.headers);
    }
    const prefer = parsePrefer(request.header('prefer'));
    if (!prefer.ok) return refuse(badPrefer(prefer.message, context).body);
    const length = request.header('content-length');
    if (length !== undefined && Number(length) > MAX_BODY_BYTES) return refuse(tooLarge(context));

    // Path and query.
    const { validator } = target;
    const captured = target.pathPattern.exec(pathname)?.slice(1) ?? [];
    const rawPath = Object.fromEntries(target.pathNames.map((name, i) => [name, safeDecode(captured[i] ?? '')]));
    const path = validator.checkPath(rawPath);
    const query = validator.checkQuery(url.searchParams);
    const violations = [...path.violations, ...query.violations];

    // Body.
    let body: unknown;
    if (validator.hasBody) {
      const bytes = await request.readBody();
      if (bytes === 'too-large') return refuse(tooLarge(context));
      if (bytes.length > 0) {
        const contentType = request.header('content-type');
        if (contentType !== undefined && !/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
          const message = `Unsupported content type "${contentType}"; send Content-Type: application/json.`;
          return refuse(
            problem(
              415,
              PROBLEM_TYPES.invalid,
              'Unsupported media type',
              `header.Content-Type: ${message}`,
              [{ field: 'header.Content-Type', rule: 'content-type', message, location: ['header', 'Content-Type'] }],
              context,
            ),
          );
        }
        let text: string;
        try {
          text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        } catch {
          const message = 'The request body is not valid UTF-8.';
          return refuse(
            problem(
              400,
              PROBLEM_TYPES.malformedJson,
              'Malformed body',
              message,
              [{ field: 'body', rule: 'utf-8', message, location: ['body'] }],
              context,
            ),
          );
        }
        try {
          body = JSON.parse(text);
        } catch (error) {
          const message = `Malformed JSON body: ${(error as Error).message}`;
          return refuse(
            problem(
              400,
              PROBLEM_TYPES.malformedJson,
              'Malformed JSON',
              'The request body is not valid JSON.',
              [{ field: 'body', rule: 'json', message, location: ['body'] }],
              context,
            ),
          );
        }
        violations.push(...validator.checkBody(body));
      } else if (validator.bodyRequired) {
        violations.push({ field: 'body', rule: 'required', message: 'Body parameter is required', location: ['body'] });
      }
    }
    if (violations.length > 0) return refuse(invalid(violations, context));

    const cursorText = query.query.cursor;
    const cursor = typeof cursorText === 'string' ? decodeCursor(cursorText) : undefined;
    if (typeof cursorText === 'string' && !cursor) {
      const message = `cursor "${cursorText.slice(0, 64)}" was not issued by this mock; take it from a page's next or previous URL.`;
      return refuse(
        invalid([{ field: 'query.cursor', rule: 'cursor', message, location: ['query', 'cursor'] }], context, 400),
      );
    }

    // Prefer: code= / example= serve the contract's examples (after the request checks).
    const { preferences } = prefer;
    if (preferences.code !== undefined || preferences.example !== undefined) {
      const declared = () =>
        Object.entries(target.examples)
          .map(([code, names]) => `${code}${names.length ? ` (examples: ${names.join(', ')})` : ''}`)
          .join('; ');
      const code = preferences.code ?? 200;
      if (code === 401 && target.statuses.includes('401')) {
        const refusal = unauthorized(authorization, false, context);
        return refuse(refusal.body, refusal.headers);
      }
      if (!target.statuses.includes(String(code))) {
        return refuse(
          problem(
            404,
            PROBLEM_TYPES.notFound,
            'No such response',
            `${context.operation} (${version}) does not declare ${code}. It declares: ${declared()}.`,
            [],
            context,
          ),
        );
      }
      if (preferences.example !== undefined) {
        if (code !== 200 || !Object.hasOwn(target.exampleValues, preferences.example)) {
          return refuse(
            problem(
              404,
              PROBLEM_TYPES.notFound,
              'No such example',
              `${context.operation} (${version}) has no example "${preferences.example}" for ${code}. It declares: ${declared()}.`,
              [],
              context,
            ),
          );
        }
        return out(json(200, target.exampleValues[preferences.example], served, version));
      }
      if (code !== 200) {
        return out({ status: code, headers: served, body: '', version });
      }
    }

    const decl = target.decl;
    const key = decl.kind !== 'list' && decl.param ? path.values[decl.param] : undefined;
    const notFound = (what: string, field: string) =>
      refuse(
        problem(
          404,
          PROBLEM_TYPES.notFound,
          'Not found',
          what,
          [{ field, rule: 'exists', message: what, location: field.split('.') }],
          context,
        ),
      );

    if (decl.kind === 'list') {
      const state = readState(token);
      let records = state.list(decl.collection);
      if (decl.parent) {
        const parentKey = path.values[decl.parent.param] as string | number;
        if (!state.get(decl.parent.collection, parentKey)) {
          return notFound(
            `No ${singular(decl.parent.collection)} with ${decl.parent.param} ${parentKey}.`,
            `path.${decl.parent.param}`,
          );
        }
        const owns = decl.parent.owns;
        records = records.filter((r) => owns(r, parentKey));
      }
      const applied = decl.filters.filter((f) => query.query[f.param] !== undefined);
      if (applied.length > 0) {
        records = records.filter((r) => applied.every((f) => matches(f, r, query.query[f.param])));
      }
      const page = pageOf(records, (r) => sortKey(decl.collection, r), pageSize, cursor);
      const link = (c: typeof page.next) => {
        if (!c) return null;
        const params = new URLSearchParams(url.searchParams);
        params.delete('cursor');
        params.append('cursor', encodeCursor(c));
        return `${request.origin}${pathname}?${params}`;
      };
      const envelope = {
        next: link(page.next),
        previous: link(page.previous),
        results: page.items.map((r) => view(decl.collection, r, version, state)),
      };
      const ignored = decl.notApplied.filter((name) => url.searchParams.has(name));
      const headers: Record<string, string> = { ...served };
      if (ignored.length > 0) headers[IGNORED_FILTERS_HEADER] = ignored.join(', ');
      return out(json(200, target.project(envelope), headers, version));
    }

    if (decl.kind === 'get') {
      const state = readState(token);
      if (key === undefined) {
        const all = state.list(decl.collection).map((r) => view(decl.collection, r, version, state));
        return out(json(200, target.project(all), served, version));
      }
      const found = decl.lookup ? decl.lookup(state, key) : state.get(decl.collection, key);
      if (!found) return notFound(`No ${singular(decl.collection)} with ${decl.param} ${key}.`, `path.${decl.param}`);
      if ('missing' in found && typeof found.missing === 'string' && Object.keys(found).length === 1) {
        return notFound(found.missing, `path.${decl.param}`);
      }
      return out(json(200, target.project(view(decl.collection, found, version, state)), served, version));
    }

    return write(
      decl,
      ticket ?? store.begin(token),
      key,
      body,
      target,
      version,
      context,
      served,
      refuse,
      notFound,
      out,
    );
  }

  function write(
    decl: WriteDecl,
    ticket: Ticket,
    key: string | number | undefined,
    body: unknown,
    target: Target,
    version: string,
    context: { operation: string; version: string },
    served: Record<string, string>,
    refuse: (body: Problem) => RawResponse,
    notFound: (what: string, field: string) => RawResponse,
    out: (response: RawResponse) => RawResponse,
  ): RawResponse | Promise<RawResponse> {
    const state = readState(ticket.key);
    let record: Rec = {};
    if (decl.param) {
      const found = state.get(decl.collection, key as string | number);
      if (!found) return notFound(`No ${singular(decl.collection)} with ${decl.param} ${key}.`, `path.${decl.param}`);
      record = structuredClone(found);
    }
    const result = decl.run({
      state,
      record,
      key: key ?? '',
      body: body ?? {},
      bodyProperties: target.validator.bodyProperties,
      now: timestamp(),
      seed,
    });
    if (!result.ok) {
      const title = result.status === 422 ? 'Request refused by the mock store' : 'Refused';
      return refuse(problem(result.status, PROBLEM_TYPES.invalid, title, result.detail, [result.violation], context));
    }
    const shown =
      result.body && typeof result.body === 'object' && !Array.isArray(result.body) && decl.collection in VIEWED
        ? viewWrite(decl.collection, result.body as Rec, version, state)
        : result.body;
    const projected = target.project(shown);
    const broken = target.validator.checkResponse(projected);
    if (broken.length > 0) {
      return refuse(
        problem(
          422,
          PROBLEM_TYPES.invalid,
          'Invalid request',
          `The change would leave a record the contract does not allow: ${summarize(broken)}. Nothing was changed.`,
          broken,
          context,
        ),
      );
    }
    // Applied now unless a reset came first; answered once the state file has it.
    const committed = store.commit(ticket, result.changes);
    if (committed === 'conflict') return refuse(resetConflict(context));
    if (committed === 'evicted') return refuse(stateEvicted(store.limits.maxStates, context));
    return committed.then(
      () => out(json(200, projected, served, version)),
      (error: unknown) => refuse(stateFileFailed(error, context)),
    );
  }

  const VIEWED: Record<string, true> = { subscriptions: true, orders: true };
  const viewWrite = (collection: string, record: Rec, version: string, state: State) =>
    view(collection, record, version, state);

  async function handle(request: Request, { basePath = '' }: { basePath?: string } = {}): Promise<Response> {
    const url = new URL(request.url);
    const base = basePath.replace(/\/+$/, '');
    const pathname = base && url.pathname.startsWith(`${base}/`) ? url.pathname.slice(base.length) : url.pathname;
    const raw = await handleRaw({
      method: request.method,
      target: `${pathname}${url.search}`,
      origin: `${url.origin}${pathname === url.pathname ? '' : base}`,
      header: (name) => request.headers.get(name) ?? undefined,
      readBody: async () => {
        const length = Number(request.headers.get('content-length') ?? 0);
        if (length > MAX_BODY_BYTES) return 'too-large';
        const bytes = new Uint8Array(await request.arrayBuffer());
        return bytes.length > MAX_BODY_BYTES ? 'too-large' : bytes;
      },
    });
    if (raw.drop) return Response.error();
    return new Response(raw.body === '' ? null : raw.body, { status: raw.status, headers: raw.headers });
  }

  return {
    handle,
    handleRaw,
    ...stateApi(store),
    requests: (limit) => requestLog.list(limit),
    versions: [...router.versions],
    operations: new Set(targets.map((t) => `${t.method} ${t.path}`)).size,
    seed,
    pageSize,
  };
}

const SINGULAR: Record<string, string> = {
  subscriptions: 'subscription',
  transactions: 'transaction',
  fulfillmentOrders: 'fulfillment order',
  tickets: 'ticket',
  orders: 'order',
  stockrecords: 'stock record',
  giftCards: 'gift card',
  metadata: 'metadata definition',
  pages: 'page',
};
const singular = (collection: string) => SINGULAR[collection] ?? collection;

/** The bearer token of an Authorization header (any scheme casing), or undefined. */
function tokenOf(authorization: string | undefined): string | undefined {
  return /^bearer[ \t]+(\S.*)$/i.exec(authorization?.trim() ?? '')?.[1]?.trim();
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function tooLarge(context: { operation: string; version: string }): Problem {
  const message = `The mock accepts bodies up to ${MAX_BODY_BYTES} bytes.`;
  return problem(
    413,
    PROBLEM_TYPES.tooLarge,
    'Payload too large',
    message,
    [{ field: 'body', rule: 'maxBytes', message, location: ['body'] }],
    context,
  );
}
