/** In-process calls to a mock engine through `handle(Request)` (no HTTP server), for the store tests. */
import { loadBundles, VERSION_HEADER } from '../../src/contract/index.ts';
import { createMockEngine, type MockEngine, type MockEngineOptions } from '../../src/mock/index.ts';
import { readResult } from './http.ts';

export const bundles = loadBundles();

export interface EngineCall {
  token?: string | null;
  version?: string;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  origin?: string;
}

export interface EngineResult {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read bodies loosely.
  json: any;
  text: string;
}

export function engineOf(options: Partial<MockEngineOptions> = {}): MockEngine {
  return createMockEngine({ bundles, ...options });
}

export async function send(engine: MockEngine, method: string, path: string, options: EngineCall = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== null) headers.Authorization = `Bearer ${options.token ?? 'store-test'}`;
  if (options.version) headers[VERSION_HEADER] = options.version;
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) headers['Content-Type'] ??= 'application/json';
  const response = await engine.handle(
    new Request(`${options.origin ?? 'http://mock.test'}${path}`, {
      method,
      headers,
      ...(body !== undefined && { body }),
    }),
  );
  return (await readResult(response)) as EngineResult;
}
