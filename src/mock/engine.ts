/**
 * The stateful mock engine, transport-independent: `createMockEngine({ bundles })` returns
 * `{ handle(request: Request): Promise<Response>, reset() }` over the seeded store of the declared
 * model (./model). The node:http server (./server.ts) is one thin adapter over
 * {@link MockEngine.handleRaw}; an MSW handler can call `handle` in a browser (no node: import
 * here; bundles are passed in as data).
 *
 * Wiring only: a preflight and the admin endpoints are answered before the pipeline; an API request
 * runs through one list of typed stages over one context (./stages), each answering (a refusal) or
 * adding its fields and passing on; a refused request changes nothing.
 */
import { type Bundle, createRouter, loadBundles } from '../contract/index.ts';
import { type LoggedRequest, RequestLog } from './admin/request-log.ts';
import { secondsClock } from './clock.ts';
import { State, type StateView } from './collection-state.ts';
import { CoverageRecorder, type CoverageReport } from './coverage/recorder.ts';
import { handleFetch } from './fetch.ts';
import { limitsOf, type MockLimits, pageSizeOf, stateLimitsOf } from './limits.ts';
import { applyFixtures, type MockFixtures, recordProblem } from './model/fixtures.ts';
import { type StoreData, seedStore } from './model/index.ts';
import { recordCheckOf } from './model/schemas.ts';
import type { Scenario } from './scenarios.ts';
import { answer } from './stages/answer.ts';
import { auth } from './stages/auth.ts';
import { body } from './stages/body.ts';
import { type EngineCore, type Incoming, pipeline, type RawRequest, type RawResponse } from './stages/context.ts';
import { examples } from './stages/examples.ts';
import { incomingOf, outside, through } from './stages/intake.ts';
import { memo } from './stages/memo.ts';
import { route } from './stages/route.ts';
import { scenario } from './stages/scenario.ts';
import { tokenState } from './stages/state.ts';
import { store } from './stages/store-rules.ts';
import { ticket } from './stages/ticket.ts';
import { validation } from './stages/validation.ts';
import { view } from './stages/view.ts';
import { targetsOf } from './targets.ts';
import { type SnapshotOptions, stateApi } from './tokens/api.ts';
import type { Persistence, SnapshotInfo } from './tokens/held.ts';
import { TokenStore } from './tokens/token-states.ts';

export type { RawRequest, RawResponse } from './stages/context.ts';
export { RESET_PATH } from './stages/route.ts';
export const DEFAULT_SEED = 'store-admin';
export const DEFAULT_PAGE_SIZE = 10;

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
  /** Told of each record of a recording in `data` that cannot be served (skipped). Default: console.warn. */
  warn?: (message: string) => void;
  /** The clock of write timestamps. Default: the real one. */
  now?: () => Date;
  /** Failure scenarios for every request, or one operation's (./scenarios.ts); `Prefer` tokens win. */
  scenarios?: readonly Scenario[];
  /** The limits of a token's state and of a request (./limits.ts); each defaults. */
  limits?: Partial<MockLimits>;
  /** The state file (`--state`; startMock opens it in Node). Default: states live in memory only. */
  persistence?: Persistence;
  /** Requests kept by the request log (`GET /__mock/requests`, the inspector). Default 500. */
  requestLogSize?: number;
  /**
   * Refuse a query parameter the operation does not declare (400 naming `query.<name>`, rule
   * `unknown`). Default false: it is ignored, as a real API would, and named in the answer's
   * `X-Mock-Unknown-Query` header and in the request log.
   */
  strictQuery?: boolean;
  /** Record what the requests exercise (`GET /__mock/coverage`, docs/mock.md "Coverage"). Default true. */
  coverage?: boolean;
}

export interface MockEngine {
  /**
   * Answers a Fetch request. `basePath` is the path the API is mounted under (`/api` when the app
   * calls `https://host/api/store/`): stripped before routing, kept in `next`/`previous` URLs.
   * A dropped connection (`Prefer: fail=drop`) is `Response.error()`.
   */
  handle(request: Request, options?: { basePath?: string }): Promise<Response>;
  /** Answers a raw request (the node:http adapter's): at once when no stage waits, as a read does. */
  handleRaw(request: RawRequest): RawResponse | Promise<RawResponse>;
  /**
   * Back to the seeded data: one token's state, or every state (the shared one with `sharedState`);
   * a write in flight that started before is not applied (409). Resolves once the state file has it.
   */
  reset(token?: string): Promise<void>;
  /** @deprecated since 0.3.0: the data of the shared (or seeded) state; use {@link MockEngine.export}. */
  snapshot(): StoreData;
  /**
   * Saves a token's state as snapshot `name` (replacing one of that name). Without a token: the
   * shared state with `sharedState`, else every token state (each saves its own). `{ global: true }`:
   * one global snapshot of that state (the seeded data without a token), owned by none, to `fork`.
   */
  snapshot(name: string, token?: string, options?: SnapshotOptions): Promise<SnapshotInfo[]>;
  /** Makes a token's state (a new token's when omitted) a copy-on-write fork of global snapshot `name`; resolves to the token. */
  fork(name: string, token?: string): Promise<string>;
  /**
   * Makes snapshot `name` the state again (token omitted: as for `snapshot`, and the states without
   * it are reset). Atomic like `reset`. False, changing nothing, when no state has it.
   */
  restore(name: string, token?: string): Promise<boolean>;
  /** A token's data (omitted: the shared state, else the seeded data) in the `--data` fixtures format. */
  export(token?: string): MockFixtures;
  /** The last requests answered, newest first (the inspector's log, `GET /__mock/requests`). */
  requests(limit?: number): LoggedRequest[];
  /**
   * A read-only view of the state a token sees now, without copying: records by key, its revision (writes
   * committed) and the records its last write stored. For tests and tools; do not change the records.
   */
  inspect(token?: string): StateView;
  /** What the requests exercised (docs/mock.md "Coverage"): the process's, or a token state's; `resetCoverage` forgets. */
  coverage(token?: string): CoverageReport;
  resetCoverage(): void;
  readonly versions: string[];
  /** Number of operations served, counted once per method and path. */
  readonly operations: number;
  readonly seed: string;
  readonly pageSize: number;
  readonly limits: MockLimits;
}

/** The stages in order, then the answer; the types check that each has what it needs before it. */
const PIPELINE = pipeline<Incoming>()
  .add(route)
  .add(auth)
  .add(tokenState)
  .add(ticket)
  .add(scenario)
  .add(body)
  .add(memo)
  .add(validation)
  .add(examples)
  .add(store)
  .add(view)
  .end(answer);

/** One request: answered outside the pipeline (a preflight, the admin endpoints), or through it. */
function handleRaw(core: EngineCore, raw: RawRequest): RawResponse | Promise<RawResponse> {
  const context = incomingOf(core, raw);
  return outside(context) ?? through(context, PIPELINE);
}

export function createMockEngine(options: MockEngineOptions = {}): MockEngine {
  const bundles = options.bundles ?? loadBundles();
  const seed = options.seed ?? DEFAULT_SEED;
  const pageSize = pageSizeOf(options.pageSize ?? DEFAULT_PAGE_SIZE);
  const now = options.now ?? (() => new Date());
  const targets = targetsOf(bundles);
  const seeded = seedStore(bundles, { seed });
  if (options.data !== undefined) {
    const fixtures = { source: options.dataSource ?? 'data', check: recordCheckOf(bundles, 'Fixture record') };
    applyFixtures(seeded, options.data, { ...fixtures, warn: options.warn });
  }
  const limits = limitsOf(options.limits);
  const recorder = new CoverageRecorder(targets, limits.maxTokenStates, options.coverage !== false);
  const stateCheck = recordCheckOf(bundles, 'Record');
  const core: EngineCore = {
    router: createRouter(targets),
    states: new TokenStore({
      seed: new State(seeded),
      shared: options.sharedState === true,
      ...stateLimitsOf(limits),
      checkRecord: (collection, record) => recordProblem(collection, record, stateCheck),
      now,
      ...(options.persistence && { persistence: options.persistence }),
    }),
    log: new RequestLog(options.requestLogSize),
    coverage: recorder,
    seed,
    pageSize,
    limits,
    scenarios: options.scenarios ?? [],
    strictQuery: options.strictQuery === true,
    timestamp: secondsClock(now),
  };
  const handle = (raw: RawRequest) => handleRaw(core, raw);
  return {
    handle: (request, options) => handleFetch(handle, request, options?.basePath),
    handleRaw: handle,
    ...stateApi(core.states),
    requests: (limit) => core.log.list(limit),
    coverage: (token) => recorder.report(token === undefined ? undefined : core.states.keyOf(token)),
    resetCoverage: () => recorder.clear(),
    versions: [...core.router.versions],
    operations: new Set(targets.map((t) => `${t.method} ${t.path}`)).size,
    seed,
    pageSize,
    limits: core.limits,
  };
}
