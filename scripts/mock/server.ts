/**
 * The mock server: one `node:http` server on one port, a router by `X-Service-API-Version`
 * (./router.ts) in front of one in-process Prism instance per version bundle (@stoplight/prism-http,
 * the engine of prism-cli). Prism validates the request (security, parameters, body) and answers
 * with the operation's example (or generated data); this module adds what Prism does not do across
 * versions: version routing and refusal, the default version, CORS, and readable error bodies.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { createInstance, getHttpOperationsFromSpec, type IHttpConfig, type IHttpRequest } from '@stoplight/prism-http';
import type { IHttpOperation } from '@stoplight/types';
import { type Bundle, DEFAULT_BUNDLES_DIR, type Json, listExamples, loadBundles } from './bundles.ts';
import { answerPreflight, isPreflight, setCorsHeaders } from './cors.ts';
import {
  normalizeViolation,
  PROBLEM_TYPES,
  type PrismViolation,
  type Problem,
  problem,
  sendJson,
  sendProblem,
  type Violation,
} from './errors.ts';
import { parsePrefer } from './prefer.ts';
import { createRouter, VERSION_HEADER } from './router.ts';

export interface MockOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Port to listen on; `0` picks a free one. Default `4010`. */
  port?: number;
  /** Generate response data from the schemas instead of serving the examples. Default `false`. */
  dynamic?: boolean;
  /** Seed of the generator in dynamic mode: the same seed gives the same data. Default `store-admin`. */
  seed?: string;
  /** Directory holding `<version>.json` bundles. Default: this package's `generated/openapi/`. */
  bundlesDir?: string;
  /** Receives one line per request (method, path, version, status, time). Default: silent. */
  log?: (line: string) => void;
  /** Validate each mock response against its schema and report breaks in `sl-violations`. Default `true`. */
  validateResponses?: boolean;
}

export interface MockServer {
  /** `http://host:port`, without a trailing slash. */
  url: string;
  host: string;
  port: number;
  /** API versions served, newest first. */
  versions: string[];
  /** Number of operations served, counted once per operation (19). */
  operations: number;
  close(): Promise<void>;
}

export const DEFAULT_SEED = 'store-admin';
export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = '127.0.0.1';
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const MAX_VIOLATIONS_HEADER = 8 * 1024 - 100;

interface Target {
  version: string;
  operationId: string;
  prismOperation: IHttpOperation;
  prism: ReturnType<typeof createInstance>;
  /** Example names by status code. */
  examples: Record<string, string[]>;
}

const noop = () => {};
/** Prism wants a pino logger; the mock logs one line per request itself, so Prism's log is muted. */
const silentLogger: Json = {
  level: 'silent',
  trace: noop,
  debug: noop,
  info: noop,
  success: noop,
  warn: noop,
  error: noop,
  fatal: noop,
  child: () => silentLogger,
};

/** Dynamic mode: no random extra properties on open objects (prism-cli's `--json-schema-faker-fillProperties=false`). */
function configureGenerator(): void {
  const requireFromPrism = createRequire(createRequire(import.meta.url).resolve('@stoplight/prism-http'));
  const { JSONSchemaFaker } = requireFromPrism('json-schema-faker') as {
    JSONSchemaFaker: { option(options: Record<string, unknown>): void };
  };
  JSONSchemaFaker.option({ fillProperties: false });
}

async function prismTargets(bundles: Bundle[], validateResponses: boolean) {
  const baseConfig: IHttpConfig = {
    checkSecurity: true,
    validateRequest: true,
    validateResponse: validateResponses,
    errors: false,
    upstreamProxy: undefined,
    isProxy: false,
    mock: { dynamic: false },
  };
  const listing = listExamples(bundles);
  const entries = await Promise.all(
    bundles.map(async (bundle) => {
      // Prism dereferences in place: give it its own copy.
      const operations = await getHttpOperationsFromSpec(structuredClone(bundle.document));
      const prism = createInstance(baseConfig, { logger: silentLogger });
      return bundle.operations.map((operation) => {
        const prismOperation = operations.find(
          (candidate) => candidate.method === operation.method && candidate.path === operation.path,
        );
        if (!prismOperation) throw new Error(`Prism did not load ${operation.method} ${operation.path}`);
        const examples =
          listing.find((l) => l.version === operation.version && l.operationId === operation.operationId)?.examples ??
          {};
        const target: Target = {
          version: operation.version,
          operationId: operation.operationId,
          prismOperation,
          prism,
          examples,
        };
        return { method: operation.method, path: operation.path, version: operation.version, target };
      });
    }),
  );
  return { baseConfig, entries: entries.flat() };
}

/** Header names as documented, by lower-case name, so that error fields name them readably. */
function headerNamesOf(bundles: Bundle[]): Map<string, string> {
  const names = new Map<string, string>([
    ['authorization', 'Authorization'],
    ['prefer', 'Prefer'],
    ['content-type', 'Content-Type'],
  ]);
  for (const { operations } of bundles) {
    for (const { parameters } of operations) {
      for (const parameter of parameters) {
        if (parameter?.in === 'header') names.set(String(parameter.name).toLowerCase(), parameter.name);
      }
    }
  }
  return names;
}

type ReadBody =
  | { ok: true; body: unknown; malformed?: Problem }
  | { ok: false; problem: Problem };

/**
 * Reads the body. A JSON body that does not parse is kept as text and reported in `malformed`: the
 * request still goes through Prism's security check first, so a request without a token gets 401
 * whatever its body.
 */
async function readBody(request: IncomingMessage): Promise<ReadBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      return {
        ok: false,
        problem: problem(413, PROBLEM_TYPES.tooLarge, 'Payload too large', `The mock accepts bodies up to ${MAX_BODY_BYTES} bytes.`),
      };
    }
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return { ok: true, body: undefined };
  const text = Buffer.concat(chunks).toString('utf8');
  const contentType = request.headers['content-type'];
  // JSON when declared so, or when undeclared (the API speaks only JSON); anything else goes to Prism
  // as text, which it refuses against the declared `application/json` body.
  if (contentType !== undefined && !/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
    return { ok: true, body: text };
  }
  try {
    return { ok: true, body: JSON.parse(text) };
  } catch (error) {
    const message = `Malformed JSON body: ${(error as Error).message}`;
    return {
      ok: true,
      body: text,
      malformed: problem(400, PROBLEM_TYPES.malformedJson, 'Malformed JSON', 'The request body is not valid JSON.', [
        { field: 'body', rule: 'json', message, location: ['body'] },
      ]),
    };
  }
}

function queryOf(searchParams: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(searchParams.keys())) {
    const values = searchParams.getAll(key);
    query[key] = values.length === 1 ? (values[0] as string) : values;
  }
  return query;
}

function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function summarize(violations: Violation[]): string {
  return violations.map((v) => `${v.field} (${v.rule})`).join(', ');
}

/** 401: the token is missing or not a bearer token, or the client asked for it (`Prefer: code=401`). */
function unauthorized(
  request: IncomingMessage,
  target: Target,
  denied: boolean,
): { body: Problem; headers: Record<string, string> } {
  const sent = request.headers.authorization;
  const message = !denied
    ? 'This 401 was asked for with "Prefer: code=401"; the token was valid.'
    : sent
      ? 'Authorization must be "Bearer <ACCESS_TOKEN>" with a non-empty token.'
      : 'The Authorization header is missing; send "Authorization: Bearer <ACCESS_TOKEN>".';
  const challenge = sent ? 'Bearer realm="store-admin", error="invalid_token"' : 'Bearer realm="store-admin"';
  return {
    body: problem(
      401,
      PROBLEM_TYPES.unauthorized,
      'Unauthorized',
      message,
      [{ field: 'header.Authorization', rule: 'security', message, location: ['header', 'Authorization'] }],
      { operation: target.operationId, version: target.version },
    ),
    headers: { 'WWW-Authenticate': challenge },
  };
}

function serialize(body: unknown, contentType: string | undefined): string {
  if (body === undefined || body === null) return body === null ? 'null' : '';
  if (typeof body === 'string' && !/json/i.test(contentType ?? '')) return body;
  return JSON.stringify(body);
}

export async function startMock(options: MockOptions = {}): Promise<MockServer> {
  const host = options.host ?? DEFAULT_HOST;
  const port = options.port ?? DEFAULT_PORT;
  const dynamic = options.dynamic ?? false;
  const seed = options.seed ?? DEFAULT_SEED;
  const log = options.log;
  const bundles = loadBundles(options.bundlesDir ?? DEFAULT_BUNDLES_DIR);
  configureGenerator();
  const { baseConfig, entries } = await prismTargets(bundles, options.validateResponses ?? true);
  const router = createRouter(
    entries,
    bundles.map((b) => b.version),
  );
  const headerNames = headerNamesOf(bundles);

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<string> {
    setCorsHeaders(request, response);
    if (isPreflight(request)) {
      answerPreflight(request, response);
      return 'preflight';
    }
    const url = new URL(request.url ?? '/', 'http://mock.invalid');
    const method = (request.method ?? 'GET').toLowerCase();
    const versionHeader = request.headers[VERSION_HEADER.toLowerCase()];
    const route = router.resolve(method, url.pathname, Array.isArray(versionHeader) ? versionHeader.join(', ') : versionHeader);

    if (route.kind === 'not-found') {
      const hint = route.suggestion ? ` Did you mean ${route.suggestion}? (paths end with a slash)` : '';
      sendProblem(response, problem(404, PROBLEM_TYPES.notFound, 'Not found', `No operation at ${url.pathname}.${hint}`));
      return '-';
    }
    if (route.kind === 'method-not-allowed') {
      const allow = route.allow.join(', ');
      if (method === 'options') {
        response.writeHead(204, { Allow: `${allow}, OPTIONS`, 'Content-Length': '0' });
        response.end();
        return '-';
      }
      sendProblem(
        response,
        problem(405, PROBLEM_TYPES.methodNotAllowed, 'Method not allowed', `${route.path} accepts ${allow}.`),
        { Allow: allow },
      );
      return '-';
    }
    if (route.kind === 'unsupported-version') {
      const allowed = route.allowed.join(', ');
      const message = `${VERSION_HEADER} must be one of: ${allowed} (received "${route.received}").`;
      sendProblem(
        response,
        problem(
          400,
          PROBLEM_TYPES.unsupportedVersion,
          'Unsupported API version',
          `${route.method.toUpperCase()} ${route.path} is not served under version "${route.received}". ${message}`,
          [{ field: `header.${VERSION_HEADER}`, rule: 'version', message, location: ['header', VERSION_HEADER] }],
          { header: VERSION_HEADER, received: route.received, allowed: route.allowed },
        ),
      );
      return route.received;
    }

    const { target, version } = route;
    response.setHeader(VERSION_HEADER, version);
    const context = { operation: target.operationId, version };

    const preferHeader = request.headers.prefer;
    const prefer = parsePrefer(Array.isArray(preferHeader) ? preferHeader.join(', ') : preferHeader);
    if (!prefer.ok) {
      const message = `Prefer: ${prefer.message}.`;
      sendProblem(
        response,
        problem(400, PROBLEM_TYPES.badPrefer, 'Invalid Prefer header', message, [
          { field: 'header.Prefer', rule: 'prefer', message, location: ['header', 'Prefer'] },
        ], context),
      );
      return version;
    }
    const read = await readBody(request);
    if (!read.ok) {
      sendProblem(response, { ...read.problem, ...context, validation: read.problem.validation });
      return version;
    }

    const headers = headersOf(request);
    headers[VERSION_HEADER.toLowerCase()] = version;
    const input: IHttpRequest = {
      method: method as IHttpRequest['method'],
      url: { path: url.pathname, query: queryOf(url.searchParams) },
      headers,
      body: read.body,
    };
    const { preferences } = prefer;
    const config: IHttpConfig = {
      ...baseConfig,
      mock: {
        dynamic: preferences.dynamic ?? dynamic,
        seed: preferences.seed ?? seed,
        ...(preferences.code !== undefined && { code: preferences.code }),
        ...(preferences.example !== undefined && { exampleKey: preferences.example }),
      },
    };
    const result = await target.prism.request(input, [target.prismOperation], config)();
    const deniedAccess = result._tag === 'Right' && result.right.output.statusCode === 401;
    if (read.malformed && !deniedAccess) {
      sendProblem(response, { ...read.malformed, ...context, validation: read.malformed.validation });
      return version;
    }

    if (result._tag === 'Left') {
      const error = result.left as Error & { status?: number; detail?: string; additional?: { validation?: PrismViolation[] } };
      const status = error.status ?? 500;
      const violations = (error.additional?.validation ?? []).map((v) => normalizeViolation(v, headerNames));
      if (status === 422 && violations.length > 0) {
        sendProblem(
          response,
          problem(
            422,
            PROBLEM_TYPES.invalid,
            'Invalid request',
            `The request breaks the contract of ${target.operationId} (${version}): ${summarize(violations)}.`,
            violations,
            context,
          ),
        );
        return version;
      }
      let detail = error.detail ?? error.message;
      if (status === 404 && (preferences.example !== undefined || preferences.code !== undefined)) {
        const available = Object.entries(target.examples)
          .map(([code, names]) => `${code}${names.length ? ` (examples: ${names.join(', ')})` : ''}`)
          .join('; ');
        detail = `${detail} ${target.operationId} (${version}) declares: ${available}.`;
      }
      sendProblem(response, problem(status, error.name || PROBLEM_TYPES.internal, error.message || 'Error', detail, [], context));
      return version;
    }

    const { output, validations } = result.right;
    if (output.statusCode === 401) {
      const denied = validations.input.some((v) => v.code === 401);
      const { body, headers: challenge } = unauthorized(request, target, denied);
      sendProblem(response, body, challenge);
      return version;
    }
    const outputHeaders: Record<string, string> = {};
    let contentType: string | undefined;
    for (const [name, value] of Object.entries(output.headers ?? {})) {
      if (name.toLowerCase() === 'content-type') contentType = value;
      else outputHeaders[name] = value;
    }
    if (validations.output.length > 0) {
      let value = JSON.stringify(validations.output.map((v) => ({ ...v, location: ['response', ...(v.path ?? [])] })));
      if (value.length > MAX_VIOLATIONS_HEADER) value = `Too many violations! ${value.slice(0, MAX_VIOLATIONS_HEADER)}`;
      outputHeaders['sl-violations'] = value;
    }
    sendJson(response, output.statusCode, serialize(output.body, contentType), contentType ?? 'application/json', outputHeaders);
    return version;
  }

  const server = createServer((request, response) => {
    const started = performance.now();
    handle(request, response).then(
      (version) => {
        log?.(
          `${request.method} ${request.url} [${version}] ${response.statusCode} ${(performance.now() - started).toFixed(1)} ms`,
        );
      },
      (error: Error) => {
        if (!response.headersSent) {
          sendProblem(response, problem(500, PROBLEM_TYPES.internal, 'Mock error', error.message));
        } else {
          response.end();
        }
        log?.(`${request.method} ${request.url} 500 ${error.stack ?? error.message}`);
      },
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${urlHost}:${address.port}`,
    host: address.address,
    port: address.port,
    versions: [...router.versions],
    operations: new Set(entries.map((e) => `${e.method} ${e.path}`)).size,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
