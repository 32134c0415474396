/**
 * The one request context the engine's stages work on (./*.ts, wired in ../engine.ts) and the
 * {@link Stage} type: what came in ({@link Incoming}), then one type per stage for the fields it
 * adds (the route stage's {@link Routed}, ... the view stage's {@link Viewed}). A stage returns a
 * {@link RawResponse} to answer now (a refusal), or nothing to go on.
 */
import type { ApiVersion, Bundle, BundleOperation, Router } from '../../contract/index.ts';
import type { MockPreferences } from '../../http/index.ts';
import type { OperationValidator } from '../../validation/index.ts';
import type { RequestLog } from '../admin/request-log.ts';
import type { MockLimits } from '../limits.ts';
import type { AnyRecord, ViewContext } from '../model/index.ts';
import type { Cursor } from '../pagination.ts';
import type { Projector } from '../project.ts';
import type { OperationDecl } from '../resources.ts';
import type { Scenario } from '../scenarios.ts';
import type { Ticket } from '../tokens/held.ts';
import type { TokenStore } from '../tokens/token-states.ts';

/** A request as an adapter hands it over: lower-case header names; the body read on demand. */
export interface RawRequest {
  method: string;
  /** Origin-form target: path and query, e.g. `/subscriptions/?status=active`. */
  target: string;
  /** Origin the client used, e.g. `http://localhost:4010` (from the Host header), for `next` URLs. */
  origin: string;
  header(name: string): string | undefined;
  /**
   * Did the header come more than once? (An adapter that sees raw headers says; the Fetch `Headers`
   * API joins repeats with ", " and cannot.)
   */
  repeated?(name: string): boolean;
  /** The body bytes; `'too-large'` beyond MAX_BODY_BYTES. At once when the adapter already has them. */
  readBody(): Uint8Array | 'too-large' | Promise<Uint8Array | 'too-large'>;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  /**
   * The body: UTF-8 bytes for a read's JSON (made of cached bytes, ../view-cache.ts; never to be
   * written to), text for the rest (refusals, writes, examples). {@link bodyText} reads either.
   */
  body: string | Uint8Array;
  /**
   * What answered: an operation of the API (`version` names the version that served it, `-` when
   * refused before routing), a CORS preflight, or the mock's admin endpoints (../admin), which are
   * answered before the pipeline and are neither logged nor given the API's CORS headers.
   */
  kind: 'api' | 'preflight' | 'admin';
  /** The version that served an API request (`-` before routing, and for the other kinds), for the request log. */
  version: string;
  /** A `fail=drop` scenario: the adapter drops the connection instead of answering. */
  drop?: true;
}

/** One operation of one version, as the engine serves it. */
export interface Target {
  operation: BundleOperation;
  version: ApiVersion;
  bundle: Bundle;
  validator: OperationValidator;
  decl: OperationDecl;
  project: Projector;
  pathPattern: RegExp;
  pathNames: string[];
  /** Declared example names by status, for messages. */
  examples: Record<string, string[]>;
  exampleValues: Record<string, unknown>;
  statuses: string[];
  /** The headers of every answer of the operation (its version): the route stage's `served`. */
  served: Readonly<Record<string, string>>;
  /** Operation and version, named in every problem body: the route stage's `problem`. */
  problem: Readonly<{ operation: string; version: string }>;
}

/** What every request shares: built once per engine. */
export interface EngineCore {
  router: Router<Target>;
  states: TokenStore;
  /** The last requests answered (the inspector's). */
  log: RequestLog;
  /** What the requests exercised (`GET /__mock/coverage`): ../coverage/recorder.ts. */
  coverage: CoverageSink;
  seed: string;
  pageSize: number;
  limits: MockLimits;
  scenarios: readonly Scenario[];
  /** Refuse a query parameter the operation does not declare (400) instead of naming it in a header. */
  strictQuery: boolean;
  /** Current time as the API writes it (ISO 8601, seconds). */
  timestamp(): string;
}

/**
 * The coverage recorder as the engine's stages and admin endpoints see it (../coverage/recorder.ts
 * implements it; declared here so that the context does not import it back).
 */
export interface CoverageSink {
  /** Counts one answered API request; `stateKey` is the token state's key, null without a token. */
  record(context: RequestContext, response: RawResponse, stateKey: string | null): void;
  /** The report of the whole process, or of one token state's key (`GET /__mock/coverage`). */
  report(stateKey?: string): unknown;
  /** Forgets what was recorded. */
  clear(): void;
}

/** What the store stage produced, for the view and answer stages. */
export type StoreResult =
  | {
      kind: 'list';
      collection: string;
      records: AnyRecord[];
      next: string | null;
      previous: string | null;
      headers: Record<string, string>;
    }
  | { kind: 'records'; collection: string; records: AnyRecord[] }
  | { kind: 'record'; collection: string; record: AnyRecord }
  | {
      kind: 'write';
      collection: string;
      body: unknown;
      shape: 'record' | 'values' | 'as-is';
      changes: [string, AnyRecord][];
    };

/** The request read once (./intake.ts incomingOf): what every stage may read. */
export interface Incoming {
  core: EngineCore;
  raw: RawRequest;
  method: string;
  pathname: string;
  /** The query's parameters. */
  searchParams: URLSearchParams;
  authorization: string | undefined;
  /** The bearer token, when the header holds one. */
  token: string | undefined;
}

/** Added by the route stage: the operation and version served. */
export interface Routed {
  target: Target;
  version: ApiVersion;
  /** Headers of every answer once routed (the version served); shared and frozen: copy to add one. */
  served: Readonly<Record<string, string>>;
  /** Operation and version, named in every problem body. */
  problem: Readonly<{ operation: string; version: string }>;
}

/** Added by the auth stage: the request carries a bearer token. */
export interface Authorized {
  token: string;
}

/** Added by the ticket stage: a write's ticket on its state (../tokens/memory-states.ts), closed once answered. */
export interface Ticketed {
  ticket: Ticket | undefined;
}

/** Added by the scenario stage: the `Prefer` header's tokens. */
export interface Preferred {
  preferences: MockPreferences;
  /** The failure scenario applied (the rules and the request's tokens), for the coverage recorder. */
  scenario: Scenario | undefined;
}

/** Added by the body stage: the parsed JSON body, if one was sent. */
export interface Parsed {
  body: unknown;
}

/** Added by the validation stage: path and query as the contract types them, the page asked for. */
export interface Checked {
  path: Record<string, string | number>;
  query: Record<string, unknown>;
  cursor: Cursor | undefined;
}

/** Added by the store stage: what the operation found or would change. */
export interface Stored {
  result: StoreResult;
  /** The record a write addresses, as found before the write (for the coverage recorder's state rows). */
  addressed: AnyRecord | undefined;
}

/** Added by the view stage: the answer's body once viewed and projected. */
export interface Viewed {
  /** What the collections' views read (./view.ts), made once per request when first needed. */
  viewContext: ViewContext | undefined;
  shown: unknown;
}

/** The context once every stage before the answer has passed. */
export type RequestContext = Incoming & Routed & Authorized & Ticketed & Preferred & Parsed & Checked & Stored & Viewed;

/** A stage's outcome: an answer now (a refusal), or nothing to go on; a promise only when it waits. */
export type Passed = RawResponse | undefined | Promise<RawResponse | undefined>;

/**
 * A step of the pipeline: it reads `Needs` (what the request and the stages before it hold) and
 * answers, or sets the fields of `Adds` on the context and passes on. The context is one object,
 * made with every field by ./intake.ts; {@link pipeline} checks, by type, that each stage comes
 * after the stages that add what it needs.
 */
export type Stage<Needs, Adds = unknown> = {
  readonly name: string;
  readonly run: (context: Needs & Adds) => Passed;
};

/** The last step: it answers (a write commits first). */
export type Last<Needs> = (context: Needs) => RawResponse | Promise<RawResponse>;

/** The stages in order and the last step; the types say each stage has what it needs. */
export interface Pipeline<Has> {
  readonly stages: readonly Stage<never, unknown>[];
  /** A stage whose needs are not all added before it is a type error naming what is `missing`. */
  add<Needs, Adds>(
    stage: Stage<Needs, Adds> & ([Has] extends [Needs] ? unknown : { missing: Exclude<keyof Needs, keyof Has> }),
  ): Pipeline<Has & Adds>;
  /** The pipeline ending with `last`, as one function of the context. */
  end(last: Last<Has>): Last<Has>;
}

/** Starts a pipeline over what `Has` holds (the incoming request). */
export function pipeline<Has>(stages: readonly Stage<never, unknown>[] = []): Pipeline<Has> {
  return {
    stages,
    // The order is checked by the signature; at run time a stage is a stage.
    add: ((stage: Stage<never, unknown>) => pipeline([...stages, stage])) as Pipeline<Has>['add'],
    end: (last) => (context) => runFrom(stages, last as Last<unknown>, context, 0),
  };
}

/** The stages from `from` on; only a stage that waits returns a promise, and only it costs a microtask. */
function runFrom(
  stages: readonly Stage<never, unknown>[],
  last: Last<unknown>,
  context: unknown,
  from: number,
): RawResponse | Promise<RawResponse> {
  for (let i = from; i < stages.length; i++) {
    const early = (stages[i] as Stage<unknown, unknown>).run(context);
    if (early instanceof Promise) return early.then((settled) => settled ?? runFrom(stages, last, context, i + 1));
    if (early) return early;
  }
  return last(context);
}
