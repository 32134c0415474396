// House lint rules for the contract, loaded by redocly.yaml. They are a plugin rather than YAML
// assertions because they must look through `$ref`s (parameters and schemas are shared files),
// which Redocly's configurable rules do not do reliably.
import { readFileSync } from 'node:fs';
import { refusal, scanSources, URL_LIKE } from './source-scan.js';

// Before Redocly resolves any `$ref` of the source (it loads this plugin first): refuse URLs,
// files outside openapi/, oversized files and alias bombs (source-scan.js).
await scanSources();

/**
 * The version header's name, read from the one file that writes it (spec §9: the real name carries
 * the platform name, so renaming it must stay a one-file change).
 */
function versionHeaderName() {
  const file = new URL('../components/parameters/ApiVersionHeader.yaml', import.meta.url);
  const names = new Set([...readFileSync(file, 'utf8').matchAll(/^\s+name:\s*['"]?([^'"\s]+)/gm)].map((m) => m[1]));
  if (names.size !== 1) throw new Error(`${file.pathname}: expected one header name, found ${[...names].join(', ')}`);
  return [...names][0];
}
const VERSION_HEADER = versionHeaderName();

const resolve = (ctx, node) => (node && typeof node === 'object' && '$ref' in node ? ctx.resolve(node).node : node);

/**
 * Every operation sends the API version header (spec §9), declared on it or on its path: required,
 * with the allowed versions as an enum and a default among them.
 */
function VersionHeader() {
  return {
    PathItem: {
      Operation(operation, ctx, parents) {
        const params = [...(parents.PathItem?.parameters ?? []), ...(operation.parameters ?? [])]
          .map((p) => resolve(ctx, p))
          .filter(Boolean);
        const header = params.find((p) => p.in === 'header' && p.name?.toLowerCase() === VERSION_HEADER.toLowerCase());
        if (!header) {
          ctx.report({
            message: `Operation must declare the ${VERSION_HEADER} header parameter.`,
            location: ctx.location.key(),
          });
        } else if (
          !header.required ||
          !Array.isArray(header.schema?.enum) ||
          !header.schema.enum.includes(header.schema?.default)
        ) {
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
