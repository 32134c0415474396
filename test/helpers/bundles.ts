/**
 * The committed version bundles for the suites that check the contract: src/contract/bundles.ts
 * (shared with the mock and the conformance runner), loaded once per version.
 */
import { fileURLToPath } from 'node:url';
import {
  type ApiVersion,
  type BundleOperation,
  deref,
  HTTP_METHODS,
  type Json,
  loadBundles,
  operationsOf as operationsOfDocument,
  VERSIONS,
} from '../../src/contract/index.ts';

export { type ApiVersion, type BundleOperation, deref, HTTP_METHODS, type Json, VERSIONS };

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const documents = new Map(loadBundles().map((bundle) => [bundle.version, bundle.document]));

export function loadBundle(version: ApiVersion): Json {
  const document = documents.get(version);
  if (!document) throw new Error(`no bundle of version ${version} in generated/openapi/`);
  return document;
}

export const operationsOf = (version: ApiVersion): BundleOperation[] =>
  operationsOfDocument(version, loadBundle(version));

export const allOperations = (): BundleOperation[] => VERSIONS.flatMap(operationsOf);
