/**
 * A downstream app of the generated code, copied next to it (test/ecosystem/generators.test.ts):
 * one call of each generated client, per API version, against the mock, and a list request
 * answered by each generated set of MSW mocks. Type-checked with the generated code under
 * `strict` (the repo's own `tsc -p .` excludes this folder: the modules exist only once generated).
 */
import { setupServer } from 'msw/node';
import { client as heyApiClient2023 } from './hey-api/2023-02-10/client.gen.ts';
import * as heyApi2023 from './hey-api/2023-02-10/index.ts';
import { client as heyApiClient2024 } from './hey-api/2024-04-01/client.gen.ts';
import * as heyApi2024 from './hey-api/2024-04-01/index.ts';
import { client as heyApiClientUnstable } from './hey-api/unstable/client.gen.ts';
import * as heyApiUnstable from './hey-api/unstable/index.ts';
import { listSubscriptions as kubbList2023 } from './kubb/2023-02-10/clients/listSubscriptions.ts';
import { handlers as kubbHandlers2023 } from './kubb/2023-02-10/handlers/handlers.ts';
import { listSubscriptions as kubbList2024 } from './kubb/2024-04-01/clients/listSubscriptions.ts';
import { handlers as kubbHandlers2024 } from './kubb/2024-04-01/handlers/handlers.ts';
import { getTicket as kubbGetTicket } from './kubb/unstable/clients/getTicket.ts';
import * as orval2023 from './orval/2023-02-10/client.ts';
import * as orval2024 from './orval/2024-04-01/client.ts';
import * as orvalUnstable from './orval/unstable/client.ts';

/** What a call got: the HTTP status (when the client exposes it) and the parsed body. */
export interface Answer {
  status: number | undefined;
  body: unknown;
}
export type Call = (mockUrl: string) => Promise<Answer>;

const HEADER = 'X-Service-API-Version';
const auth = { Authorization: 'Bearer ecosystem' };

/** One call per tool and API version: the version's list operation, or its one GET. */
export const calls: Record<string, Record<string, Call>> = {
  orval: {
    // orval bakes the base URL into the generated code (output.baseUrl, the mock's URL here).
    '2024-04-01': async () => {
      const { status, data } = await orval2024.listSubscriptions(undefined, { headers: auth });
      return { status, body: data };
    },
    '2023-02-10': async () => {
      const headers = { ...auth, [HEADER]: '2023-02-10' };
      const { status, data } = await orval2023.listSubscriptions(undefined, { headers });
      return { status, body: data };
    },
    unstable: async () => {
      const { status, data } = await orvalUnstable.getTicket(1, { headers: { ...auth, [HEADER]: 'unstable' } });
      return { status, body: data };
    },
  },
  'hey-api': {
    '2024-04-01': async (baseUrl) => {
      heyApiClient2024.setConfig({ baseUrl, auth: () => 'ecosystem' });
      const { response, data } = await heyApi2024.listSubscriptions({ headers: { [HEADER]: '2024-04-01' } });
      return { status: response.status, body: data };
    },
    '2023-02-10': async (baseUrl) => {
      heyApiClient2023.setConfig({ baseUrl, auth: () => 'ecosystem' });
      const { response, data } = await heyApi2023.listSubscriptions({ headers: { [HEADER]: '2023-02-10' } });
      return { status: response.status, body: data };
    },
    unstable: async (baseUrl) => {
      heyApiClientUnstable.setConfig({ baseUrl, auth: () => 'ecosystem' });
      const { response, data } = await heyApiUnstable.getTicket({
        path: { id: 1 },
        headers: { [HEADER]: 'unstable' },
      });
      return { status: response.status, body: data };
    },
  },
  kubb: {
    // Kubb's client returns the body only (it throws on a network error).
    '2024-04-01': async (baseURL) => ({
      status: undefined,
      body: await kubbList2024({ [HEADER]: '2024-04-01' }, undefined, { baseURL, headers: auth }),
    }),
    '2023-02-10': async (baseURL) => ({
      status: undefined,
      body: await kubbList2023({ [HEADER]: '2023-02-10' }, undefined, { baseURL, headers: auth }),
    }),
    unstable: async (baseURL) => ({
      status: undefined,
      body: await kubbGetTicket(1, { [HEADER]: 'unstable' }, { baseURL, headers: auth }),
    }),
  },
};

/** The generated MSW handlers of each tool, per API version that has list operations. */
const mswHandlers = {
  orval: { '2024-04-01': orval2024.getStoreAdminAPIMock(), '2023-02-10': orval2023.getStoreAdminAPIMock() },
  kubb: { '2024-04-01': kubbHandlers2024, '2023-02-10': kubbHandlers2023 },
};

/** `GET <origin>/subscriptions/` answered by one tool's generated MSW mocks (no server behind). */
export async function listFromMsw(tool: keyof typeof mswHandlers, version: '2024-04-01' | '2023-02-10') {
  const server = setupServer(...mswHandlers[tool][version]);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const response = await fetch('http://msw.test/subscriptions/');
    return { status: response.status, body: (await response.json()) as unknown };
  } finally {
    server.close();
  }
}
