/**
 * Stage examples: `Prefer: code=` and `Prefer: example=` are served from the contract's examples
 * (after the request checks, so a bad request is still refused): `code=401` answers the 401
 * problem, a declared example its value, an undeclared status or example a 404 naming the declared
 * ones, another declared status an empty answer.
 */
import { refusal, unauthorized } from '../../http/index.ts';
import type { Incoming, Preferred, Routed, Stage } from './context.ts';
import { api, json, refuseRouted } from './respond.ts';

export const examples: Stage<Incoming & Routed & Preferred> = {
  name: 'examples',
  run: (context) => {
    const { preferences, target, served, version, problem } = context;
    if (preferences.code === undefined && preferences.example === undefined) return undefined;
    const declared = Object.entries(target.examples)
      .map(([code, names]) => `${code}${names.length ? ` (examples: ${names.join(', ')})` : ''}`)
      .join('; ');
    const code = preferences.code ?? 200;
    // code=401: the operation's declared 401, asked for.
    if (code === 401 && target.statuses.includes('401')) {
      return refuseRouted(context, unauthorized(context.authorization, false, problem));
    }
    if (!target.statuses.includes(String(code))) {
      // A status the operation does not declare.
      const detail = `${problem.operation} (${version}) does not declare ${code}. It declares: ${declared}.`;
      return refuseRouted(context, refusal('noSuchResponse', detail, [], problem));
    }
    if (preferences.example !== undefined) {
      if (code !== 200 || !Object.hasOwn(target.exampleValues, preferences.example)) {
        // An example the operation does not have.
        const detail = `${problem.operation} (${version}) has no example "${preferences.example}" for ${code}. It declares: ${declared}.`;
        return refuseRouted(context, refusal('noSuchExample', detail, [], problem));
      }
      // The named example, as the contract writes it.
      return json(200, target.exampleValues[preferences.example], served, version);
    }
    // Another declared status: empty (the contract shows no body for it).
    if (code !== 200) return api(code, served, '', version);
    return undefined;
  },
};
