/**
 * MSW request handlers backed by the mock engine: the same store, validation, version routing,
 * pagination, scopes and failure scenarios as `npm start`, with no process to spawn. One catch-all
 * handler under `baseUrl` hands each request to the engine (typed overrides first); requests
 * elsewhere are left to the app's other handlers. An internal error (a mock bug, an override that
 * throws) is logged once and answered with the mock's 500 problem, as the node:http server does:
 * never MSW's serialized exception, which carries the stack and file paths.
 */
import { http, type RequestHandler } from 'msw';
import type { Bundle } from '../contract/index.ts';
import { internalError } from '../http/index.ts';
import {
  type CoverageReport,
  createMockEngine,
  type MockEngine,
  type MockEngineOptions,
  type SnapshotInfo,
  type SnapshotOptions,
} from '../mock/browser.ts';
import { compileOverrides, type Override } from './overrides.ts';

export interface HandlersOptions extends Omit<MockEngineOptions, 'bundles'> {
  /** The API root the app calls, e.g. `http://localhost:5173/api` or `https://shop.example.com`. */
  baseUrl: string;
  /** Typed replacements of single operations' answers (see `override`), tried first. */
  overrides?: readonly Override[];
}

/** The handlers, plus the engine behind them (for `reset()` between tests, or direct calls). */
export interface MockHandlers extends Array<RequestHandler> {
  engine: MockEngine;
  /**
   * Back to the seed data: one token's state, or every state. Atomic: a write still in flight (e.g.
   * with `Prefer: delay`) is refused (409), never applied after the reset.
   */
  reset(token?: string): Promise<void>;
  /**
   * Saves the state as snapshot `name`: one token's, or every token's (each its own); with
   * `{ global: true }`, one global snapshot of the token's state that {@link MockHandlers.fork} copies.
   */
  snapshot(name: string, token?: string, options?: SnapshotOptions): Promise<SnapshotInfo[]>;
  /**
   * Makes a token's state (a new token's when omitted) a copy-on-write fork of global snapshot
   * `name`, and resolves to that token: each test of a worker starts from the same prepared store.
   */
  fork(name: string, token?: string): Promise<string>;
  /** Makes snapshot `name` the state again (every state: those without it are reset). False when none has it. */
  restore(name: string, token?: string): Promise<boolean>;
  /**
   * What the requests through these handlers exercised (docs/msw.md "Coverage"): the whole
   * process's, or one token's state's; `coverage.reset()` forgets it.
   */
  coverage: ((token?: string) => CoverageReport) & { reset(): void };
}

export function handlersFrom(bundles: Bundle[], options: HandlersOptions): MockHandlers {
  const { baseUrl, overrides = [], ...engineOptions } = options;
  const base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  const basePath = base.pathname.replace(/\/$/, '');
  const engine = createMockEngine({ ...engineOptions, bundles });
  const answerOverride = compileOverrides(overrides, bundles, base);
  const handler = http.all(`${base.href}*`, async ({ request }) => {
    const next = () => engine.handle(request.clone(), { basePath });
    try {
      return (await answerOverride(request, next)) ?? (await engine.handle(request, { basePath }));
    } catch (error) {
      console.error(`[store-admin mock] ${request.method} ${request.url} failed:`, error);
      return new Response(JSON.stringify(internalError()), {
        status: 500,
        headers: { 'Content-Type': 'application/problem+json' },
      });
    }
  });
  return Object.assign([handler as RequestHandler], {
    engine,
    reset: (token?: string) => engine.reset(token),
    snapshot: (name: string, token?: string, options?: SnapshotOptions) => engine.snapshot(name, token, options),
    fork: (name: string, token?: string) => engine.fork(name, token),
    restore: (name: string, token?: string) => engine.restore(name, token),
    coverage: Object.assign((token?: string) => engine.coverage(token), { reset: () => engine.resetCoverage() }),
  });
}
