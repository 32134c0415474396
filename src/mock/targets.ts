/**
 * The engine's targets: every operation of every bundle with what serving it takes (its mock
 * declaration from ./resources.ts, precompiled validators, the projection on its response schema,
 * its path pattern and examples). An operation without a declaration is a build error.
 */
import {
  type Bundle,
  deref,
  type Json,
  listExamples,
  pathParameterNames,
  responseMediaOf,
  templateToRegExp,
  VERSION_HEADER,
} from '../contract/index.ts';
import { validatorsOf } from '../validation/index.ts';
import { createProjector } from './project.ts';
import { OPERATION_DECLS } from './resources.ts';
import type { Target } from './stages/context.ts';

export function targetsOf(bundles: Bundle[]) {
  const listing = listExamples(bundles);
  return bundles.flatMap((bundle) => {
    const validators = validatorsOf(bundle);
    const projector = createProjector(bundle.document);
    return bundle.operations.map((operation) => {
      const decl = OPERATION_DECLS[operation.operationId];
      if (!decl) throw new Error(`the mock has no declaration for ${operation.operationId} (src/mock/resources.ts)`);
      const media = responseMediaOf(bundle.document, operation);
      const exampleValues = Object.fromEntries(
        Object.entries<Json>(media?.examples ?? {}).map(([name, example]) => [
          name,
          deref(bundle.document, example)?.value,
        ]),
      );
      const target: Target = {
        operation,
        version: bundle.version,
        bundle,
        validator: validators.get(operation) as Target['validator'],
        decl,
        project: media?.schema ? projector(media.schema) : (v) => v,
        pathPattern: templateToRegExp(operation.path, true),
        pathNames: pathParameterNames(operation.path),
        examples:
          listing.find((l) => l.version === bundle.version && l.operationId === operation.operationId)?.examples ?? {},
        exampleValues,
        statuses: Object.keys(operation.operation.responses ?? {}),
        // Made once here, not per request (frozen: a stage adding a header copies them first).
        served: Object.freeze({ [VERSION_HEADER]: bundle.version }),
        problem: Object.freeze({ operation: operation.operationId, version: bundle.version }),
      };
      return { method: operation.method, path: operation.path, version: bundle.version, target };
    });
  });
}
