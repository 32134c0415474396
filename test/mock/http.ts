/** Raw HTTP calls to the suite's mock (test/setup/mock.ts), for the cases a typed client cannot send. */
import { inject } from 'vitest';
import { VERSION_HEADER } from '../../src/contract/index.ts';

export interface CallOptions {
  /** `X-Service-API-Version`; `null` sends none. Default: none. */
  version?: string | null;
  /** Bearer token; `null` sends no Authorization; a string starting with a scheme is sent as is. */
  token?: string | null;
  authorization?: string;
  query?: string;
  /** JSON-encoded unless `raw` is set. */
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  baseUrl?: string;
}

export interface CallResult {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies loosely.
  json: any;
  text: string;
}

export async function call(method: string, path: string, options: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.version) headers[VERSION_HEADER] = options.version;
  if (options.authorization !== undefined) headers.Authorization = options.authorization;
  else if (options.token !== null) headers.Authorization = `Bearer ${options.token ?? 'test-token'}`;
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['Content-Type'] = 'application/json';
  }
  const base = options.baseUrl ?? inject('mockUrl');
  const response = await fetch(`${base}${path}${options.query ? `?${options.query}` : ''}`, {
    method,
    headers,
    ...(body !== undefined && { body }),
  });
  return readResult(response);
}

/** A response's status, headers, text and JSON body (undefined when empty or not JSON). */
export async function readResult(response: Response) {
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

/**
 * Path parameters naming records of the seeded store (docs/mock.md) in a state each operation
 * accepts: subscription 1 is active and 2 past_due (owing its latest order), fulfillment order 1
 * pending, 2 open at location 14, 29 cancel_requested, transaction 4 an authorization, order "1003".
 */
export const STORE_PARAMS: Record<string, string> = {
  id: '1',
  number: '1003',
  'retrySubscription.id': '2',
  'moveFulfillmentOrder.id': '2',
  'sendFulfillmentRequest.id': '1',
  'acceptCancellationRequest.id': '29',
  'captureTransaction.id': '4',
};

/** Request bodies the seeded store accepts (the contract's examples name records of the examples). */
export const STORE_BODIES: Record<string, unknown> = {
  moveFulfillmentOrder: { new_location_id: 31 },
  sendFulfillmentRequest: { message: 'Please ship today', notify: true },
  captureTransaction: {},
};

let tokens = 0;
/** A token no other request used: its state is the seeded one. */
export const freshToken = (): string => `fresh-${process.pid}-${++tokens}`;
