/**
 * Stage version: the route's version (the header's, or the endpoint's default, decided by the router
 * from the contract's version order) becomes the request context; a version the endpoint does not
 * list is refused (400 naming the header and the allowed values).
 */
import { VERSION_HEADER } from '../../contract/index.ts';
import { routeRefusal } from '../../http/index.ts';
import type { Incoming, RawResponse, RequestContext } from './context.ts';
import { refuse } from './respond.ts';
import type { Routed } from './route.ts';

export function version(incoming: Incoming, routed: Routed): RawResponse | RequestContext {
  // Unlisted version: answered with the version received, for the log.
  if (routed.kind === 'unsupported-version')
    return refuse(routeRefusal(routed, incoming.pathname), {}, routed.received);
  const { target } = routed;
  // One literal of every field (no spread of `incoming`): the context keeps one fast object shape.
  return {
    core: incoming.core,
    raw: incoming.raw,
    method: incoming.method,
    pathname: incoming.pathname,
    searchParams: incoming.searchParams,
    authorization: incoming.authorization,
    target,
    version: target.version,
    served: { [VERSION_HEADER]: target.version },
    problem: { operation: target.operation.operationId, version: target.version },
    token: incoming.token ?? '',
    ticket: incoming.ticket,
    preferences: {},
    path: {},
    query: {},
    body: undefined,
    violations: [],
    cursor: undefined,
    result: undefined,
    viewContext: undefined,
    shown: undefined,
  };
}
