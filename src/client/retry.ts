/**
 * The fetch the client hands to openapi-fetch: retries, per-request timeout and abort. Only web
 * platform APIs (fetch, Request, AbortSignal, setTimeout).
 *
 * - 429 and 503 responses (configurable) and network errors (the TypeError of fetch) are retried,
 *   for idempotent methods only unless more methods are listed.
 * - The wait before a retry is the response's `Retry-After` (seconds or HTTP date) when present,
 *   else a capped exponential backoff with jitter. A `Retry-After` longer than `maxRetryAfter`
 *   is not waited for: the response is returned as it is.
 * - `timeout` bounds the whole call: every attempt and wait, and the reading of the response;
 *   it rejects with a DOMException named `TimeoutError`. {@link DEFAULT_TIMEOUT} unless set; `false`
 *   lifts it. The caller's `signal` aborts at any time, waits included, with the signal's reason.
 *   Every await of the call races its signal, and no body cancel is awaited (msw/node's never
 *   settles, issue #27), so neither a transport nor a body can outlast the deadline.
 */
import { checkedResponse, discard, type Fetch, followRedirects, MAX_RESPONSE_BYTES } from './guard.ts';

export interface RetryOptions {
  /** Attempts in total, the first one included (default 3; 1 turns retries off). */
  attempts: number;
  /** Backoff before the first retry, in ms (default 200); doubled at each further retry. */
  baseDelay: number;
  /** Upper bound of one backoff, in ms (default 5000). */
  maxDelay: number;
  /** Longest `Retry-After` honoured, in ms (default 60000); a longer one is not retried. */
  maxRetryAfter: number;
  /** Response statuses retried (default 429, 503). */
  statuses: readonly number[];
  /** Methods retried (default the idempotent GET, HEAD, OPTIONS, PUT, DELETE); add POST or PATCH to opt in. */
  methods: readonly ('GET' | 'HEAD' | 'OPTIONS' | 'PUT' | 'DELETE' | 'POST' | 'PATCH')[];
  /** Called before each wait, e.g. for logging. */
  onRetry?: (event: RetryEvent) => void;
}

export interface RetryEvent {
  method: string;
  url: string;
  /** The attempt that failed (1 for the first). */
  attempt: number;
  /** The wait before the next attempt, in ms. */
  delay: number;
  /** The response that is retried, or undefined after a network error. */
  response?: Response;
  /** The network error that is retried, or undefined after a response. */
  error?: unknown;
}

/** Options accepted by the client and, to override them, by each call. */
export interface RequestExtras {
  /** Retry policy (a call's options apply over the client's); `false` turns retries off. */
  retry?: Partial<RetryOptions> | false;
  /** Deadline of the whole call in ms, retries included (default {@link DEFAULT_TIMEOUT}); `false`: none. */
  timeout?: number | false;
  /**
   * Largest response body the client reads, in bytes (default 50 MiB); a larger one rejects the
   * call with an AdminClientError `too-large` instead of being read whole.
   */
  maxResponseBytes?: number;
}

/**
 * The deadline of a call when none is given: 60 s for the whole call, retries included (docs/client.md
 * says why: stripe-node's 80 s is per attempt; this one bounds all three attempts and their waits).
 */
export const DEFAULT_TIMEOUT = 60_000;

export const DEFAULT_RETRY: RetryOptions = {
  attempts: 3,
  baseDelay: 200,
  maxDelay: 5000,
  maxRetryAfter: 60_000,
  statuses: [429, 503],
  methods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'],
};

/** The wait a `Retry-After` value asks for, in ms; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date always names its month (RFC 9110 §5.6.7); Date.parse alone reads '-5' as a year.
  const date = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Capped exponential backoff with equal jitter: half of the step fixed, half random. */
export function backoffMs(retry: number, options: Pick<RetryOptions, 'baseDelay' | 'maxDelay'>): number {
  const step = Math.min(options.maxDelay, options.baseDelay * 2 ** (retry - 1));
  return step / 2 + (Math.random() * step) / 2;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** `promise`, or the signal's reason as soon as it aborts, whichever comes first. */
function until<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal.removeEventListener('abort', onAbort);
    promise.then(
      (value) => {
        settle();
        resolve(value);
      },
      (error: unknown) => {
        settle();
        reject(error);
      },
    );
  });
}

/**
 * The signal of one call: the caller's, or the deadline's on a timer the call owns, and `end` to
 * clear them. Not AbortSignal.any([…, AbortSignal.timeout()]): Node collects a timeout signal only
 * any() holds, and after a garbage collection the deadline never came (issue #31). The timer roots
 * the controller until `end` (the call failed, or its body was read or cancelled); unref'd in Node as
 * AbortSignal.timeout's is, so it keeps no process alive on its own.
 */
function callSignal(caller: AbortSignal, deadline: number | false): { signal: AbortSignal; end: () => void } {
  if (deadline === false) return { signal: caller, end: () => {} };
  const controller = new AbortController();
  const onAbort = () => controller.abort(caller.reason);
  const timer = setTimeout(
    () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    deadline,
  );
  (timer as { unref?: () => void }).unref?.();
  if (caller.aborted) onAbort();
  else caller.addEventListener('abort', onAbort, { once: true });
  const end = () => {
    clearTimeout(timer);
    caller.removeEventListener('abort', onAbort);
  };
  return { signal: controller.signal, end };
}

/**
 * `response` with a body that fails with the signal's reason once it aborts, whatever the transport
 * does with the signal (one listener per body, not one per chunk); `end` is called when the body is
 * read, fails or is cancelled (at once if there is none). The source's cancel is not awaited.
 */
function readUntil(response: Response, signal: AbortSignal, end: () => void): Response {
  const { body, status, statusText, headers } = response;
  // Nothing to read (openapi-fetch does not read an empty body): the call ends here.
  if (body === null || headers.get('Content-Length') === '0') {
    end();
    return response;
  }
  const reader = body.getReader();
  let output: ReadableStreamDefaultController<Uint8Array> | undefined;
  const finish = () => {
    signal.removeEventListener('abort', onAbort);
    end();
  };
  const stop = (reason: unknown) => {
    finish();
    reader.cancel(reason).catch(() => {});
  };
  const onAbort = () => {
    output?.error(signal.reason);
    stop(signal.reason);
  };
  const read = new ReadableStream<Uint8Array>({
    start(controller) {
      output = controller;
    },
    async pull(controller) {
      const chunk = await reader.read().catch((error: unknown) => {
        stop(error);
        throw error;
      });
      if (signal.aborted) return; // the stream has failed already
      if (!chunk.done) return controller.enqueue(chunk.value);
      finish();
      controller.close();
    },
    cancel: stop,
  });
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return new Response(read, { status, statusText, headers });
}

export type { Fetch };
/** The options of one call, and its last response (for the error of a body that does not parse). */
export interface CallState extends RequestExtras {
  last?: [Response, Request];
}
/** The client's fetch: one call's request, with the call's options over the client's. */
export type Send = (request: Request, call?: CallState) => Promise<Response>;

const NO_EXTRAS: CallState = {};

/**
 * Sends `request` (with the call's `signal`) up to `options.attempts` times, each retry after its
 * wait, and follows each attempt's redirects (guard.ts); the response that is not retried.
 */
async function attemptAll(
  fetch: Fetch,
  request: Request,
  signal: AbortSignal,
  options: RetryOptions,
): Promise<Response> {
  const { attempts } = options;
  for (let attempt = 1; ; attempt++) {
    const last = !(attempt < attempts);
    // Keep the original intact while a later attempt may need its body again.
    let current = last || request.body === null ? request : request.clone();
    if (signal !== request.signal) current = new Request(current, { signal });
    let response: Response | undefined;
    let error: unknown;
    try {
      response = await until(fetch(current), signal);
      // A redirect (3xx, or a browser's status 0 `opaqueredirect`) is the client's to follow or refuse.
      const { status } = response;
      if (status < 200 || (status > 299 && status < 400)) {
        response = await until(followRedirects(fetch, current, response), signal);
      }
    } catch (caught) {
      if (signal.aborted) throw signal.reason;
      if (last || !(caught instanceof TypeError)) throw caught;
      error = caught;
    }
    let delay: number | undefined;
    if (response) {
      if (last || !options.statuses.includes(response.status)) return response;
      delay = retryAfterMs(response.headers.get('Retry-After'));
      if ((delay ?? 0) > options.maxRetryAfter) return response;
      discard(response);
    }
    delay ??= backoffMs(attempt, options);
    options.onRetry?.({ method: request.method, url: request.url, attempt, delay, response, error });
    await sleep(delay, signal);
  }
}

/**
 * Wraps `fetch` with the client's retry and timeout defaults (each call may override them), its
 * redirect rule (guard.ts: each attempt's redirects) and its response checks (the final response).
 */
export function retryingFetch(fetch: Fetch, defaults: RequestExtras): Send {
  const base = { ...DEFAULT_RETRY, ...(defaults.retry || undefined) };
  return async (request, call = NO_EXTRAS) => {
    const { retry, timeout = defaults.timeout, maxResponseBytes = defaults.maxResponseBytes } = call;
    const options = retry ? { ...base, ...retry } : base;
    const enabled = retry ?? defaults.retry ?? true;
    const retried = enabled !== false && (options.methods as readonly string[]).includes(request.method);
    // A method not retried is sent once.
    const attempted = retried || options.attempts === 1 ? options : { ...options, attempts: 1 };
    if (request.redirect !== 'manual') request = new Request(request, { redirect: 'manual' });
    const { signal, end } = callSignal(request.signal, timeout === undefined ? DEFAULT_TIMEOUT : timeout);
    let response: Response;
    try {
      response = readUntil(await attemptAll(fetch, request, signal, attempted), signal, end);
    } catch (error) {
      end();
      throw error;
    }
    response = checkedResponse(response, request, maxResponseBytes ?? MAX_RESPONSE_BYTES);
    if (call !== NO_EXTRAS) call.last = [response, request];
    return response;
  };
}
