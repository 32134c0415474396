/**
 * The fuzzer's run: one fast-check property per operation and version for its valid requests, and
 * one per rule it can break, each with its share of the cases and a seed derived from the run's
 * seed and the property's name (so a run is repeatable, and one property's result does not depend
 * on the others). A failing property is shrunk by fast-check to a minimal request, printed as curl.
 * What a run found is a {@link FuzzReport} (./report.ts).
 */
import fc from 'fast-check';
import { type Bundle, loadBundles } from '../contract/index.ts';
import { Contract } from '../validation/index.ts';
import { breakersOf, type Rule } from './breakers.ts';
import { checkInvalid, checkValid, type Finding } from './checks.ts';
import { countValid, FUZZ_DEFAULT_MIN_ACCEPTED, underExercised } from './coverage.ts';
import { edgeRequests } from './edges.ts';
import { modelOf, type OperationModel, validRequests } from './operation.ts';
import type { FuzzReport } from './report.ts';
import { curlOf, type FuzzRequest, type Sent, send } from './request.ts';
import { checkState, type Reader, ReadFinding, readerOf, readRecord } from './state.ts';

export interface FuzzOptions {
  baseUrl: string;
  token: string;
  /** Any text or number; the same seed draws the same requests. Default: a random one (reported). */
  seed?: string | number;
  /** Requests to draw in all (shrinking and stateful reads come on top). Default 1000. */
  cases?: number;
  /** Also fuzz the write operations, with the stateful checks (changes data). */
  allowWrites?: boolean;
  /** Only these API versions (default: every bundle). */
  versions?: string[];
  /** Path parameter values to try first: `name` or `operationId.name` → value. */
  params?: Record<string, string>;
  bundlesDir?: string;
  bundles?: Bundle[];
  /** Per-request timeout in ms. Default 10 s. */
  timeoutMs?: number;
  /**
   * The floor of accepted (2xx) valid requests per operation fuzzed; one below it is listed in
   * `underExercised` (the command exits 3). Default 1; 0 turns the floor off.
   */
  minAccepted?: number;
  fetch?: typeof fetch;
}

/** A case: the request and, for an invalid one, the rule broken on purpose. */
interface Case {
  request: FuzzRequest;
  breach?: { rule: Rule; field: string };
}

interface Property {
  model: OperationModel;
  kind: 'valid' | Rule;
  field?: string;
  cases: fc.Arbitrary<Case>;
  /** Cases sent before the random ones (the edges of the valid requests). */
  first?: Case[];
}

class FoundError extends Error {
  constructor(readonly finding: Finding) {
    super(finding.message);
  }
}

/** A 32-bit seed from the run's seed and a property's name (FNV-1a). */
function seedOf(seed: number, name: string): number {
  let hash = 0x811c9dc5 ^ seed;
  for (const char of name) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193);
  return hash | 0;
}

/** The run's seed as a number: a number as is, text hashed, none drawn at random. */
export function seedFrom(seed: string | number | undefined): number {
  if (seed === undefined) return Math.floor(Math.random() * 2 ** 31);
  if (typeof seed === 'number') return seed | 0;
  return /^-?\d+$/.test(seed) ? Number(seed) | 0 : seedOf(0, seed);
}

/** The valid requests of `model`, and one property per rule broken (each field and rule its own). */
function propertiesOf(model: OperationModel, contract: Contract): Property[] {
  const validator = (pointer: string) => contract.validatorAt(model.version, pointer);
  const invalid = breakersOf(model, validator).map(
    (breaker): Property => ({
      model,
      kind: breaker.rule,
      field: breaker.field,
      cases: breaker.requests.map((request) => ({ request, breach: { rule: breaker.rule, field: breaker.field } })),
    }),
  );
  const valid: Property = {
    model,
    kind: 'valid',
    cases: validRequests(model).map((request) => ({ request })),
    first: edgeRequests(model, 0).map((request) => ({ request })),
  };
  return [valid, ...invalid];
}

/** Valid requests get this share of the cases, the rules broken the rest; every property runs once at least. */
const VALID_SHARE = 0.4;

export const FUZZ_DEFAULT_CASES = 1000;
const DEFAULT_TIMEOUT_MS = 10_000;

/** The bundles' operations to fuzz, and those skipped (writes without `allowWrites`). */
function modelsOf(options: FuzzOptions, bundles: Bundle[]) {
  const models: OperationModel[] = [];
  const skipped: FuzzReport['skipped'] = [];
  for (const bundle of bundles) {
    if (options.versions && !options.versions.includes(bundle.version)) continue;
    for (const operation of bundle.operations) {
      const model = modelOf(bundle, operation, options.params ?? {});
      if (model.write && !options.allowWrites) {
        skipped.push({
          operation: operation.operationId,
          version: bundle.version,
          reason: 'write (use --allow-writes)',
        });
      } else models.push(model);
    }
  }
  return { models, skipped };
}

interface Run {
  contract: Contract;
  report: FuzzReport;
  readers: Map<OperationModel, Reader | undefined>;
  send: (request: FuzzRequest) => Promise<Sent>;
}

/** Is `body` valid for the operation's body schema? */
const bodyValid = (run: Run, model: OperationModel, body: unknown) =>
  !model.body || run.contract.validatorAt(model.version, model.body.schema.pointer)(body) === true;

function countRefusal(run: Run, model: OperationModel, status: number): void {
  const { operationId } = model.operation;
  const known = run.report.refused.find(
    (r) => r.operation === operationId && r.version === model.version && r.status === status,
  );
  if (known) known.count++;
  else run.report.refused.push({ operation: operationId, version: model.version, status, count: 1 });
}

/** Sends one case and checks the answer (and, for a write, the record before and after it). */
async function checkCase(run: Run, model: OperationModel, fuzzCase: Case): Promise<Finding | undefined> {
  const { request, breach } = fuzzCase;
  // A value drawn that did not come out as intended (valid, or broken) is not sent.
  const intended = breach?.field.startsWith('body') ? breach.field !== 'body' || breach.rule !== 'required' : !breach;
  if (intended && request.body !== undefined && bodyValid(run, model, request.body) === Boolean(breach)) {
    run.report.discarded++;
    return undefined;
  }
  try {
    return await sendAndCheck(run, model, fuzzCase);
  } catch (error) {
    // A read of the record found the server at fault: a finding of this case, the run goes on.
    if (error instanceof ReadFinding) return error.finding;
    throw error;
  }
}

/** The case sent and checked; for a write, the record read before and after it. */
async function sendAndCheck(run: Run, model: OperationModel, { request, breach }: Case): Promise<Finding | undefined> {
  const reader = run.readers.get(model);
  const key = reader ? request.path[reader.key] : undefined;
  const before = reader && key !== undefined ? await readRecord(run.send, reader, key) : undefined;
  const sent = await run.send(request);
  if (!breach) countValid(run.report.operations, model.operation.operationId, model.version, sent.status);
  const finding = breach ? checkInvalid(breach, sent) : checkValid(run.contract, model.operation, request, sent);
  if (finding) return finding;
  if (!breach && sent.status !== null && sent.status >= 300) countRefusal(run, model, sent.status);
  if (!reader || key === undefined) return undefined;
  return checkState(reader, key, sent, { before, after: await readRecord(run.send, reader, key) });
}

async function runProperty(run: Run, property: Property, runs: number, seed: number): Promise<void> {
  const { model, kind } = property;
  const details = await fc.check(
    fc.asyncProperty(property.cases, async (fuzzCase) => {
      const finding = await checkCase(run, model, fuzzCase);
      if (finding) throw new FoundError(finding);
    }),
    // fast-check counts the examples (sent first) in numRuns.
    { seed, numRuns: runs + (property.first?.length ?? 0), examples: (property.first ?? []).map((c) => [c]) },
  );
  const { operationId } = model.operation;
  run.report.cases += details.numRuns;
  run.report.properties.push({
    operation: operationId,
    version: model.version,
    kind,
    ...(property.field !== undefined && { field: property.field }),
    runs: details.numRuns,
    passed: !details.failed,
  });
  if (!details.failed) return;
  const error = details.errorInstance;
  const counterexample = details.counterexample?.[0];
  // Anything but a finding is the fuzzer's own failure (or too many discarded draws): the run stops.
  if (!(error instanceof FoundError) || !counterexample) throw error ?? new Error(`${operationId}: ${kind} failed`);
  run.report.failures.push({
    operation: operationId,
    version: model.version,
    kind,
    ...(counterexample.breach && { field: counterexample.breach.field }),
    ...error.finding,
    request: counterexample.request,
    curl: curlOf(run.report.baseUrl, counterexample.request),
    shrinks: details.numShrinks,
  });
}

/** Fuzzes every operation of every version (see the module comment); never throws on a finding. */
export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const bundles = options.bundles ?? loadBundles(options.bundlesDir);
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const { models, skipped } = modelsOf(options, bundles);
  const seed = seedFrom(options.seed);
  const report: FuzzReport = {
    baseUrl,
    seed,
    requests: 0,
    cases: 0,
    ms: 0,
    properties: [],
    failures: [],
    refused: [],
    operations: [],
    minAccepted: options.minAccepted ?? FUZZ_DEFAULT_MIN_ACCEPTED,
    underExercised: [],
    discarded: 0,
    skipped,
  };
  const target = { doFetch, baseUrl, token: options.token, timeoutMs };
  const reachable = await send(target, { ...PROBE });
  if (reachable.status === null) throw new Error(`cannot reach ${baseUrl}: ${reachable.error}`);
  const run: Run = {
    contract: new Contract(bundles),
    report,
    readers: new Map(models.filter((m) => m.write).map((m) => [m, readerOf(m, models)])),
    send: (request) => {
      report.requests++;
      return send(target, request);
    },
  };
  const properties = models.flatMap((model) => propertiesOf(model, run.contract));
  const total = options.cases ?? FUZZ_DEFAULT_CASES;
  const valid = properties.filter((p) => p.kind === 'valid').length;
  const share = (p: Property) =>
    p.kind === 'valid' ? (total * VALID_SHARE) / valid : (total * (1 - VALID_SHARE)) / (properties.length - valid);
  for (const property of properties) {
    const name = `${property.model.version} ${property.model.operation.operationId} ${property.kind} ${property.field ?? ''}`;
    await runProperty(run, property, Math.max(1, Math.round(share(property))), seedOf(seed, name));
  }
  report.underExercised = underExercised(report.operations, report.minAccepted);
  report.ms = performance.now() - started;
  return report;
}

/** The first request: is anything listening at the base URL? (Any answer will do.) */
const PROBE: FuzzRequest = { method: 'get', template: '/', path: {}, query: [], version: null, withToken: false };
