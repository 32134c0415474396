/**
 * The link between a collection and the contract (./types.ts RecordSchema): its records are checked
 * against their schema component, read from the newest bundle defining it, and the model is checked
 * to link each collection to a component that is a record of an answer serving it.
 */
import { type Bundle, type BundleOperation, bundleDefining, recordComponentsOf } from '../../contract/index.ts';
import { checkComponent, type Violation } from '../../validation/index.ts';
import type { Collection } from './types.ts';

/** Checks a record against schema component `component` (undefined: no bundle defines it). */
export type RecordCheck = (component: string, record: unknown) => Violation[] | undefined;

/**
 * The record check over `bundles`: each component from the newest of them defining it (contract
 * version order, not the order they come in), compiled once; `subject` names the record in messages.
 */
export function recordCheckOf(bundles: readonly Bundle[], subject: string): RecordCheck {
  const from = new Map<string, Bundle | undefined>();
  return (component, record) => {
    if (!from.has(component)) from.set(component, bundleDefining(bundles, component));
    const bundle = from.get(component);
    return bundle && checkComponent(bundle, component, record, subject);
  };
}

/**
 * Why a collection's schema link is wrong in `bundles`, or undefined: its component, where one of
 * them defines it, must be the record of (the body, an item of `results` or an element of) the
 * answer of at least one operation serving the collection. A set of bundles that does not define
 * it (a partial one) cannot tell; the contract defining it is checked when the model loads.
 */
export function recordSchemaProblem(collection: Collection, bundles: readonly Bundle[]): string | undefined {
  const component = collection.schema?.component;
  if (component === undefined || !bundleDefining(bundles, component)) return undefined;
  const serving = bundles.flatMap((bundle) =>
    bundle.operations
      .filter((operation) => collection.servedBy.includes(operation.operationId))
      .map((operation) => recordsOf(bundle, operation)),
  );
  if (serving.some((components) => components.includes(component))) return undefined;
  return `the schema of ${collection.name} is ${component}, which is not the record of an answer of ${collection.servedBy.join(', ') || 'an operation'} serving it`;
}

/** The record components of each operation's answer, walked once per bundle (every seed asks). */
const walked = new WeakMap<BundleOperation, string[]>();
function recordsOf(bundle: Bundle, operation: BundleOperation): string[] {
  let components = walked.get(operation);
  if (!components) {
    components = recordComponentsOf(bundle.document, operation);
    walked.set(operation, components);
  }
  return components;
}
