/**
 * What every answer must satisfy. A valid request: no 5xx, a 2xx that conforms to the operation's
 * schema in the version asked for, and a version header (when sent back) naming that version; a 4xx
 * is the server's right (a record that does not exist, a state that refuses the change) and only
 * counted. An invalid request: refused with a 4xx (401 without a token), never accepted, never 5xx.
 */
import { type BundleOperation, VERSION_HEADER } from '../contract/index.ts';
import type { Contract } from '../validation/index.ts';
import type { Rule } from './breakers.ts';
import { FUZZ_MAX_ANSWER_BYTES, type FuzzRequest, type Sent } from './request.ts';

export type Check =
  | 'network'
  | '5xx'
  | 'too-large'
  | 'redirect'
  | 'next'
  | 'schema'
  | 'version'
  | 'accepted'
  | 'security'
  | 'read-back'
  | 'unchanged';

export interface Finding {
  check: Check;
  message: string;
}

const excerpt = (text: string) => text.replace(/\s+/g, ' ').slice(0, 160);

/**
 * A network error, a 5xx, an answer over the size bound or a redirect to another origin: a
 * failure whatever the request.
 */
function broken(sent: Sent): Finding | undefined {
  if (sent.status === null) return { check: 'network', message: `no answer: ${sent.error}` };
  if (sent.tooLarge) {
    const bound = `${FUZZ_MAX_ANSWER_BYTES / 1024 / 1024} MiB`;
    return {
      check: 'too-large',
      message: `answer too large: ${sent.status} with more than ${bound}, not read further`,
    };
  }
  if (sent.offOrigin !== undefined) {
    return {
      check: 'redirect',
      message: `answered ${sent.status} redirecting to another origin (${sent.offOrigin.slice(0, 200)}); not followed`,
    };
  }
  if (sent.status >= 500) return { check: '5xx', message: `answered ${sent.status}: ${excerpt(sent.text)}` };
  return undefined;
}

export function checkValid(
  contract: Contract,
  operation: BundleOperation,
  request: FuzzRequest,
  sent: Sent,
): Finding | undefined {
  const failure = broken(sent);
  if (failure || sent.status === null) return failure;
  const served = sent.headers.get(VERSION_HEADER);
  if (served !== null && served !== request.version) {
    return { check: 'version', message: `asked for version ${request.version}, answered as ${served}` };
  }
  if (sent.status < 200 || sent.status > 299) return undefined;
  const violations = contract.validateResponse(operation, sent.status, sent.headers.get('content-type'), sent.text);
  if (violations.length === 0) return undefined;
  const listed = violations.slice(0, 3).map((v) => `${v.field}: ${v.rule} — ${v.message}`);
  const more = violations.length > 3 ? ` (and ${violations.length - 3} more)` : '';
  return { check: 'schema', message: `the ${sent.status} answer breaks the contract: ${listed.join('; ')}${more}` };
}

export function checkInvalid(breach: { rule: Rule; field: string }, sent: Sent): Finding | undefined {
  const failure = broken(sent);
  if (failure || sent.status === null) return failure;
  if (breach.rule === 'security' && sent.status !== 401) {
    return {
      check: 'security',
      message: `a request without a bearer token got ${sent.status}; the contract requires 401`,
    };
  }
  if (sent.status < 400) {
    return {
      check: 'accepted',
      message: `${breach.field} breaks the rule "${breach.rule}", yet the request was answered ${sent.status}`,
    };
  }
  return undefined;
}
