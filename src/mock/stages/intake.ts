/**
 * Around the stages (../engine.ts runs them): a write opens a ticket on its state when it arrives,
 * before any delay, and closes it once answered, so that a reset meanwhile cancels it
 * (../tokens/store.ts); every API request is logged for the inspector (../admin/request-log.ts);
 * every answer but a preflight, an admin one (its own CORS rule) and a dropped connection gets the
 * CORS headers.
 */
import { logExchange } from '../admin/request-log.ts';
import { corsHeaders } from '../cors.ts';
import { shortHash } from '../tokens/hash.ts';
import type { Ticket } from '../tokens/store.ts';
import type { EngineCore, RawRequest, RawResponse } from './context.ts';
import { incomingOf } from './route.ts';

export async function intake(
  core: EngineCore,
  raw: RawRequest,
  run: (raw: RawRequest, ticket: Ticket | undefined) => Promise<RawResponse>,
): Promise<RawResponse> {
  const started = performance.now();
  const { token, method } = incomingOf(core, raw, undefined);
  const ticket = token && method !== 'GET' && method !== 'HEAD' ? core.states.begin(token) : undefined;
  let requestBody: Uint8Array | 'too-large' | undefined;
  const readBody = async () => {
    requestBody = await raw.readBody();
    return requestBody;
  };
  try {
    const response = await run({ ...raw, readBody }, ticket);
    if (response.drop || response.version === 'preflight' || response.version === 'admin') return response;
    const state = token ? shortHash(core.states.keyOf(token)) : null;
    logExchange(core.log, { request: raw, response, requestBody, ms: performance.now() - started, state });
    return { ...response, headers: { ...corsHeaders(raw.header('origin')), ...response.headers } };
  } finally {
    if (ticket) core.states.end(ticket);
  }
}
