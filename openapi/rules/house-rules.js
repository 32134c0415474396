// House lint rules for the contract, loaded by redocly.yaml. They are a plugin rather than YAML
// assertions because they must look through `$ref`s (parameters and schemas are shared files),
// which Redocly's configurable rules do not do reliably.
const VERSION_HEADER = 'x-service-api-version';

const resolve = (ctx, node) => (node && typeof node === 'object' && '$ref' in node ? ctx.resolve(node).node : node);

/** Every operation sends the API version header (spec §9), declared on it or on its path. */
function VersionHeader() {
  return {
    PathItem: {
      Operation(operation, ctx, parents) {
        const params = [...(parents.PathItem?.parameters ?? []), ...(operation.parameters ?? [])]
          .map((p) => resolve(ctx, p))
          .filter(Boolean);
        const header = params.find((p) => p.in === 'header' && p.name?.toLowerCase() === VERSION_HEADER);
        if (!header) {
          ctx.report({
            message: 'Operation must declare the X-Service-API-Version header parameter.',
            location: ctx.location.key(),
          });
        } else if (!header.required || !header.schema?.default || !Array.isArray(header.schema?.enum)) {
          ctx.report({
            message: 'The version header must be required, with an enum of versions and a default.',
            location: ctx.location.key(),
          });
        }
      },
    },
  };
}

/** Every operation names its own security requirement, and every requirement lists scopes (spec §5). */
function OperationScopes() {
  return {
    Operation(operation, ctx) {
      const security = operation.security;
      if (!Array.isArray(security) || security.length === 0) {
        ctx.report({
          message: 'Operation must declare `security` with its OAuth 2.0 scopes.',
          location: ctx.location.key(),
        });
        return;
      }
      security.forEach((requirement, i) => {
        const scopes = Object.values(requirement ?? {});
        if (scopes.length === 0 || scopes.some((s) => !Array.isArray(s) || s.length === 0)) {
          ctx.report({
            message: 'Each security requirement must list at least one scope.',
            location: ctx.location.child(['security', i]),
          });
        }
      });
    },
  };
}

/** Every schema property says what it is: a `type`, or a composition/`$ref` whose members do. */
function PropertyHasType() {
  const typed = (ctx, schema, seen = new Set()) => {
    const s = resolve(ctx, schema);
    if (!s || typeof s !== 'object' || seen.has(s)) return true;
    seen.add(s);
    if ('type' in s || 'const' in s || 'enum' in s) return true;
    const members = s.anyOf ?? s.oneOf ?? s.allOf;
    return Array.isArray(members) && members.length > 0 && members.every((m) => typed(ctx, m, seen));
  };
  return {
    Schema(schema, ctx) {
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        if (!typed(ctx, property)) {
          ctx.report({
            message: `Property \`${name}\` must declare a type.`,
            location: ctx.location.child(['properties', name]),
          });
        }
      }
    },
  };
}

export default function houseRules() {
  return {
    id: 'house',
    rules: {
      oas3: {
        'version-header': VersionHeader,
        'operation-scopes': OperationScopes,
        'property-has-type': PropertyHasType,
      },
    },
  };
}
