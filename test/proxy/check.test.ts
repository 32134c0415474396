// The proxy's response check (src/proxy/check.ts over Contract.validate): the answer's bytes parsed
// once, the parsed value handed back for the recording, and the declared response of an (operation,
// status) worked out once, its compiled validator kept (a version's operation is its own entry).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadBundles, versionOf, versionsOf } from '../../src/contract/index.ts';
import { createExchangeChecker } from '../../src/proxy/index.ts';

type Route = ReturnType<typeof routeOf>;

const checker = createExchangeChecker(loadBundles());
const routeOf = (path: string, version: string) => {
  const route = checker.route('GET', path, version);
  if (route.kind !== 'matched') throw new Error(`${path} does not route in ${version}`);
  return route.target;
};
const ticketVersion = versionOf('GET', '/tickets/{id}/');
const ticket = {
  id: 7,
  subject: 'A ticket',
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the response check', () => {
  it('parses the bytes once and hands the value back; a body that is not JSON is a json violation, no value', () => {
    const route = routeOf('/tickets/7/', ticketVersion);
    const parse = vi.spyOn(JSON, 'parse');
    const checked = checker.checkResponse(route, 200, 'application/json', Buffer.from(JSON.stringify(ticket)));
    expect(parse).toHaveBeenCalledTimes(1);
    expect(checked.parsed?.value).toEqual(ticket);
    const broken = checker.checkResponse(route, 200, 'application/json', Buffer.from('{"id": 7'));
    expect(broken.parsed).toBeUndefined();
    expect(broken.violations).toEqual([
      expect.objectContaining({ field: 'body', rule: 'json', message: expect.stringMatching(/^not valid JSON: /) }),
    ]);
  });

  it('an undeclared status or content type is told without reading the body', () => {
    const route = routeOf('/tickets/7/', ticketVersion);
    const parse = vi.spyOn(JSON, 'parse');
    expect(checker.checkResponse(route, 418, 'application/json', Buffer.from('{}')).violations).toEqual([
      expect.objectContaining({ field: 'status', rule: 'status' }),
    ]);
    expect(checker.checkResponse(route, 200, 'text/html', Buffer.from('<p>')).violations).toEqual([
      expect.objectContaining({ field: 'header.Content-Type', rule: 'content-type' }),
    ]);
    expect(parse).not.toHaveBeenCalled();
  });

  it('works out the declared response and its validator once per (operation, status): later checks look it up', () => {
    // The list is served by two versions (the inventory's), the newest first.
    const [newest, older] = (versionsOf('GET', '/subscriptions/') ?? []).map((v) => routeOf('/subscriptions/', v));
    const lookups = vi.spyOn(checker.contract, 'declaredResponse');
    for (let i = 0; i < 3; i++) {
      checker.checkResponse(newest as Route, 200, 'application/json', Buffer.from('{}'));
      checker.checkResponse(newest as Route, 400, 'application/json', Buffer.from('{}'));
      checker.checkResponse(older as Route, 200, 'application/json', Buffer.from('{}'));
    }
    // Three (operation, status) pairs, each planned on its first check only (a version's operation
    // is its own: 2024-04-01 and 2023-02-10 are two plans).
    expect(lookups.mock.calls.map(([operation, status]) => [operation, status])).toEqual([
      [newest?.operation, 200],
      [newest?.operation, 400],
      [older?.operation, 200],
    ]);
    expect(newest?.operation).not.toBe(older?.operation);
  });
});
