// House lint rules for the contract, loaded by redocly.yaml. They are a plugin rather than YAML
// assertions because they must look through `$ref`s (parameters and schemas are shared files),
// which Redocly's configurable rules do not do reliably.
import { refusal, scanSources, URL_LIKE } from './source-scan.js';

// Before Redocly resolves any `$ref` of the source (it loads this plugin first): refuse URLs,
// files outside openapi/, oversized files and alias bombs (source-scan.js).
await scanSources();

const resolve = (ctx, node) => (node && typeof node === 'object' && '$ref' in node ? ctx.resolve(node).node : node);

/**
 * Every operation sends the API version header (spec §9), declared on it or on its path: a required
 * header parameter whose enum lists the document's version (`info.version`) and whose default is one
 * of them. The rule recognises the header by that shape, not by its name: the name is written only
 * in components/parameters/ApiVersionHeader.yaml, and the build checks it is the same everywhere.
 */
function VersionHeader() {
  let version;
  return {
    Info: {
      enter(info) {
        version = info.version;
      },
    },
    PathItem: {
      Operation(operation, ctx, parents) {
        const params = [...(parents.PathItem?.parameters ?? []), ...(operation.parameters ?? [])]
          .map((p) => resolve(ctx, p))
          .filter(Boolean);
        const headers = params.filter((p) => p.in === 'header' && resolve(ctx, p.schema)?.enum?.includes(version));
        const [header] = headers;
        const schema = resolve(ctx, header?.schema);
        if (headers.length !== 1) {
          ctx.report({
            message: `Operation must declare one version header parameter (a header whose enum lists ${version}).`,
            location: ctx.location.key(),
          });
        } else if (!header.required || !schema.enum.includes(schema.default)) {
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

/**
 * Sources stay inside the contract: a `$ref` may not name a URL nor a file outside openapi/ (the
 * bundle would publish whatever it points at). `npm run lint` and the build refuse such a `$ref`
 * before anything is read (scripts/lib/source-guard.ts); this rule reports it in `redocly lint`.
 */
function NoExternalRef() {
  return {
    ref: {
      enter(node, ctx) {
        if (typeof node.$ref !== 'string') return;
        const from = ctx.location.source.absoluteRef;
        const why = URL_LIKE.test(from) ? 'is read from a URL' : refusal(node.$ref, from);
        if (why) {
          ctx.report({
            message: `\`$ref\` ${JSON.stringify(node.$ref)} ${why.replace(/ \(.*\)$/, '')}: sources must stay inside openapi/.`,
            location: ctx.location.child(['$ref']),
          });
        }
      },
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
        'no-external-ref': NoExternalRef,
      },
    },
  };
}
