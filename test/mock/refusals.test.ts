/**
 * Requests that break the contract are refused with a 4xx whose JSON body names each offending
 * field and the rule it breaks (spec §8 limits, enums, formats, types, required fields, malformed
 * JSON); a missing or non-Bearer token gets 401 before anything else.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type MockServer, startMock } from '../../src/mock/index.ts';
import { type CallOptions, call as rawCall } from './http.ts';

/**
 * Both mocks refuse the same bad requests the same way: the data-backed one (ajv validators
 * precompiled from the bundles, the suite's mock) and the static one (Prism).
 */
let staticMock: MockServer;
beforeAll(async () => {
  staticMock = await startMock({ port: 0, static: true });
});
afterAll(async () => {
  await staticMock?.close();
});
const MODES = [
  { mode: 'data-backed', baseUrl: () => inject('mockUrl') },
  { mode: 'static (Prism)', baseUrl: () => staticMock.url },
];

interface BadRequest {
  name: string;
  method: string;
  path: string;
  version?: string;
  query?: string;
  body?: unknown;
  raw?: string;
  contentType?: string;
  status?: number;
  field: string;
  rule: string;
}

const long = (n: number) => 'x'.repeat(n);

const BAD_REQUESTS: BadRequest[] = [
  // GET /subscriptions/ (2024-04-01 and 2023-02-10): enums, booleans, dates of the query
  {
    name: 'subscription status outside the enum',
    method: 'GET',
    path: '/subscriptions/',
    query: 'status=expired',
    field: 'query.status[0]',
    rule: 'enum',
  },
  {
    name: 'second status value outside the enum',
    method: 'GET',
    path: '/subscriptions/',
    query: 'status=active&status=bogus',
    field: 'query.status[1]',
    rule: 'enum',
  },
  {
    name: 'unknown card type',
    method: 'GET',
    path: '/subscriptions/',
    query: 'card_type=amex',
    field: 'query.card_type[0]',
    rule: 'enum',
  },
  {
    name: 'unknown payment method',
    method: 'GET',
    path: '/subscriptions/',
    query: 'payment_method=cash',
    field: 'query.payment_method[0]',
    rule: 'enum',
  },
  {
    name: 'unknown recoveries source',
    method: 'GET',
    path: '/subscriptions/',
    query: 'recoveries_source=sms',
    field: 'query.recoveries_source',
    rule: 'enum',
  },
  {
    name: 'unknown gateway status',
    method: 'GET',
    path: '/subscriptions/',
    query: 'gateway_status=paused',
    field: 'query.gateway_status',
    rule: 'enum',
  },
  {
    name: 'is_test not a boolean',
    method: 'GET',
    path: '/subscriptions/',
    query: 'is_test=maybe',
    field: 'query.is_test',
    rule: 'type',
  },
  {
    name: 'date_from not a date',
    method: 'GET',
    path: '/subscriptions/',
    query: 'date_from=2024-13-45',
    field: 'query.date_from',
    rule: 'format',
  },
  {
    name: 'next_renewal_date_to a word',
    method: 'GET',
    path: '/subscriptions/',
    query: 'next_renewal_date_to=tomorrow',
    field: 'query.next_renewal_date_to',
    rule: 'format',
  },
  {
    name: 'recoveries_date_to a date-time, not a date',
    method: 'GET',
    path: '/subscriptions/',
    query: 'recoveries_date_to=2024-05-02T10:00:00Z',
    field: 'query.recoveries_date_to',
    rule: 'format',
  },
  {
    name: 'cancel_date_from in day-first order',
    method: 'GET',
    path: '/subscriptions/',
    query: 'cancel_date_from=02-05-2024',
    field: 'query.cancel_date_from',
    rule: 'format',
  },
  {
    name: 'older version: status outside the enum',
    method: 'GET',
    path: '/subscriptions/',
    version: '2023-02-10',
    query: 'status=expired',
    field: 'query.status[0]',
    rule: 'enum',
  },
  // subscriptions by id
  {
    name: 'renew: id not an integer',
    method: 'POST',
    path: '/subscriptions/abc/renew/',
    field: 'path.id',
    rule: 'type',
  },
  {
    name: 'retry: id a decimal',
    method: 'POST',
    path: '/subscriptions/1.5/retry/',
    body: {},
    field: 'path.id',
    rule: 'type',
  },
  {
    name: 'retry: body an array',
    method: 'POST',
    path: '/subscriptions/1/retry/',
    body: [],
    field: 'body',
    rule: 'type',
  },
  {
    name: 'transactions: id with letters',
    method: 'GET',
    path: '/subscriptions/x1/transactions/',
    field: 'path.id',
    rule: 'type',
  },
  // fulfillment orders
  {
    name: 'fulfillment order status outside the enum',
    method: 'GET',
    path: '/fulfillment-orders/',
    query: 'status=shipped',
    field: 'query.status[0]',
    rule: 'enum',
  },
  {
    name: 'request status outside the enum',
    method: 'GET',
    path: '/fulfillment-orders/',
    query: 'request_status=done',
    field: 'query.request_status[0]',
    rule: 'enum',
  },
  {
    name: 'date_created_from with slashes',
    method: 'GET',
    path: '/fulfillment-orders/',
    query: 'date_created_from=2024/05/02',
    field: 'query.date_created_from',
    rule: 'format',
  },
  {
    name: 'move: new_location_id missing',
    method: 'POST',
    path: '/fulfillment-orders/1/move/',
    body: {},
    field: 'body.new_location_id',
    rule: 'required',
  },
  {
    name: 'move: new_location_id a string',
    method: 'POST',
    path: '/fulfillment-orders/1/move/',
    body: { new_location_id: '7' },
    field: 'body.new_location_id',
    rule: 'type',
  },
  {
    name: 'move: line items not an array',
    method: 'POST',
    path: '/fulfillment-orders/1/move/',
    body: { new_location_id: 7, fulfillment_order_line_items: 'all' },
    field: 'body.fulfillment_order_line_items',
    rule: 'type',
  },
  {
    name: 'move: a line item not an object',
    method: 'POST',
    path: '/fulfillment-orders/1/move/',
    body: { new_location_id: 7, fulfillment_order_line_items: [1] },
    field: 'body.fulfillment_order_line_items[0]',
    rule: 'type',
  },
  {
    name: 'fulfillment request: notify a string',
    method: 'POST',
    path: '/fulfillment-orders/1/fulfillment-request/',
    body: { notify: 'yes' },
    field: 'body.notify',
    rule: 'type',
  },
  {
    name: 'fulfillment request: message a number',
    method: 'POST',
    path: '/fulfillment-orders/1/fulfillment-request/',
    body: { message: 42 },
    field: 'body.message',
    rule: 'type',
  },
  {
    name: 'cancellation accept: message a boolean',
    method: 'POST',
    path: '/fulfillment-orders/1/cancellation-request/accept/',
    body: { message: true },
    field: 'body.message',
    rule: 'type',
  },
  {
    name: 'cancellation accept: id not an integer',
    method: 'POST',
    path: '/fulfillment-orders/one/cancellation-request/accept/',
    body: {},
    field: 'path.id',
    rule: 'type',
  },
  {
    name: 'assigned: assignment status outside the enum',
    method: 'GET',
    path: '/assigned-fulfillment-orders/',
    query: 'assignment_status=done',
    field: 'query.assignment_status',
    rule: 'enum',
  },
  {
    name: 'assigned: date_created_to a word',
    method: 'GET',
    path: '/assigned-fulfillment-orders/',
    query: 'date_created_to=yesterday',
    field: 'query.date_created_to',
    rule: 'format',
  },
  // gift cards (spec §8: currency ≤ 3, initial pattern)
  {
    name: 'gift card: currency longer than 3',
    method: 'POST',
    path: '/gift-cards/',
    body: { currency: 'EURO', initial: '50.00' },
    field: 'body.currency',
    rule: 'maxLength',
  },
  {
    name: 'gift card: initial with 3 decimals',
    method: 'POST',
    path: '/gift-cards/',
    body: { currency: 'EUR', initial: '12.345' },
    field: 'body.initial',
    rule: 'pattern',
  },
  {
    name: 'gift card: initial with 11 integer digits',
    method: 'POST',
    path: '/gift-cards/',
    body: { currency: 'EUR', initial: '12345678901' },
    field: 'body.initial',
    rule: 'pattern',
  },
  {
    name: 'gift card: initial a number',
    method: 'POST',
    path: '/gift-cards/',
    body: { currency: 'EUR', initial: 50 },
    field: 'body.initial',
    rule: 'type',
  },
  {
    name: 'gift card: initial missing',
    method: 'POST',
    path: '/gift-cards/',
    body: { currency: 'EUR' },
    field: 'body.initial',
    rule: 'required',
  },
  {
    name: 'gift card: currency missing',
    method: 'POST',
    path: '/gift-cards/',
    body: { initial: '5.00' },
    field: 'body.currency',
    rule: 'required',
  },
  {
    name: 'gift card: expired_at a date, not a date-time',
    method: 'POST',
    path: '/gift-cards/',
    body: { currency: 'EUR', initial: '5.00', expired_at: '2025-05-02' },
    field: 'body.expired_at',
    rule: 'format',
  },
  { name: 'gift card: no body at all', method: 'POST', path: '/gift-cards/', field: 'body', rule: 'required' },
  {
    name: 'gift card: malformed JSON',
    method: 'POST',
    path: '/gift-cards/',
    raw: '{"currency": "EUR", ',
    status: 400,
    field: 'body',
    rule: 'json',
  },
  // tickets
  {
    name: 'get ticket: id with a malformed percent-escape',
    method: 'GET',
    path: '/tickets/%E0/',
    status: 400,
    field: 'path',
    rule: 'uri',
  },
  { name: 'get ticket: id not an integer', method: 'GET', path: '/tickets/abc/', field: 'path.id', rule: 'type' },
  {
    name: 'update ticket: from_email not an email',
    method: 'PATCH',
    path: '/tickets/1/',
    body: { from_email: 'not-an-email' },
    field: 'body.from_email',
    rule: 'format',
  },
  {
    name: 'update ticket: priority outside the enum',
    method: 'PATCH',
    path: '/tickets/1/',
    body: { priority: 'urgent' },
    field: 'body.priority',
    rule: 'enum',
  },
  {
    name: 'update ticket: status outside the enum',
    method: 'PATCH',
    path: '/tickets/1/',
    body: { status: 'archived' },
    field: 'body.status',
    rule: 'enum',
  },
  {
    name: 'update ticket: a product id a string',
    method: 'PATCH',
    path: '/tickets/1/',
    body: { products: [1, 'two'] },
    field: 'body.products[1]',
    rule: 'type',
  },
  {
    name: 'update ticket: assignee a name',
    method: 'PATCH',
    path: '/tickets/1/',
    body: { assignee: 'bob' },
    field: 'body.assignee',
    rule: 'type',
  },
  {
    name: 'update ticket: tags a string',
    method: 'PATCH',
    path: '/tickets/1/',
    body: { tags: 'vip' },
    field: 'body.tags',
    rule: 'type',
  },
  {
    name: 'update ticket: comment a string',
    method: 'PATCH',
    path: '/tickets/1/',
    body: { comment: 'hello' },
    field: 'body.comment',
    rule: 'type',
  },
  {
    name: 'update ticket: malformed JSON',
    method: 'PATCH',
    path: '/tickets/1/',
    raw: "{status: 'solved'}",
    status: 400,
    field: 'body',
    rule: 'json',
  },
  // orders (int32 quantities)
  {
    name: 'add lines: lines missing',
    method: 'POST',
    path: '/orders/100234/add-line-items/',
    body: {},
    field: 'body.lines',
    rule: 'required',
  },
  {
    name: 'add lines: quantity above int32',
    method: 'POST',
    path: '/orders/100234/add-line-items/',
    body: { lines: [{ product_id: 7, quantity: 2147483648 }] },
    field: 'body.lines[0].quantity',
    rule: 'maximum',
  },
  {
    name: 'add lines: negative quantity',
    method: 'POST',
    path: '/orders/100234/add-line-items/',
    body: { lines: [{ product_id: 7, quantity: -1 }] },
    field: 'body.lines[0].quantity',
    rule: 'minimum',
  },
  {
    name: 'add lines: fractional quantity',
    method: 'POST',
    path: '/orders/100234/add-line-items/',
    body: { lines: [{ product_id: 7, quantity: 1.5 }] },
    field: 'body.lines[0].quantity',
    rule: 'type',
  },
  {
    name: 'add lines: product_id missing',
    method: 'POST',
    path: '/orders/100234/add-line-items/',
    body: { lines: [{ quantity: 1 }] },
    field: 'body.lines[0].product_id',
    rule: 'required',
  },
  {
    name: 'add lines: lines an object',
    method: 'POST',
    path: '/orders/100234/add-line-items/',
    body: { lines: { product_id: 7, quantity: 1 } },
    field: 'body.lines',
    rule: 'type',
  },
  // stock records, transactions
  {
    name: 'stock record: id not an integer',
    method: 'GET',
    path: '/stockrecords/sku-1/',
    field: 'path.id',
    rule: 'type',
  },
  {
    name: 'capture: amount with 8 integer digits',
    method: 'POST',
    path: '/transactions/1/capture/',
    body: { amount: '12345678.00' },
    field: 'body.amount',
    rule: 'pattern',
  },
  {
    name: 'capture: amount a number',
    method: 'POST',
    path: '/transactions/1/capture/',
    body: { amount: 10 },
    field: 'body.amount',
    rule: 'type',
  },
  {
    name: 'capture: id in exponent notation',
    method: 'POST',
    path: '/transactions/1e3/capture/',
    body: {},
    field: 'path.id',
    rule: 'type',
  },
  {
    name: 'capture: id in hexadecimal',
    method: 'POST',
    path: '/transactions/0x1F/capture/',
    body: {},
    field: 'path.id',
    rule: 'type',
  },
  // metadata (name ≤ 255, object enum)
  {
    name: 'metadata: name of 256 characters',
    method: 'PATCH',
    path: '/metadata/1/',
    body: { name: long(256) },
    field: 'body.name',
    rule: 'maxLength',
  },
  {
    name: 'metadata: object outside the enum',
    method: 'PATCH',
    path: '/metadata/1/',
    body: { object: 'invoice' },
    field: 'body.object',
    rule: 'enum',
  },
  {
    name: 'metadata: enable_filter a string',
    method: 'PATCH',
    path: '/metadata/1/',
    body: { enable_filter: 'true' },
    field: 'body.enable_filter',
    rule: 'type',
  },
  {
    name: 'metadata: validation without value',
    method: 'PATCH',
    path: '/metadata/1/',
    body: { validations: [{ type: 'maximum_length' }] },
    field: 'body.validations[0].value',
    rule: 'required',
  },
  // pages (title ≤ 200, template pattern)
  {
    name: 'page: title of 201 characters',
    method: 'PUT',
    path: '/pages/1/',
    body: { title: long(201) },
    field: 'body.title',
    rule: 'maxLength',
  },
  {
    name: 'page: title missing',
    method: 'PUT',
    path: '/pages/1/',
    body: { content: '<p>Hi</p>' },
    field: 'body.title',
    rule: 'required',
  },
  {
    name: 'page: template not pages/page.<name>.html',
    method: 'PUT',
    path: '/pages/1/',
    body: { title: 'About', template: 'page.about.html' },
    field: 'body.template',
    rule: 'pattern',
  },
  {
    name: 'page: metadata a string',
    method: 'PUT',
    path: '/pages/1/',
    body: { title: 'About', metadata: 'x' },
    field: 'body.metadata',
    rule: 'type',
  },
  {
    name: 'page: body sent as text/plain',
    method: 'PUT',
    path: '/pages/1/',
    raw: 'title=About',
    contentType: 'text/plain',
    status: 415,
    field: 'header.Content-Type',
    rule: 'content-type',
  },
  // A body on a write that takes none (issue 27): refused like --static and the real API.
  {
    name: 'renew: a text/plain body on an operation that takes none',
    method: 'POST',
    path: '/subscriptions/1/renew/',
    raw: 'renew please',
    contentType: 'text/plain',
    status: 415,
    field: 'header.Content-Type',
    rule: 'content-type',
  },
  {
    name: 'renew: a JSON body on an operation that takes none',
    method: 'POST',
    path: '/subscriptions/1/renew/',
    body: {},
    status: 415,
    field: 'header.Content-Type',
    rule: 'content-type',
  },
];

describe.each(MODES)('$mode mock: requests that break the contract', ({ baseUrl }) => {
  const call = (method: string, path: string, options: CallOptions = {}) =>
    rawCall(method, path, { baseUrl: baseUrl(), ...options });

  it('has at least 40 distinct cases covering every operation that takes input', () => {
    expect(
      new Set(
        BAD_REQUESTS.map((c) => `${c.method} ${c.path} ${c.version} ${c.query} ${c.raw} ${JSON.stringify(c.body)}`),
      ).size,
    ).toBe(BAD_REQUESTS.length);
    expect(BAD_REQUESTS.length).toBeGreaterThanOrEqual(40);
  });

  it.each(BAD_REQUESTS)('$name → $field ($rule)', async (c) => {
    const response = await call(c.method, c.path, {
      ...(c.version && { version: c.version }),
      ...(c.query && { query: c.query }),
      ...(c.body !== undefined && { body: c.body }),
      ...(c.raw !== undefined && { raw: c.raw }),
      ...(c.contentType && { headers: { 'Content-Type': c.contentType } }),
    });
    expect(response.status).toBe(c.status ?? 422);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.json.status).toBe(response.status);
    expect(response.json.validation).toContainEqual(expect.objectContaining({ field: c.field, rule: c.rule }));
    expect(response.json.detail).toContain(c.field);
  });

  it('names every offending field of one request, not only the first', async () => {
    const response = await call('POST', '/gift-cards/', {
      body: { currency: 'EURO', initial: 'abc', expired_at: 'soon' },
    });
    expect(response.status).toBe(422);
    expect(response.json.validation.map((v: { field: string; rule: string }) => `${v.field} ${v.rule}`).sort()).toEqual(
      ['body.currency maxLength', 'body.expired_at format', 'body.initial pattern'],
    );
    expect(response.json).toMatchObject({
      operation: 'createGiftCard',
      version: '2023-02-10',
      title: 'Invalid request',
    });
  });

  it('accepts the limits themselves (int32 maximum, 200-character title, 255-character name)', async () => {
    const lines = await call('POST', '/orders/1003/add-line-items/', {
      body: { lines: [{ product_id: 7, quantity: 2147483647 }] },
    });
    expect(lines.status).toBe(200);
    expect((await call('PUT', '/pages/1/', { body: { title: long(200) } })).status).toBe(200);
    expect((await call('PATCH', '/metadata/1/', { body: { name: long(255) } })).status).toBe(200);
    // The largest amount the pattern allows (a negative one is refused by the store: issue #17).
    expect((await call('POST', '/gift-cards/', { body: { currency: 'EUR', initial: '1234567890.99' } })).status).toBe(
      200,
    );
  });
});

describe.each(MODES)('$mode mock: authentication', ({ baseUrl }) => {
  const call = (method: string, path: string, options: CallOptions = {}) =>
    rawCall(method, path, { baseUrl: baseUrl(), ...options });

  const cases = [
    { name: 'no Authorization header', authorization: undefined, challenge: 'Bearer realm="store-admin"' },
    { name: 'a Basic credential', authorization: 'Basic dXNlcjpwYXNz', challenge: 'error="invalid_token"' },
    { name: 'Bearer without a token', authorization: 'Bearer', challenge: 'error="invalid_token"' },
    { name: 'a token without a scheme', authorization: 'abc123', challenge: 'error="invalid_token"' },
  ];

  it.each(cases)('$name → 401 with a challenge', async ({ authorization, challenge }) => {
    const response = await call('GET', '/store/', authorization === undefined ? { token: null } : { authorization });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain(challenge);
    expect(response.json.validation).toContainEqual(
      expect.objectContaining({ field: 'header.Authorization', rule: 'security' }),
    );
  });

  it('checks the token before the body: a bad body without a token is 401, malformed JSON included', async () => {
    expect((await call('POST', '/gift-cards/', { token: null, body: { currency: 'EURO' } })).status).toBe(401);
    expect((await call('POST', '/gift-cards/', { token: null, raw: '{oops' })).status).toBe(401);
  });

  it.each([
    ['GET', '/subscriptions/', undefined],
    ['POST', '/subscriptions/1/renew/', undefined],
    ['GET', '/tickets/1/', undefined],
    ['PATCH', '/metadata/1/', {}],
    ['PUT', '/pages/1/', { title: 'About' }],
  ])('%s %s without a token → 401', async (method, path, body) => {
    const response = await call(method, path, { token: null, ...(body !== undefined && { body }) });
    expect(response.status).toBe(401);
  });
});
