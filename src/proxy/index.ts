/**
 * The validating proxy (`store-admin-contract proxy`, `startProxy()`): forwards the API's traffic to
 * a real server, checks every exchange against the contract of the version asked (or the
 * endpoint's default), reports the violations (a header, a trailer for a streamed answer, the log, `GET /__proxy/report`,
 * a summary on close), and with `record` writes a recording the mock loads as `--data` and
 * `drift` reads. docs/proxy.md is the user documentation.
 */
export { createExchangeChecker, type ExchangeChecker, type ExchangeViolation } from './check.ts';
export { HELD_BYTES, VIOLATIONS_HEADER } from './exchange.ts';
export {
  DEFAULT_RECORD_LIMIT,
  DEFAULT_RECORD_MAX_BYTES,
  RECORDING_FORMAT,
  type RecordedExchange,
  type Recording,
  type RecordingMeta,
} from './recorder.ts';
export { CREDENTIAL, CREDENTIAL_QUERY, DEFAULT_REDACT } from './redact.ts';
export { formatSummary, type OperationReport, type ProxyReport } from './report.ts';
export {
  DEFAULT_PROXY_PORT,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  type ProxyOptions,
  type ProxyServer,
  REPORT_PATH,
  startProxy,
} from './server.ts';
