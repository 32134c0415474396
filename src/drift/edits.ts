/**
 * The edits `drift --propose` makes to the hand-written OpenAPI source, on the `yaml` package's
 * Document (comments, key order and flow style kept; the bundles are never edited). Each edit
 * changes one schema node, found by the JSON pointer the walk recorded (./walk.ts), or one
 * operation's `responses`; it returns why it cannot apply instead of guessing.
 */
import { type Document, isMap, isScalar, isSeq, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';

/** The node at a JSON pointer (`/properties/currency`), or undefined. */
export function nodeAt(document: Document, pointer: string): YAMLMap | undefined {
  const keys = pointer
    .split('/')
    .slice(1)
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  const node = keys.length === 0 ? document.contents : document.getIn(keys, true);
  return isMap(node) ? node : undefined;
}

const pairOf = (map: YAMLMap, key: string) =>
  map.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === key) as Pair | undefined;

const isNullBranch = (node: unknown) => isMap(node) && node.get('type') === 'null' && node.items.length === 1;

/** Replaces a key in place (same position), keeping the pair's comments. */
function rename(pair: Pair, document: Document, key: string, value: unknown): void {
  pair.key = document.createNode(key);
  pair.value = document.createNode(value);
}

function typesOf(map: YAMLMap): string[] | undefined {
  const type: unknown = map.get('type', true);
  if (isScalar(type)) return [String(type.value)];
  if (isSeq(type)) return type.items.map((item: unknown) => String(isScalar(item) ? item.value : item));
  return undefined;
}

function setTypes(document: Document, map: YAMLMap, types: string[]): void {
  const node = types.length === 1 ? document.createNode(types[0]) : document.createNode(types, { flow: true });
  const pair = pairOf(map, 'type');
  if (pair) pair.value = node;
  else map.items.unshift(document.createPair('type', node));
}

/** One branch left: its keys replace the combinator in place (the field's own keys, its description, win). */
export function inline(map: YAMLMap, pair: Pair, branch: YAMLMap): void {
  const own = (key: unknown) => map.has(isScalar(key) ? key.value : key);
  const kept = branch.items.filter((p) => !own(p.key));
  map.items.splice(map.items.indexOf(pair), 1, ...kept);
}

/** Drops `null` from a field's declaration: `type: [T, 'null']`, an `anyOf` null branch, or a nullable `$ref`. */
export function dropNull(document: Document, map: YAMLMap, types: string[]): string | undefined {
  const declared = typesOf(map);
  if (declared?.includes('null')) {
    setTypes(
      document,
      map,
      declared.filter((t) => t !== 'null'),
    );
    // An enum lists null as a value when null is allowed (the policy): it goes too.
    const values = map.get('enum', true);
    if (isSeq(values)) values.items = values.items.filter((v) => !(isScalar(v) && v.value === null));
    return undefined;
  }
  for (const key of ['anyOf', 'oneOf']) {
    const branches = map.get(key, true) as YAMLSeq | undefined;
    if (!isSeq(branches) || !branches.items.some(isNullBranch)) continue;
    branches.items = branches.items.filter((b) => !isNullBranch(b));
    const [only] = branches.items;
    const pair = pairOf(map, key);
    if (branches.items.length === 1 && isMap(only) && pair) inline(map, pair, only);
    return undefined;
  }
  const ref = pairOf(map, '$ref');
  if (ref && types.length === 1) {
    // A shared scalar (Timestamp, DecimalString…) stays nullable for the fields that are; this use narrows it.
    rename(ref, document, 'allOf', [{ $ref: isScalar(ref.value) ? ref.value.value : ref.value }]);
    map.items.splice(map.items.indexOf(ref) + 1, 0, document.createPair('type', types[0]));
    return undefined;
  }
  return 'its nullability is not written at this declaration';
}

/** Allows `null` (a null the contract refused). */
export function addNull(document: Document, map: YAMLMap): string | undefined {
  const declared = typesOf(map);
  if (declared) {
    setTypes(document, map, [...declared, 'null']);
    return undefined;
  }
  const ref = pairOf(map, '$ref');
  if (!ref) return 'no type or $ref to widen at this declaration';
  rename(ref, document, 'anyOf', [{ $ref: isScalar(ref.value) ? ref.value.value : ref.value }, { type: 'null' }]);
  return undefined;
}

/** Adds a JSON type (a value of another type than declared). */
export function addType(document: Document, map: YAMLMap, type: string): string | undefined {
  const declared = typesOf(map);
  if (!declared) return 'its type is not written at this declaration';
  setTypes(document, map, [...declared.filter((t) => t !== 'null'), type, ...declared.filter((t) => t === 'null')]);
  return undefined;
}

/**
 * States a closed set as an open one: `anyOf: [{type: string, enum: [...]}, {type: string}]` (and a
 * `null` branch if the field is nullable). openapi-typescript 7.13 renders it `("a" | "b") | string`:
 * the known values are named, and a value the server adds later still type-checks and validates.
 */
export function openSet(document: Document, map: YAMLMap, values: string[]): string | undefined {
  const declared = typesOf(map);
  if (!declared || declared.some((t) => t !== 'string' && t !== 'null')) return 'not a string declared here';
  const branches: unknown[] = [{ type: 'string', enum: values }, { type: 'string' }];
  if (declared.includes('null')) branches.push({ type: 'null' });
  const pair = pairOf(map, 'type') as Pair;
  const node = document.createNode(branches) as YAMLSeq;
  for (const item of node.items) if (isMap(item)) item.flow = true;
  pair.key = document.createNode('anyOf');
  pair.value = node;
  return undefined;
}

/** Adds values to a stated `enum`. */
export function addEnumValues(document: Document, map: YAMLMap, values: string[]): string | undefined {
  const list = map.get('enum', true);
  if (!isSeq(list)) return 'its enum is not written at this declaration';
  for (const value of values) list.items.push(document.createNode(value));
  return undefined;
}

/** Moves a bound to the value seen (`maximum: 2147483647` → the largest value recorded). */
export function widenBound(map: YAMLMap, rule: string, seen: number): string | undefined {
  if (!map.has(rule)) return `its ${rule} is not written at this declaration`;
  map.set(rule, seen);
  return undefined;
}

/** Declares a response status seen, as the operation's first 2xx answer (same content). */
export function declareStatus(document: Document, operation: YAMLMap, status: string): string | undefined {
  const responses = operation.get('responses', true);
  if (!isMap(responses)) return 'no responses in the path file';
  const success = responses.items.find((p) => /^2\d\d$/.test(String(isScalar(p.key) ? p.key.value : p.key)));
  if (!success) return 'no success response to copy';
  const copy = document.createPair(status, (success.value as YAMLMap).toJSON());
  responses.items.splice(responses.items.indexOf(success) + 1, 0, copy);
  return undefined;
}
