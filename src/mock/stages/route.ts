/**
 * Stage route: a path with a malformed escape is refused (400); the path and method are routed
 * (404, 405; a plain OPTIONS request gets the allowed methods); the version is the header's, or the
 * endpoint's default (decided by the router from the contract's version order), and one the
 * endpoint does not list is refused (400 naming the header and the allowed values).
 */

import { VERSION_HEADER } from '../../contract/index.ts';
import { isDecodablePath, malformedUrl, routeRefusal } from '../../http/index.ts';
import type { Incoming, Routed, Stage } from './context.ts';
import { api, refuse } from './respond.ts';

export const RESET_PATH = '/__mock/reset';
/** The version header's name as adapters hand header names over (lower-cased once, here). */
const VERSION_HEADER_NAME = VERSION_HEADER.toLowerCase();

export const route: Stage<Incoming, Routed> = {
  name: 'route',
  run: (context) => {
    const { raw, method, pathname, core } = context;
    // A malformed percent-escape cannot be routed.
    if (!isDecodablePath(pathname)) return refuse(malformedUrl(pathname));
    const found = core.router.resolve(method, pathname, raw.header(VERSION_HEADER_NAME) || undefined);
    // Unlisted version: answered with the version received, for the log.
    if (found.kind === 'unsupported-version') return refuse(routeRefusal(found, pathname), {}, found.received);
    if (found.kind === 'matched') {
      const { target } = found;
      context.target = target;
      context.version = target.version;
      context.served = target.served;
      context.problem = target.problem;
      return undefined;
    }
    // A plain OPTIONS: the methods the path allows.
    if (found.kind === 'method-not-allowed' && method === 'OPTIONS')
      return api(204, { Allow: [...found.allow, 'OPTIONS'].join(', ') }, '');
    return refuse(routeRefusal(found, pathname));
  },
};
