/**
 * The static mode's request handler (`--static`): the mock as it was before the data-backed engine,
 * a router by the version header (src/mock's, as the engine routes) in front of one in-process Prism
 * instance per version bundle (./prism.ts). Prism validates the request and answers with the
 * operation's example (or generated data with `--dynamic`); this module adds version routing and
 * refusal, the default version, CORS and readable error bodies (./refusal.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { IPrismDiagnostic } from '@stoplight/prism-core';
import type { IHttpConfig, IHttpRequest, IHttpResponse } from '@stoplight/prism-http';
import { type Bundle, VERSION_HEADER } from '../contract/index.ts';
import {
  badPrefer,
  createRouter,
  malformedUrl,
  parsePrefer,
  type Refusal,
  routeRefusal,
  unauthorized,
} from '../mock/browser.ts';
import { answerPreflight, isPreflight, sendJson, sendProblem, setCorsHeaders } from './node.ts';
import { configureGenerator, headerNamesOf, type PrismError, prismTargets, type Target } from './prism.ts';
import { prismRefusal } from './refusal.ts';
import { headersOf, queryOf, readBody, requestUrl } from './request.ts';

const MAX_VIOLATIONS_HEADER = 8 * 1024 - 100;

function refuse(response: ServerResponse, refusal: Refusal): void {
  sendProblem(response, refusal.body, refusal.headers);
}

/** Prism's checks of its own answer, as prism-cli reports them: `sl-violations`, JSON, ASCII-only. */
function violationsHeader(violations: IPrismDiagnostic[]): string {
  let value = JSON.stringify(violations.map((v) => ({ ...v, location: ['response', ...(v.path ?? [])] })));
  if (value.length > MAX_VIOLATIONS_HEADER) value = `Too many violations! ${value.slice(0, MAX_VIOLATIONS_HEADER)}`;
  return value.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Sends Prism's mock answer (example or generated data) as is. */
function sendOutput(response: ServerResponse, output: IHttpResponse, violations: IPrismDiagnostic[]): void {
  const headers: Record<string, string> = {};
  let contentType = 'application/json';
  for (const [name, value] of Object.entries(output.headers ?? {})) {
    if (name.toLowerCase() === 'content-type') contentType = value;
    else headers[name] = value;
  }
  if (violations.length > 0) headers['sl-violations'] = violationsHeader(violations);
  const { body } = output;
  const text =
    body === undefined ? '' : typeof body === 'string' && !/json/i.test(contentType) ? body : JSON.stringify(body);
  sendJson(response, output.statusCode, text, contentType, headers);
}

export interface StaticOptions {
  dynamic: boolean;
  seed: string;
  validateResponses: boolean;
}

export interface StaticHandler {
  handle(request: IncomingMessage, response: ServerResponse): Promise<string>;
  operations: number;
  versions: string[];
}

interface Served {
  baseConfig: IHttpConfig;
  /** Header names as documented, by lower-case name. */
  headerNames: Map<string, string>;
  dynamic: boolean;
  seed: string;
}

/** A routed request: Prefer and the body read, Prism asked, its verdict sent; returns the version served. */
async function answerRouted(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  method: string,
  route: { target: Target; version: string },
  served: Served,
): Promise<string> {
  const { target, version } = route;
  response.setHeader(VERSION_HEADER, version);
  const context = { operation: target.operationId, version };
  const prefer = parsePrefer([request.headers.prefer ?? []].flat().join(', ') || undefined);
  if (!prefer.ok) {
    refuse(response, badPrefer(prefer.message, context));
    return version;
  }
  const read = await readBody(request);
  if (!read.ok) {
    refuse(response, { body: { ...read.problem, ...context, validation: read.problem.validation } });
    return version;
  }

  // A request without the header is served as the default version: Prism sees it as sent.
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
    ...served.baseConfig,
    mock: {
      dynamic: preferences.dynamic ?? served.dynamic,
      seed: preferences.seed ?? served.seed,
      ...(preferences.code !== undefined && { code: preferences.code }),
      ...(preferences.example !== undefined && { exampleKey: preferences.example }),
    },
  };
  const result = await target.prism.request(input, [target.prismOperation], config)();

  // The token is checked first: a request without one gets 401 whatever else is wrong with it.
  if (result._tag === 'Right' && result.right.output.statusCode === 401) {
    const denied = result.right.validations.input.some((v) => v.code === 401);
    refuse(response, unauthorized(request.headers.authorization, denied, context));
    return version;
  }
  if (read.malformed) {
    refuse(response, { body: { ...read.malformed, ...context, validation: read.malformed.validation } });
    return version;
  }
  const pathViolations = target.checkPath(url.pathname);
  if (result._tag === 'Left' || pathViolations.length > 0) {
    const error = result._tag === 'Left' ? (result.left as PrismError) : undefined;
    refuse(response, prismRefusal(error, pathViolations, served.headerNames, target, preferences));
    return version;
  }
  sendOutput(response, result.right.output, result.right.validations.output);
  return version;
}

/** The Prism-backed handler of every operation of `bundles`. */
export async function createStaticHandler(bundles: Bundle[], options: StaticOptions): Promise<StaticHandler> {
  const { dynamic, seed } = options;
  configureGenerator();
  const { baseConfig, entries } = await prismTargets(bundles, options.validateResponses);
  const router = createRouter(entries);
  const served: Served = { baseConfig, headerNames: headerNamesOf(bundles), dynamic, seed };

  /** Answers one request; returns the version that served it (for the log). */
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<string> {
    setCorsHeaders(request, response);
    if (isPreflight(request)) {
      answerPreflight(request, response);
      return 'preflight';
    }
    const url = requestUrl(request);
    if (!url) {
      refuse(response, malformedUrl(request.url ?? '/'));
      return '-';
    }
    const method = (request.method ?? 'GET').toLowerCase();
    const versionHeader = request.headers[VERSION_HEADER.toLowerCase()];
    const route = router.resolve(method, url.pathname, [versionHeader ?? []].flat().join(', ') || undefined);
    if (route.kind !== 'matched') {
      if (route.kind === 'method-not-allowed' && method === 'options') {
        response.writeHead(204, { Allow: [...route.allow, 'OPTIONS'].join(', '), 'Content-Length': '0' });
        response.end();
        return '-';
      }
      refuse(response, routeRefusal(route, url.pathname));
      return route.kind === 'unsupported-version' ? route.received : '-';
    }

    return answerRouted(request, response, url, method, route, served);
  }

  return {
    handle,
    operations: new Set(entries.map((e) => `${e.method} ${e.path}`)).size,
    versions: [...router.versions],
  };
}
