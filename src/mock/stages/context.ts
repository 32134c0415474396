/**
 * The one request context the engine's stages work on (./*.ts, wired in ../engine.ts): what came in
 * (`incoming`), what the route stage found (`target`, `version`), what the later stages read
 * (token, preferences, path, query, body) and what the store stage produced (`result`). A stage
 * returns a {@link RawResponse} to answer now (a refusal, a preflight), or nothing to go on.
 */
import type { ApiVersion, Bundle, BundleOperation, Router } from '../../contract/index.ts';
import type { MockPreferences } from '../../http/index.ts';
import type { OperationValidator, Violation } from '../../validation/index.ts';
import type { RequestLog } from '../admin/request-log.ts';
import type { MockLimits } from '../limits.ts';
import type { Rec, ViewContext } from '../model/index.ts';
import type { Cursor } from '../pagination.ts';
import type { Projector } from '../project.ts';
import type { OperationDecl } from '../resources.ts';
import type { Scenario } from '../scenarios.ts';
import type { Ticket, TokenStore } from '../tokens/token-states.ts';

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
  body: string;
  /** The version that served the request (or `-`), for the request log. */
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
}

/** What every request shares: built once per engine. */
export interface EngineCore {
  router: Router<Target>;
  states: TokenStore;
  /** The last requests answered (the inspector's). */
  log: RequestLog;
  seed: string;
  pageSize: number;
  limits: MockLimits;
  scenarios: readonly Scenario[];
  /** Refuse a query parameter the operation does not declare (400) instead of naming it in a header. */
  strictQuery: boolean;
  /** Current time as the API writes it (ISO 8601, seconds). */
  timestamp(): string;
}

/** What the store stage produced, for the view and answer stages. */
export type StoreResult =
  | {
      kind: 'list';
      collection: string;
      records: Rec[];
      next: string | null;
      previous: string | null;
      headers: Record<string, string>;
    }
  | { kind: 'records'; collection: string; records: Rec[] }
  | { kind: 'record'; collection: string; record: Rec }
  | {
      kind: 'write';
      collection: string;
      body: unknown;
      shape: 'record' | 'values' | 'as-is';
      changes: [string, Rec][];
    };

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
  /** A write's ticket on its state (../tokens/token-states.ts), opened when the request arrived. */
  ticket: Ticket | undefined;
}

export interface RequestContext extends Incoming {
  target: Target;
  version: ApiVersion;
  /** Headers of every answer once routed (the version served). */
  served: Record<string, string>;
  /** Operation and version, named in every problem body. */
  problem: { operation: string; version: string };
  token: string;
  preferences: MockPreferences;
  path: Record<string, string | number>;
  query: Record<string, unknown>;
  body: unknown;
  violations: Violation[];
  cursor: Cursor | undefined;
  result: StoreResult | undefined;
  /** What the collections' views read (./view.ts), made once per request when first needed. */
  viewContext: ViewContext | undefined;
  /** The answer's body once viewed and projected. */
  shown: unknown;
}

export type Stage = (context: RequestContext) => RawResponse | undefined | Promise<RawResponse | undefined>;
