/**
 * What `npm run bench:peers` sends and what each peer serves for it. The three requests (the list in
 * two versions: four rows) are the mock's; the peers serve the mock's own answers or records:
 *   - bare node:http: the mock's status, headers and bytes for each request (the ceiling);
 *   - json-server: a db per version (it has no version header) holding the mock's seeded stock
 *     records and subscriptions of that version, and an empty `gift-cards` collection: it filters
 *     the list itself (an array, no page envelope) and appends each create (a JS db: in memory, as
 *     the mock's store is, not rewritten to a file per write);
 *   - Mockoon: one environment whose routes answer the mock's bytes, the list's version picked by a
 *     rule on the version header;
 *   - WireMock: one stub mapping per request with the mock's bytes (the list's two matched on the
 *     version header);
 *   - Prism: the contract's bundle of the version (its examples, the request validated), no file here.
 * The files go to a temporary folder (written by {@link writePeerFiles}).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VERSION_HEADER } from '../../../src/contract/index.ts';
import { createMockEngine } from '../../../src/mock/index.ts';
import type { Answer } from '../../lib/answer.ts';

export interface PeerRequest {
  /** The row's name in the table. */
  name: string;
  method: 'GET' | 'POST';
  path: string;
  version: string;
  body?: string;
  /** A new token every this many requests (the mock's per-token record limit, as scripts/bench/mock.ts). */
  tokenEvery?: number;
}

const LIST = '/subscriptions/?status=active';
export const REQUESTS: readonly PeerRequest[] = [
  { name: 'GET /stockrecords/7/ (2023-02-10)', method: 'GET', path: '/stockrecords/7/', version: '2023-02-10' },
  { name: `GET ${LIST} (2023-02-10)`, method: 'GET', path: LIST, version: '2023-02-10' },
  { name: `GET ${LIST} (2024-04-01)`, method: 'GET', path: LIST, version: '2024-04-01' },
  {
    name: 'POST /gift-cards/ (2023-02-10)',
    method: 'POST',
    path: '/gift-cards/',
    version: '2023-02-10',
    body: JSON.stringify({ currency: 'EUR', initial: '50.00', expired_at: '2030-05-02T23:59:59Z' }),
    tokenEvery: 400,
  },
];

/** The versions some request is in (json-server and Prism run one process per version). */
export const PEER_VERSIONS = [...new Set(REQUESTS.map((r) => r.version))];

export const isList = (request: PeerRequest) => request.path === LIST;

export const headersOf = (request: PeerRequest, token = 'bench-peers'): Record<string, string> => ({
  Authorization: `Bearer ${token}`,
  [VERSION_HEADER]: request.version,
  ...(request.body !== undefined && { 'Content-Type': 'application/json' }),
});

/** The key of a request in the bare server's table (method, path, version). */
export const answerKey = (method: string, path: string, version: string) => `${method} ${path} ${version}`;

/** Every page of `path` in `version` from the in-process mock, concatenated: a collection's records. */
async function recordsOf(path: string, version: string): Promise<unknown[]> {
  const engine = createMockEngine();
  const records: unknown[] = [];
  let next: string | null = `http://bench.test${path}`;
  while (next) {
    const response = await engine.handle(
      new Request(next, { headers: { Authorization: 'Bearer seed', [VERSION_HEADER]: version } }),
    );
    const page = (await response.json()) as { results: unknown[]; next: string | null };
    records.push(...page.results);
    next = page.next;
  }
  return records;
}

/** The mock's stock records 1-40 (read by id: the contract has no list of them) in `version`. */
async function stockRecordsOf(version: string): Promise<unknown[]> {
  const engine = createMockEngine();
  const records: unknown[] = [];
  for (let id = 1; id <= 40; id++) {
    const response = await engine.handle(
      new Request(`http://bench.test/stockrecords/${id}/`, {
        headers: { Authorization: 'Bearer seed', [VERSION_HEADER]: version },
      }),
    );
    if (response.status === 200) records.push(await response.json());
  }
  return records;
}

export interface PeerFiles {
  /** json-server's db (a JS file) per version. */
  jsonServer: Record<string, string>;
  mockoon: string;
  /** WireMock's root dir (its `mappings/`). */
  wiremock: string;
}

/** A Mockoon route answering `answers` (the first without a rule: the fallback), in Mockoon's data format (migration 33). */
function mockoonRoute(method: string, endpoint: string, answers: { answer: Answer; version?: string }[]) {
  return {
    uuid: crypto.randomUUID(),
    type: 'http',
    documentation: '',
    method: method.toLowerCase(),
    endpoint,
    responses: answers.map(({ answer, version }, i) => ({
      uuid: crypto.randomUUID(),
      body: answer.body,
      latency: 0,
      statusCode: answer.status,
      label: version ?? '',
      headers: Object.entries(answer.headers).map(([key, value]) => ({ key, value })),
      bodyType: 'INLINE',
      filePath: '',
      databucketID: '',
      sendFileAsBody: false,
      rules: version
        ? [{ target: 'header', modifier: VERSION_HEADER, value: version, invert: false, operator: 'equals' }]
        : [],
      rulesOperator: 'OR',
      disableTemplating: true,
      fallbackTo404: false,
      default: i === 0,
      crudKey: 'id',
      callbacks: [],
    })),
    responseMode: null,
    streamingMode: null,
    streamingInterval: 0,
  };
}

function mockoonEnvironment(answers: Map<PeerRequest, Answer>) {
  const [byId, list2023, list2024, create] = REQUESTS.map((r) => answers.get(r) as Answer) as [
    Answer,
    Answer,
    Answer,
    Answer,
  ];
  const routes = [
    mockoonRoute('GET', 'stockrecords/7/', [{ answer: byId }]),
    mockoonRoute('GET', 'subscriptions/', [
      { answer: list2024, version: '2024-04-01' },
      { answer: list2023, version: '2023-02-10' },
    ]),
    mockoonRoute('POST', 'gift-cards/', [{ answer: create }]),
  ];
  return {
    uuid: crypto.randomUUID(),
    lastMigration: 33,
    name: 'store-admin-contract bench peers',
    endpointPrefix: '',
    latency: 0,
    port: 3000,
    hostname: '127.0.0.1',
    folders: [],
    routes,
    rootChildren: routes.map((route) => ({ type: 'route', uuid: route.uuid })),
    proxyMode: false,
    proxyHost: '',
    proxyRemovePrefix: false,
    tlsOptions: { enabled: false, type: 'CERT', pfxPath: '', certPath: '', keyPath: '', caPath: '', passphrase: '' },
    cors: true,
    headers: [],
    proxyReqHeaders: [],
    proxyResHeaders: [],
    data: [],
    callbacks: [],
  };
}

/** WireMock's stub of one request: the exact URL (path and query), the version header for the list. */
const wiremockStub = (request: PeerRequest, answer: Answer) => ({
  request: {
    method: request.method,
    url: request.path,
    ...(isList(request) && { headers: { [VERSION_HEADER]: { equalTo: request.version } } }),
  },
  response: { status: answer.status, headers: answer.headers, body: answer.body },
});

/** Writes every peer's files into `dir`, from the mock's answers (`answers`) and its seeded records. */
export async function writePeerFiles(dir: string, answers: Map<PeerRequest, Answer>): Promise<PeerFiles> {
  const jsonServer: Record<string, string> = {};
  for (const version of PEER_VERSIONS) {
    const db = {
      stockrecords: await stockRecordsOf(version),
      subscriptions: await recordsOf('/subscriptions/', version),
      'gift-cards': [],
    };
    jsonServer[version] = join(dir, `db-${version}.js`);
    // A function: json-server keeps a JS db in memory.
    writeFileSync(jsonServer[version], `module.exports = () => (${JSON.stringify(db)});\n`);
  }
  const mockoon = join(dir, 'mockoon.json');
  writeFileSync(mockoon, JSON.stringify(mockoonEnvironment(answers)));
  const wiremock = join(dir, 'wiremock');
  mkdirSync(join(wiremock, 'mappings'), { recursive: true });
  REQUESTS.forEach((request, i) => {
    const stub = wiremockStub(request, answers.get(request) as Answer);
    writeFileSync(join(wiremock, 'mappings', `${i}.json`), JSON.stringify(stub));
  });
  return { jsonServer, mockoon, wiremock };
}
