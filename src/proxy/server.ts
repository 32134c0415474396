/**
 * `startProxy()`: a node:http server in front of a real API. Every request goes to the upstream
 * (./exchange.ts) except the proxy's own: CORS preflights (answered as the mock answers them),
 * `GET /__proxy/report` (the report so far, JSON) and `/docs` (the reference, as on the mock).
 * `close()` stops it, writes the recording a last time and resolves with the final report.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_RESPONSE_BYTES } from '../client/index.ts';
import { type Bundle, loadBundles } from '../contract/index.ts';
import {
  answerClientError,
  listen,
  preflightHeaders,
  problemAnswer,
  refusal,
  type ServerTimeouts,
  serverOptionsOf,
  writeAnswer,
} from '../http/index.ts';
import { createExchangeChecker } from './check.ts';
import { Deferred } from './deferred.ts';
import { type ExchangeContext, type ExchangeEnds, HELD_BYTES, handleExchange } from './exchange.ts';
import { Recorder } from './recorder.ts';
import { recordModel } from './records.ts';
import { createRedactor, credentialFields, DEFAULT_REDACT } from './redact.ts';
import { type ExchangeOutcome, type ProxyReport, ReportBuilder } from './report.ts';
import { createUpstream, parseUpstream } from './upstream.ts';

export const DEFAULT_PROXY_PORT = 4020;
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;
export const REPORT_PATH = '/__proxy/report';

/** Is `url` the report's path (with or without a query)? Read without splitting every request's URL. */
const isReport = (url: string) =>
  url.startsWith(REPORT_PATH) && (url.length === REPORT_PATH.length || url[REPORT_PATH.length] === '?');

export interface ProxyOptions {
  /** The real API's root, e.g. `https://staging.example.com/api/admin`. */
  upstream: string;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Default 4020; `0` picks a free port. */
  port?: number;
  /** Record every 2xx JSON exchange to this file (loadable by the mock's `--data`). */
  record?: string;
  /** Exchanges kept, and records per collection (default 1000). */
  recordLimit?: number;
  /** Bytes of answers the recording holds, in memory and in the file (default 64 MiB); past it, exchanges are dropped. */
  recordMaxBytes?: number;
  /** Replace a recording already in `record` (default false: refused with an EEXIST error naming the file). */
  overwrite?: boolean;
  /**
   * Personal fields whose values are faked in the recording. Default `email`, `phone_number`, `ip`.
   * Credentials and payment data (./redact.ts) are faked whatever this says.
   */
  redact?: readonly string[];
  /** Refuse a request that breaks the contract with the mock's problem instead of forwarding it. */
  strict?: boolean;
  /** Time the upstream has to answer (and finish its answer), in ms. Default 30000. */
  upstreamTimeoutMs?: number;
  /** Largest upstream answer passed through, in bytes. Default: the client's MAX_RESPONSE_BYTES. */
  maxResponseBytes?: number;
  /**
   * Answers up to this many bytes are held, checked and sent whole with the exchange's total in
   * `X-Contract-Violations`; longer ones stream, the total in a trailer. Default 256 KiB.
   */
  heldBytes?: number;
  /** Directory holding the `<version>.json` bundles. Default: this package's. */
  bundlesDir?: string;
  /**
   * How long a client may take to send its headers and its whole request, and stay idle between
   * requests (ms): the mock's DEFAULT_TIMEOUTS (10 s, 30 s, 5 s) unless given, 408 beyond.
   */
  timeouts?: Partial<ServerTimeouts>;
  /** Receives one line per exchange and one per violation. No header value or query is ever logged. */
  log?: (line: string) => void;
  /** `false`: `log` receives the violation lines only, no line per exchange (the CLI's `--quiet`). Default true. */
  logExchanges?: boolean;
  /** Receives what must never go unseen (a recording write that failed), `log` or not. Default: console.warn. */
  warn?: (line: string) => void;
}

export interface ProxyServer {
  url: string;
  host: string;
  port: number;
  /** The upstream as named in messages (no credentials, no query). */
  upstream: string;
  report(): ProxyReport;
  /** Stops listening, writes the recording, resolves with the final report (rejects, naming the file, when that write fails). */
  close(): Promise<ProxyReport>;
}

/** The exchange's line (when `ms` is given: exchanges logged), then one line per violation. */
function logOutcome(
  log: (line: string) => void,
  request: IncomingMessage,
  outcome: ExchangeOutcome,
  ms?: number,
): void {
  const count = outcome.request.length + outcome.response.length;
  if (ms !== undefined) {
    const path = (request.url ?? '/').split('?')[0];
    log(
      `${request.method} ${path} [${outcome.version}] ${outcome.status} ${ms.toFixed(1)} ms${count ? `, ${count} violations` : ''}`,
    );
  }
  if (count === 0) return;
  for (const [side, list] of [
    ['request', outcome.request],
    ['response', outcome.response],
  ] as const) {
    for (const v of list)
      log(`  violation ${outcome.operation} [${outcome.version}] ${side} ${v.field} ${v.rule}: ${v.message}`);
  }
}

function createRecorder(options: ProxyOptions, upstream: string, bundles: Bundle[]): Recorder | undefined {
  if (options.record === undefined) return undefined;
  return new Recorder({
    file: options.record,
    upstream,
    ...(options.recordLimit !== undefined && { limit: options.recordLimit }),
    ...(options.recordMaxBytes !== undefined && { maxBytes: options.recordMaxBytes }),
    // Credentials and payment data always, with the personal fields asked for (or the default ones).
    redactor: createRedactor([...(options.redact ?? DEFAULT_REDACT), ...credentialFields(bundles)]),
    model: recordModel(bundles),
    onError: (error) => (options.warn ?? console.warn)(`recording not written: ${error.message}`),
  });
}

/** What every exchange works with, from the options: the checker, the upstream, the bounds, the recorder. */
async function contextOf(options: ProxyOptions): Promise<ExchangeContext> {
  const upstream = createUpstream(parseUpstream(options.upstream));
  const bundles = loadBundles(options.bundlesDir);
  const checker = createExchangeChecker(bundles);
  const recorder = createRecorder(options, upstream.name, bundles);
  const warn = options.warn ?? console.warn;
  // A previous recording is not replaced unasked; one that cannot be written fails now, not after an
  // hour of traffic.
  await recorder?.claim(options.overwrite ?? false);
  await recorder?.flush();
  return {
    checker,
    upstream,
    strict: options.strict ?? false,
    timeoutMs: options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS,
    maxResponseBytes: options.maxResponseBytes ?? MAX_RESPONSE_BYTES,
    heldBytes: options.heldBytes ?? HELD_BYTES,
    ...(recorder && { recorder }),
    // The report, the log and the recording of an exchange: after its answer is sent.
    deferred: new Deferred((error) => warn(`proxy: after an exchange: ${error.message}`)),
  };
}

/**
 * One exchange through the proxy, counted and logged after its answer is sent; `fail` answers the
 * proxy's own failure. Its ends are made once, not per exchange (no promise, no closure per exchange
 * but the deferred count).
 */
function exchanger(
  context: ExchangeContext,
  builder: ReportBuilder,
  options: ProxyOptions,
  fail: (request: IncomingMessage, response: ServerResponse, error: Error) => void,
) {
  const { log } = options;
  const { deferred } = context;
  const timed = log !== undefined && options.logExchanges !== false;
  const ends: ExchangeEnds = {
    done(client, outcome) {
      const ms = timed ? performance.now() - client.started : undefined;
      const { request } = client;
      deferred.add(() => {
        builder.add(outcome);
        if (log) logOutcome(log, request, outcome, ms);
      });
    },
    fail: (client, error) => fail(client.request, client.response, error),
  };
  // Timed only when each exchange is logged: no clock read per exchange otherwise.
  return (request: IncomingMessage, response: ServerResponse): void =>
    handleExchange(context, { request, response, started: timed ? performance.now() : 0 }, ends);
}

export async function startProxy(options: ProxyOptions): Promise<ProxyServer> {
  const context = await contextOf(options);
  const { upstream, recorder, deferred } = context;
  const builder = new ReportBuilder(upstream.name);
  const log = options.log;
  const report = () => {
    deferred.drain();
    return builder.report(recorder?.stats());
  };
  const { createNodeDocsListener } = await import('../docs/index.ts');
  const serveDocs = createNodeDocsListener({ ...(options.bundlesDir && { bundlesDir: options.bundlesDir }) });

  // The proxy's own failure (an answer it could not check or send): a problem, the error in the log
  // only (its message may name files); once the headers are out, the answer is cut instead.
  const fail = (request: IncomingMessage, response: ServerResponse, error: Error) => {
    log?.(`${request.method} ${(request.url ?? '/').split('?')[0]} proxy error: ${error.message}`);
    if (response.headersSent) return void response.destroy(error);
    const detail = 'The proxy failed on this exchange; its log names the error.';
    writeAnswer(response, problemAnswer(refusal('internal', detail)));
  };
  const exchange = exchanger(context, builder, options, fail);

  function answer(request: IncomingMessage, response: ServerResponse): void {
    // A CORS preflight: answered here, as the mock answers it (never forwarded).
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      response.writeHead(204, {
        ...preflightHeaders(request.headers.origin, request.headers['access-control-request-headers']),
        'Content-Length': '0',
      });
      response.end();
      return;
    }
    // The report so far.
    if (request.method === 'GET' && isReport(request.url ?? '/')) {
      const text = JSON.stringify(report(), null, 2);
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
      response.end(text);
      return;
    }
    // The reference, as on the mock; any other path under /docs is forwarded.
    if (request.url?.startsWith('/docs')) {
      serveDocs(request, response)
        .then((served) => served || exchange(request, response))
        .catch((error: Error) => fail(request, response, error));
      return;
    }
    exchange(request, response);
  }

  const { createServer } = await import('node:http');
  const server = createServer(serverOptionsOf(options.timeouts), (request, response) => {
    try {
      answer(request, response);
    } catch (error) {
      fail(request, response, error as Error);
    }
  });
  // Node's own refusals (malformed request, headers too large, a client too slow) as problems.
  server.on('clientError', answerClientError);
  return {
    ...(await listen(server, options.port ?? DEFAULT_PROXY_PORT, options.host ?? '127.0.0.1')),
    upstream: upstream.name,
    report,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      upstream.close();
      deferred.drain();
      await recorder?.flush();
      return report();
    },
  };
}
