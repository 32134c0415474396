/** Reading the schemas of a bundle the way the spec lists fields: a variant's `allOf` members merged. */
import { deref, type Json } from '../helpers/bundles.ts';

/** The properties of a schema, those of its `allOf` members (a shared `<Name>Base`) merged in. */
export function propertiesOf(bundle: Json, schema: Json): Record<string, Json> {
  const resolved = deref(bundle, schema);
  return Object.assign(
    {},
    ...(resolved.allOf ?? []).map((member: Json) => propertiesOf(bundle, member)),
    resolved.properties ?? {},
  );
}
