/**
 * The operation table: per operationId, what the mock does with its store, gathered from the
 * collection files that declare it (./model/<collection>.ts `operations`) with the collection each
 * names. Lists name their filters (applied, or accepted and documented as not applied) and an
 * optional parent; reads by key name the path parameter; writes are small functions returning the
 * records they change and the response, with their row of the state table. docs/mock.md documents
 * every entry (test/mock/docs.test.ts).
 */
import { MODEL } from './model/index.ts';
import type { GetOperation, ListOperation, WriteOperation } from './model/types.ts';

export type {
  FilterDecl,
  FilterKind,
  WriteContext,
  WriteRefusal,
  WriteResult,
} from './model/types.ts';

/** An operation with the collection whose file declares it (its records, or its addressed ones). */
export type ListDecl = ListOperation & { collection: string };
export type GetDecl = GetOperation & { collection: string };
export type WriteDecl = WriteOperation & { collection: string };
export type OperationDecl = ListDecl | GetDecl | WriteDecl;

/** Every operation of the model by operationId (one collection declares each: ./model/index.ts). */
export const OPERATION_DECLS: Readonly<Record<string, OperationDecl>> = Object.fromEntries(
  MODEL.flatMap((collection) =>
    Object.entries(collection.operations).map(([operationId, operation]) => [
      operationId,
      { ...operation, collection: collection.name },
    ]),
  ),
);
