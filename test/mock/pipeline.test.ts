/**
 * The engine's pipeline (src/mock/stages): one list of typed stages, each declaring what it adds
 * (a stage placed before what it needs does not type-check; `tsc -p .` runs in
 * test/architecture/typecheck.test.ts), and what is answered before it (a preflight, the admin
 * endpoints), told apart by `RawResponse.kind`.
 */
import { describe, expect, it } from 'vitest';
import { createMockEngine } from '../../src/mock/index.ts';
import { auth } from '../../src/mock/stages/auth.ts';
import { type Incoming, pipeline } from '../../src/mock/stages/context.ts';
import { route } from '../../src/mock/stages/route.ts';

const raw = (method: string, target: string, headers: Record<string, string> = {}) => ({
  method,
  target,
  origin: 'http://mock.test',
  header: (name: string) => ({ authorization: 'Bearer pipeline', ...headers })[name],
  readBody: () => new Uint8Array(),
});

describe('the pipeline', () => {
  it('checks by type that a stage comes after the stages adding what it needs', () => {
    // auth needs what route adds (the operation and version served).
    // @ts-expect-error: auth before route
    expect(pipeline<Incoming>().add(auth).stages).toHaveLength(1);
    expect(
      pipeline<Incoming>()
        .add(route)
        .add(auth)
        .stages.map((s) => s.name),
    ).toEqual(['route', 'auth']);
  });

  it('answers the admin endpoints and a preflight before it: kind admin / preflight, not logged', async () => {
    const engine = createMockEngine();
    const admin = await engine.handleRaw(raw('GET', '/__mock/requests'));
    expect(admin).toMatchObject({ status: 200, kind: 'admin' });
    const preflight = await engine.handleRaw(
      raw('OPTIONS', '/stockrecords/3/', { origin: 'http://app.test', 'access-control-request-method': 'GET' }),
    );
    expect(preflight).toMatchObject({ status: 204, kind: 'preflight' });
    expect(engine.requests()).toEqual([]);
    const api = await engine.handleRaw(raw('GET', '/stockrecords/3/'));
    expect(api).toMatchObject({ status: 200, kind: 'api', version: expect.stringMatching(/\S/) });
    expect(engine.requests()).toHaveLength(1);
  });

  it('refuses a malformed admin path as the API does (400, logged), never a 500', async () => {
    const engine = createMockEngine();
    const answer = await engine.handleRaw(raw('DELETE', '/__mock/snapshots/%zz'));
    expect(answer).toMatchObject({ status: 400, kind: 'api', version: '-' });
    expect(engine.requests()).toHaveLength(1);
  });
});
