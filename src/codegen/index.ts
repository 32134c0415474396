/**
 * Code generation from the bundles: the TypeScript path types of each version (openapi-typescript),
 * the type-level index of all versions, and the contract's run-time operation table. Used by
 * scripts/build.ts and by the bin's `types` command, so a user's generated types equal the shipped
 * ones. Needs the optional peers openapi-typescript and typescript.
 */
export {
  generateBrowserBundles,
  generateOperationTable,
  generateTypes,
  generateTypesIndex,
  generateVersionNamespaces,
} from './types.ts';
