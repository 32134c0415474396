/**
 * The static mode's request handler (`--static`): a thin adapter of Prism behind the package's HTTP
 * layer (src/http). The contract's router picks the operation and version (src/contract, as the
 * engine routes); one in-process Prism instance per version bundle (./prism.ts) validates the
 * request and answers with the operation's example (or generated data with `--dynamic`). The
 * target, the body, CORS, Prefer and every refusal are src/http's, Prism's verdicts mapped through
 * its catalogue (./refusal.ts); the answer is written by the mock's node server.
 */
import type { IncomingMessage } from 'node:http';
import type { IPrismDiagnostic } from '@stoplight/prism-core';
import type { IHttpConfig, IHttpResponse } from '@stoplight/prism-http';
import { type Bundle, createRouter, VERSION_HEADER } from '../contract/index.ts';
import {
  type Answer,
  badPrefer,
  bodyTooLarge,
  corsHeaders,
  isDecodablePath,
  isJsonMediaType,
  type MockPreferences,
  malformedJson,
  malformedUrl,
  parsePrefer,
  parseTarget,
  preflightHeaders,
  problemAnswer,
  type Refusal,
  readNodeBody,
  routeRefusal,
  unauthorized,
} from '../http/index.ts';
import { configureGenerator, headerNamesOf, type PrismError, prismInput, prismTargets, type Target } from './prism.ts';
import { prismRefusal } from './refusal.ts';

const MAX_VIOLATIONS_HEADER = 8 * 1024 - 100;

/** An answer and the version that served it (for the log). */
export type StaticAnswer = Answer & { version: string };

/** Prism's checks of its own answer, as prism-cli reports them: `sl-violations`, JSON, ASCII-only. */
function violationsHeader(violations: IPrismDiagnostic[]): string {
  let value = JSON.stringify(violations.map((v) => ({ ...v, location: ['response', ...(v.path ?? [])] })));
  if (value.length > MAX_VIOLATIONS_HEADER) value = `Too many violations! ${value.slice(0, MAX_VIOLATIONS_HEADER)}`;
  return value.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Prism's mock answer (example or generated data), as is. */
function outputAnswer(output: IHttpResponse, violations: IPrismDiagnostic[], version: string): StaticAnswer {
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
  return { status: output.statusCode, headers: { ...headers, 'Content-Type': contentType }, body: text, version };
}

export interface StaticOptions {
  dynamic: boolean;
  seed: string;
  validateResponses: boolean;
}

export interface StaticHandler {
  /** Answers one request (CORS headers included); the mock's node server writes the answer. */
  answer(request: IncomingMessage): Promise<StaticAnswer>;
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

type Context = { operation: string; version: string };

/**
 * The body for Prism: JSON parsed when declared so or undeclared (the API speaks only JSON), other
 * types as text (Prism refuses them against the declared `application/json`). A JSON body that does
 * not parse is kept as text and its refusal held back (`malformed`): the request still goes through
 * Prism's security check first, so a request without a token gets 401 whatever its body.
 */
async function bodyOf(
  request: IncomingMessage,
  context: Context,
): Promise<{ body: unknown; malformed?: Refusal } | { refused: Refusal }> {
  const bytes = await readNodeBody(request);
  if (bytes === 'too-large') return { refused: bodyTooLarge(context) };
  if (bytes.length === 0) return { body: undefined };
  const text = bytes.toString('utf8');
  const contentType = request.headers['content-type'];
  if (contentType !== undefined && !isJsonMediaType(contentType)) return { body: text };
  try {
    return { body: JSON.parse(text) };
  } catch (error) {
    return { body: text, malformed: malformedJson(error as Error, context) };
  }
}

/** Prism's mock settings for one request: the server's, then what `Prefer` asks. */
const mockConfig = (served: Served, preferences: MockPreferences): IHttpConfig => ({
  ...served.baseConfig,
  mock: {
    dynamic: preferences.dynamic ?? served.dynamic,
    seed: preferences.seed ?? served.seed,
    ...(preferences.code !== undefined && { code: preferences.code }),
    ...(preferences.example !== undefined && { exampleKey: preferences.example }),
  },
});

/** A routed request: Prefer and the body read, Prism asked, its verdict answered. */
async function answerRouted(
  request: IncomingMessage,
  url: { pathname: string; searchParams: URLSearchParams },
  route: { target: Target; version: string },
  served: Served,
): Promise<StaticAnswer> {
  const { target, version } = route;
  const context = { operation: target.operationId, version };
  const refuse = (refusal: Refusal): StaticAnswer => ({
    ...problemAnswer(refusal, { [VERSION_HEADER]: version }),
    version,
  });
  const prefer = parsePrefer([request.headers.prefer ?? []].flat().join(', ') || undefined);
  if (!prefer.ok) return refuse(badPrefer(prefer.message, context));
  const read = await bodyOf(request, context);
  if ('refused' in read) return refuse(read.refused);

  const input = prismInput(request, url, version, read.body);
  const { preferences } = prefer;
  const result = await target.prism.request(input, [target.prismOperation], mockConfig(served, preferences))();

  // The token is checked first: a request without one gets 401 whatever else is wrong with it.
  if (result._tag === 'Right' && result.right.output.statusCode === 401) {
    const denied = result.right.validations.input.some((v) => v.code === 401);
    return refuse(unauthorized(request.headers.authorization, denied, context));
  }
  if (read.malformed) return refuse(read.malformed);
  const pathViolations = target.checkPath(url.pathname);
  if (result._tag === 'Left' || pathViolations.length > 0) {
    const error = result._tag === 'Left' ? (result.left as PrismError) : undefined;
    return refuse(prismRefusal({ error, pathViolations }, served.headerNames, target, preferences));
  }
  const answer = outputAnswer(result.right.output, result.right.validations.output, version);
  answer.headers[VERSION_HEADER] = version;
  return answer;
}

/** The Prism-backed handler of every operation of `bundles`. */
export async function createStaticHandler(bundles: Bundle[], options: StaticOptions): Promise<StaticHandler> {
  const { dynamic, seed } = options;
  configureGenerator();
  const { baseConfig, entries } = await prismTargets(bundles, options.validateResponses);
  const router = createRouter(entries);
  const served: Served = { baseConfig, headerNames: headerNamesOf(bundles), dynamic, seed };

  /** Answers one request, before CORS. */
  async function answerOf(request: IncomingMessage): Promise<StaticAnswer> {
    const method = (request.method ?? 'GET').toLowerCase();
    const { origin } = request.headers;
    if (method === 'options' && request.headers['access-control-request-method'] !== undefined) {
      const headers = preflightHeaders(origin, request.headers['access-control-request-headers']);
      return { status: 204, headers, body: '', version: 'preflight' };
    }
    const url = parseTarget(request.url ?? '/');
    if (!isDecodablePath(url.pathname)) return { ...problemAnswer(malformedUrl(url.pathname)), version: '-' };
    const versionHeader = [request.headers[VERSION_HEADER.toLowerCase()] ?? []].flat().join(', ') || undefined;
    const route = router.resolve(method, url.pathname, versionHeader);
    if (route.kind === 'matched') return answerRouted(request, url, route, served);
    if (route.kind === 'method-not-allowed' && method === 'options') {
      return { status: 204, headers: { Allow: [...route.allow, 'OPTIONS'].join(', ') }, body: '', version: '-' };
    }
    const version = route.kind === 'unsupported-version' ? route.received : '-';
    return { ...problemAnswer(routeRefusal(route, url.pathname)), version };
  }

  return {
    answer: async (request) => {
      const answer = await answerOf(request);
      // Every answer gets the CORS headers (a preflight's include them already).
      answer.headers = { ...corsHeaders(request.headers.origin), ...answer.headers };
      return answer;
    },
    operations: new Set(entries.map((e) => `${e.method} ${e.path}`)).size,
    versions: [...router.versions],
  };
}
