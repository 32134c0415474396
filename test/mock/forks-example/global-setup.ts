// vitest globalSetup: one mock for the whole run, a store prepared once and saved as a global snapshot.
import type { TestProject } from 'vitest/node';
import { startMock } from '../../../src/mock/index.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    preparedMockUrl: string;
  }
}

export default async function setup(project: Pick<TestProject, 'provide'>) {
  const mock = await startMock({ port: 0 });
  const headers = { Authorization: 'Bearer setup', 'Content-Type': 'application/json' };
  // The preparation every test needs, done once (here: two tickets).
  for (const id of [1, 2]) {
    const body = JSON.stringify({ subject: 'Prepared' });
    await fetch(`${mock.url}/tickets/${id}/`, { method: 'PATCH', headers, body });
  }
  // Saved as global snapshot "prepared": owned by no token, every test forks it.
  const snapshot = JSON.stringify({ name: 'prepared' });
  await fetch(`${mock.url}/__mock/global-snapshots`, { method: 'POST', headers, body: snapshot });
  project.provide('preparedMockUrl', mock.url);
  return () => mock.close();
}
