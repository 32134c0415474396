/**
 * The node:http adapter of the mock: one server on one port over the transport-independent engine
 * (./engine.ts), or, with `static: true`, over Prism's example mode (src/static, imported only
 * then). Hostile-input rules (issue #13): bodies over 1 MiB are refused by Content-Length before
 * reading (413), the bytes buffered across all connections are capped (503 beyond), and Node's own
 * refusals (oversized headers, malformed requests) are JSON problem details too ('clientError').
 * node: modules are imported when startMock runs, so that this module (and the package's `./mock`
 * entry) stays importable in a browser bundle, where only the engine is used.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Bundle, loadBundles } from '../contract/index.ts';
import {
  announcesBody,
  answerClientError,
  type BodyBudget,
  BusyError,
  internalError,
  listen,
  parseTarget,
  problemAnswer,
  type Refusal,
  readNodeBody,
  refusal,
  type ServerTimeouts,
  serverOptionsOf,
  TurnEnds,
  UNKNOWN_QUERY_HEADER,
  writeAnswer,
} from '../http/index.ts';
import {
  ADMIN_TOKEN_COOKIE,
  ADMIN_TOKEN_HEADER,
  ADMIN_TOKEN_QUERY,
  adminAccessRefusal,
  adminTokenOf,
  adminTokenRefusal,
} from './admin/guard.ts';
import { ADMIN_PREFIX, isAdminPath } from './admin/routes.ts';
import {
  createMockEngine,
  DEFAULT_PAGE_SIZE,
  DEFAULT_SEED,
  type MockEngine,
  type MockEngineOptions,
  type RawRequest,
  type RawResponse,
} from './engine.ts';
import { FixtureError, type MockFixtures } from './model/fixtures.ts';
import { linkOrigin } from './origin.ts';
import type { Journal, JournalOptions } from './persistence/journal.ts';
import { refuse } from './stages/respond.ts';

/**
 * The engine's options (./engine.ts, one source for their meaning and defaults) and the server's
 * own; the bundles come from `bundlesDir` and the persistence from `statePath` here.
 */
export interface MockOptions extends Omit<MockEngineOptions, 'bundles' | 'persistence'> {
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Port to listen on; `0` picks a free one. Default `4010`. */
  port?: number;
  /** Seed of the generated store (and of Prism's generator in `dynamic` mode). Default `store-admin`. */
  seed?: string;
  /** A JSON file of fixtures (as `data`); read and checked at start. */
  dataFile?: string;
  /** Prism's example mode (today's static mock) instead of the data-backed store. Default false. */
  static?: boolean;
  /** Static mode with data generated from the schemas by Prism (implies `static`). Default false. */
  dynamic?: boolean;
  /** Static mode: validate each response against its schema, breaks in `sl-violations`. Default true. */
  validateResponses?: boolean;
  /** Directory holding `<version>.json` bundles. Default: this package's `generated/openapi/`. */
  bundlesDir?: string;
  /** Receives one line per request (method, path, version, status, time). Default: silent. */
  log?: (line: string) => void;
  /** Cap on request-body bytes buffered across all connections at once. Default 64 MiB. */
  maxBufferedBytes?: number;
  /**
   * The origin written in page links (`next`, `previous`), e.g. `https://mock.example.com` behind a
   * proxy. Default: the request's `Host` when it is a plain host name or address, else the bound one.
   */
  origin?: string;
  /** Server-side timeouts (ms), each over DEFAULT_TIMEOUTS' value (src/http) when omitted. */
  timeouts?: Partial<ServerTimeouts>;
  /**
   * The state file (`--state FILE`): every acknowledged write is in it before its answer, and a
   * restart with the same file restores every token's state. Created when missing (0600); a file that
   * is not a state file, or one another mock holds (`FILE.lock`), is refused (StateFileError; docs/mock.md
   * "The journal's guarantees"). Default: states live in memory only.
   */
  statePath?: string;
  /**
   * A secret every admin request (`/__mock/`) must carry: the `X-Mock-Admin-Token` header, or the
   * cookie `GET /__mock/?admin_token=<token>` sets (for the inspector page). Default: none (the
   * admin endpoints are guarded by the Host and Origin checks only, docs/mock.md).
   */
  adminToken?: string;
  /** Receives warnings (the state file's torn tail, skipped lines and failed compactions; a recording's skipped records). Default: console.warn. */
  warn?: (message: string) => void;
}

export interface MockServer {
  /** `http://host:port`, without a trailing slash. */
  url: string;
  host: string;
  port: number;
  /** API versions served, newest first. */
  versions: string[];
  /** Number of operations served, counted once per method and path (the operation table's size). */
  operations: number;
  /** `stateful` (the data-backed engine) or `static` (Prism examples). */
  mode: 'stateful' | 'static';
  /** The engine (stateful mode), e.g. for `snapshot()`. */
  engine?: MockEngine;
  /** Back to the seeded data (one token's state, or every state); resolves once saved. No-op in static mode. */
  reset(token?: string): Promise<void>;
  /** The state file's path and entry count at start (with `statePath`). */
  state?: { path: string; entries: number };
  close(): Promise<void>;
}

export { DEFAULT_PAGE_SIZE, DEFAULT_SEED };
export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

/**
 * Sends an answer, the engine's or Prism's (or drops the connection for `Prefer: fail=drop`); what
 * served it for the log line: the version, or `preflight` / `admin`.
 */
function deliver(
  request: IncomingMessage,
  response: ServerResponse,
  raw: Omit<RawResponse, 'kind'> & { kind?: RawResponse['kind'] },
  ends?: TurnEnds,
): string {
  const served = raw.kind === undefined || raw.kind === 'api' ? raw.version : raw.kind;
  if (raw.drop) {
    request.socket.destroy();
    return served;
  }
  if (raw.status >= 400 && !request.complete) raw.headers.Connection = 'close';
  const unknown = raw.headers[UNKNOWN_QUERY_HEADER];
  // Set apart (writeHead's own headers cannot be read back) so that the log line can name it.
  if (unknown !== undefined) response.setHeader(UNKNOWN_QUERY_HEADER, unknown);
  writeAnswer(response, raw, ends);
  return served;
}

/**
 * Opens (or creates) a `--state` file: the journal startMock writes (./persistence/journal.ts), e.g.
 * for a script that prepares or reads one. Throws StateFileError for a file that is not one.
 */
export async function openStateFile(path: string, options: JournalOptions = {}): Promise<Journal> {
  const { Journal } = await import('./persistence/journal.ts');
  return Journal.open(path, options);
}

/** Largest `--data` file read (fixtures are records for a mock, not a database dump). */
export const MAX_FIXTURE_BYTES = 64 * 1024 * 1024;

/**
 * Reads `--data`: the file's JSON, or a FixtureError naming the file and what is wrong, never
 * quoting its contents (it may be any file the path or a symlink points to). A UTF-8 BOM is
 * allowed, as in request bodies; the file must be a regular file of at most MAX_FIXTURE_BYTES.
 */
export async function readFixtures(file: string): Promise<MockFixtures> {
  const { readFileSync, statSync } = await import('node:fs');
  let text: string;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw new FixtureError(`${file}: not a regular file`);
    if (stat.size > MAX_FIXTURE_BYTES) {
      throw new FixtureError(`${file}: larger than ${MAX_FIXTURE_BYTES / 1024 / 1024} MiB (${stat.size} bytes)`);
    }
    text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    if (error instanceof FixtureError) throw error;
    throw new FixtureError(
      `${file}: cannot read the data file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  try {
    return JSON.parse(text) as MockFixtures;
  } catch (error) {
    // V8's message quotes the text ("root:x:0:0"... is not valid JSON): only the position is kept.
    const at = /at position (\d+)(?: \(line (\d+) column (\d+)\))?/.exec((error as Error).message);
    const where = at ? (at[2] ? ` at line ${at[2]}, column ${at[3]}` : ` at offset ${at[1]}`) : '';
    throw new FixtureError(`${file}: not JSON${where}`);
  }
}

/** What answers the API requests: Prism's examples (static) or the data-backed engine. */
interface Backend {
  /** Answers a request; the version served (at once when nothing waited). */
  handler: (request: IncomingMessage, response: ServerResponse) => string | Promise<string>;
  versions: string[];
  operations: number;
  engine?: MockEngine;
  journal?: Journal;
}

export async function startMock(options: MockOptions = {}): Promise<MockServer> {
  const host = options.host ?? DEFAULT_HOST;
  const { log, port = DEFAULT_PORT } = options;
  const bundles: Bundle[] = loadBundles(options.bundlesDir);
  const isStatic = options.static === true || options.dynamic === true;
  const configuredOrigin = options.origin === undefined ? undefined : new URL(options.origin).origin;
  /** `http://<address>:<port>` once listening (the page links' origin when `Host` is not usable). */
  let boundOrigin = `http://${host}:${port}`;

  const { handler, versions, operations, engine, journal } = isStatic
    ? await staticBackend(bundles, options)
    : await statefulBackend(bundles, options, {
        originOf: (request) => linkOrigin(request.headers.host, boundOrigin, configuredOrigin),
        budget: { buffered: 0, max: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES },
      });

  // The API reference at /docs (src/docs), try-it aimed at this server; built on first request.
  const { createNodeDocsListener } = await import('../docs/index.ts');
  const serveDocs = createNodeDocsListener({ ...(options.bundlesDir && { bundlesDir: options.bundlesDir }) });
  const answer = (request: IncomingMessage, response: ServerResponse): string | Promise<string> =>
    !request.url?.startsWith('/docs')
      ? handler(request, response)
      : serveDocs(request, response).then((served) => (served ? 'docs' : handler(request, response)));

  const { createServer } = await import('node:http');
  const server = createServer(serverOptionsOf(options.timeouts), (request, response) => {
    const exchange = { request, response, started: performance.now() };
    // A rebound DNS name or a foreign page at the admin endpoints: 403 before anything is read.
    const denied = adminDenied(request, response, host, options.adminToken);
    if (denied) return logAnswer(log, exchange, deliver(request, response, denied));
    let version: string | Promise<string>;
    try {
      version = answer(request, response);
    } catch (error) {
      return answerFailure(request, response, error as Error, log);
    }
    if (!(version instanceof Promise)) return logAnswer(log, exchange, version);
    version.then(
      (served) => logAnswer(log, exchange, served),
      (error: Error) => answerFailure(request, response, error, log),
    );
  });
  // Node's own refusals (malformed request line, headers too large...) as problem details.
  server.on('clientError', answerClientError);

  const bound = await listen(server, port, host).catch(async (error: unknown) => {
    await journal?.close(); // its lock freed: the same process may start again
    throw error;
  });
  boundOrigin = bound.url;
  return {
    ...bound,
    versions,
    operations,
    mode: isStatic ? 'static' : 'stateful',
    ...(engine && { engine }),
    reset: async (token) => engine?.reset(token),
    ...(journal && { state: { path: journal.path, entries: journal.entries } }),
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      await journal?.close();
    },
  };
}

/** Static mode: Prism's example (or generated) responses, imported only here. */
async function staticBackend(bundles: Bundle[], options: MockOptions): Promise<Backend> {
  const { createStaticHandler } = await import('../static/index.ts');
  const prism = await createStaticHandler(bundles, {
    dynamic: options.dynamic ?? false,
    seed: options.seed ?? DEFAULT_SEED,
    validateResponses: options.validateResponses ?? true,
  });
  return {
    handler: (request, response) => prism.answer(request).then((answer) => deliver(request, response, answer)),
    versions: prism.versions,
    operations: prism.operations,
  };
}

/** Stateful mode: the engine over the fixtures and the state file, fed from node:http requests. */
async function statefulBackend(bundles: Bundle[], options: MockOptions, io: NodeIo): Promise<Backend> {
  const data = options.data ?? (options.dataFile !== undefined ? await readFixtures(options.dataFile) : undefined);
  let journal: Journal | undefined;
  if (options.statePath !== undefined) {
    journal = await openStateFile(options.statePath, { ...(options.warn && { warn: options.warn }) });
  }
  const engine = createMockEngine({
    ...options,
    bundles,
    ...(journal && { persistence: journal }),
    ...(data !== undefined && { data, dataSource: options.dataSource ?? options.dataFile ?? 'data' }),
  });
  // The engine's answers are sent at the end of their turn, together (src/http TurnEnds).
  const ends = new TurnEnds();
  const answer = (request: IncomingMessage, response: ServerResponse): string | Promise<string> => {
    const answered = engine.handleRaw(new NodeRawRequest(request, io));
    return answered instanceof Promise
      ? answered.then((ready) => deliver(request, response, ready, ends))
      : deliver(request, response, answered, ends);
  };
  // Node parses a body right after its headers: the engine starts a microtask later, so that it
  // reads the body at once (one microtask: the answer is delivered in it when no stage waits).
  // Without a body it answers now.
  const handler = (request: IncomingMessage, response: ServerResponse): string | Promise<string> =>
    announcesBody(request) ? Promise.resolve().then(() => answer(request, response)) : answer(request, response);
  return { handler, versions: engine.versions, operations: engine.operations, engine, ...(journal && { journal }) };
}

/** How a node:http request's link origin and body are read (the server's Host rule and limits). */
interface NodeIo {
  originOf: (request: IncomingMessage) => string;
  /** The bytes buffered across all requests' bodies (503 beyond). */
  budget: BodyBudget;
}

/** A node:http request as the engine reads it (a class: no closures made per request). */
class NodeRawRequest implements RawRequest {
  readonly method: string;
  readonly target: string;
  constructor(
    private readonly request: IncomingMessage,
    private readonly io: NodeIo,
  ) {
    this.method = request.method ?? 'GET';
    this.target = request.url ?? '/';
  }
  /** The Host header is reflected in page links only when it is a plain host (./origin.ts); read when a list asks. */
  get origin(): string {
    return this.io.originOf(this.request);
  }
  header(name: string): string | undefined {
    const value = this.request.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }
  /** Node keeps only the first of a repeated Authorization: the raw headers have them all. */
  repeated(name: string): boolean {
    let seen = 0;
    const raw = this.request.rawHeaders;
    for (let i = 0; i < raw.length; i += 2)
      if (raw[i]?.length === name.length && raw[i]?.toLowerCase() === name) seen++;
    return seen > 1;
  }
  readBody() {
    return readNodeBody(this.request, this.io.budget);
  }
}

/**
 * The 403 of an admin request whose `Host` or `Origin` is not allowed (./admin/guard.ts), or that
 * lacks the `adminToken` when one is set; else undefined. A right token in the query sets the cookie
 * and is taken out of `request.url`, so neither the engine nor the log ever sees it.
 */
function adminDenied(
  request: IncomingMessage,
  response: ServerResponse,
  bound: string,
  adminToken: string | undefined,
): RawResponse | undefined {
  const target = request.url ?? '/';
  // Only a target that can name an admin path is parsed (the API's requests pay one search).
  if (!target.includes('_')) return undefined;
  let url: ReturnType<typeof parseTarget>;
  try {
    url = parseTarget(target);
  } catch {
    return undefined; // the route stage refuses it
  }
  if (!isAdminPath(url.pathname)) return undefined;
  const denied = (refused: Refusal): RawResponse => ({ ...refuse(refused, { Vary: 'Origin' }), kind: 'admin' });
  const refused = adminAccessRefusal(request.headers.host, request.headers.origin, bound);
  if (refused || adminToken === undefined) return refused && denied(refused);
  const inQuery = url.searchParams.get(ADMIN_TOKEN_QUERY);
  if (inQuery !== null) {
    url.searchParams.delete(ADMIN_TOKEN_QUERY);
    request.url = `${url.pathname}${url.searchParams.size ? `?${url.searchParams}` : ''}`;
  }
  const header = request.headers[ADMIN_TOKEN_HEADER.toLowerCase()];
  const given = inQuery ?? adminTokenOf(Array.isArray(header) ? header[0] : header, request.headers.cookie);
  const missing = adminTokenRefusal(given, adminToken);
  if (missing) return denied(missing);
  if (inQuery !== null) {
    const cookie = `${ADMIN_TOKEN_COOKIE}=${encodeURIComponent(adminToken)}; Path=${ADMIN_PREFIX}; HttpOnly; SameSite=Strict`;
    response.setHeader('Set-Cookie', cookie);
  }
  return undefined;
}

/** A request, its response, and when it arrived (`performance.now()`). */
interface Exchange {
  request: IncomingMessage;
  response: ServerResponse;
  started: number;
}

/** The request's log line (`--quiet` passes no log). */
function logAnswer(log: ((line: string) => void) | undefined, exchange: Exchange, version: string): void {
  if (!log) return;
  const { request, response, started } = exchange;
  const ms = (performance.now() - started).toFixed(1);
  const unknown = response.getHeader(UNKNOWN_QUERY_HEADER);
  const warning = unknown === undefined ? '' : ` (unknown query parameters ignored: ${unknown})`;
  log(`${request.method} ${request.url} [${version}] ${response.statusCode} ${ms} ms${warning}`);
}

/** A request whose handling threw: 503 when the body buffers are full, else a 500 without details. */
function answerFailure(
  request: IncomingMessage,
  response: ServerResponse,
  error: Error,
  log: ((line: string) => void) | undefined,
): void {
  const busy = error instanceof BusyError;
  if (!response.headersSent) {
    const refused = busy
      ? refusal('busy', 'The mock is buffering too many request bodies; retry.')
      : { body: internalError() };
    writeAnswer(response, problemAnswer(refused, { Connection: 'close' }));
  } else {
    response.end();
  }
  log?.(`${request.method} ${request.url} ${busy ? 503 : 500} ${error.stack ?? error.message}`);
}
