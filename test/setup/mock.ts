/**
 * vitest global setup: one mock server for the suites (test/mock, test/conformance), on a free
 * port, closed after the run. Tests read its URL with `inject('mockUrl')`.
 */
import type { TestProject } from 'vitest/node';
import { startMock } from '../../src/mock/index.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    mockUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const mock = await startMock({ port: 0 });
  project.provide('mockUrl', mock.url);
  return async () => {
    await mock.close();
  };
}
