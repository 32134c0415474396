/**
 * The contract model: the one place that knows the API versions, the version header's name, which
 * versions serve each operation (its default version), how to load the version bundles and walk
 * their operations, and how to follow a `$ref`. Everything is derived from redocly.yaml and the
 * bundles at build time (operations.generated.ts) or read from the bundles at run time; nothing of
 * spec §9 is written by hand anywhere else. Importable in a browser: no static Node import.
 */
export {
  type Bundle,
  type BundleOperation,
  bundleOf,
  combinedSchemasOf,
  defaultBundlesDir,
  deref,
  type ExampleListing,
  exampleNames,
  exampleValues,
  HTTP_METHODS,
  type Json,
  jsonMediaOf,
  listExamples,
  loadBundles,
  operationsOf,
  parameterExample,
  parameterExamples,
  responseMediaOf,
} from './bundles.ts';
export { type ApiVersion, COMPONENTS, OPERATIONS, VERSION_HEADER, VERSIONS } from './operations.generated.ts';
export { findPackageJson, formatVersion, PACKAGE_NAME, type PackageInfo, packageInfo, packageRoot } from './package.ts';
export {
  componentName,
  type DataPath,
  RECORD_PATHS,
  recordComponentsOf,
  refSites,
  samePath,
  successSchemaOf,
} from './ref-sites.ts';
export {
  createRouter,
  pathParameterNames,
  type RouteEntry,
  type RouteResult,
  type Router,
  templateToRegExp,
} from './router.ts';
export {
  bundleDefining,
  componentVersion,
  operationKey,
  versionOf,
  versionRank,
  versionsOf,
} from './version-of.ts';
