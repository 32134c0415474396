// The modelling policies of the contract (info.description, docs/contract-authoring.md), checked
// against the spec: the states of §3 are enums, the values §2 does not list are open strings naming
// the known value, what is "not shown" accepts anything and says so, request bodies require what
// §4 marks `*` and accept null only where §4 says so, objects stay open, and the policies themselves
// are written in every bundle.
import { describe, expect, it } from 'vitest';
import { validateAgainst } from '../helpers/ajv.ts';
import { type ApiVersion, allOperations, deref, type Json, loadBundle, VERSIONS } from '../helpers/bundles.ts';
import { RECORDED_SUCCESS } from './inventory.ts';
import { propertiesOf } from './schemas.ts';

/** A component schema and the first version bundle holding it. */
function component(name: string): { version: ApiVersion; bundle: Json; schema: Json } {
  for (const version of VERSIONS) {
    const bundle = loadBundle(version);
    const schema = bundle.components?.schemas?.[name];
    if (schema) return { version, bundle, schema };
  }
  throw new Error(`schema ${name} is in no bundle`);
}

/** A property of a component schema, `$ref` resolved (sibling keywords such as description kept). */
function property(name: string, field: string): Json {
  const { bundle, schema } = component(name);
  const raw = propertiesOf(bundle, schema)[field];
  if (!raw) throw new Error(`${name}.${field} is missing`);
  const { $ref, allOf, ...siblings } = raw;
  // A shared schema narrowed where it is used (`allOf: [X]` with a `type`: never null by the
  // recorded evidence, docs/fidelity.md) reads as X with that type.
  if (!$ref && Array.isArray(allOf) && allOf.length === 1 && siblings.type)
    return { ...deref(bundle, allOf[0]), ...siblings };
  return $ref ? { ...deref(bundle, raw), ...siblings } : raw;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const STATES = {
  subscription: ['active', 'past_due', 'canceled', 'retrying', 'paused'],
  fulfillmentOrder: ['not_required', 'open', 'processing', 'on_hold', 'incomplete', 'closed', 'canceled'],
  requestStatus: [
    'pending',
    'requested',
    'accepted',
    'rejected',
    'cancel_requested',
    'cancel_accepted',
    'cancel_rejected',
    'closed',
  ],
  assignment: ['fulfillment_unrequested', 'fulfillment_requested', 'fulfillment_accepted', 'cancellation_requested'],
  ticket: ['new', 'open', 'pending', 'solved', 'closed'],
};

describe('states of spec §3', () => {
  it.each([
    ['Subscription', 'status', STATES.subscription],
    ['SubscriptionV20230210', 'status', STATES.subscription],
    ['FulfillmentOrder', 'status', STATES.fulfillmentOrder],
    ['FulfillmentOrder', 'request_status', STATES.requestStatus],
    ['Ticket', 'status', STATES.ticket],
  ])('%s.%s is an enum of exactly the §3 states (null only where its type allows null)', (name, field, states) => {
    const schema = property(name, field);
    const nullable = [schema.type].flat().includes('null');
    expect(schema.enum).toEqual([...states, ...(nullable ? [null] : [])]);
    expect(property(name, field).description).toMatch(/transitions are not shown\s+in\s+the\s+source/i);
  });

  it.each([
    ['listSubscriptions', 'status', STATES.subscription],
    ['listFulfillmentOrders', 'status', STATES.fulfillmentOrder],
    ['listFulfillmentOrders', 'request_status', STATES.requestStatus],
    ['listAssignedFulfillmentOrders', 'assignment_status', STATES.assignment],
  ])('%s filter %s takes exactly the §3 states', (operationId, name, states) => {
    for (const op of allOperations().filter((o) => o.operationId === operationId)) {
      const schema = op.parameters.find((p) => p.in === 'query' && p.name === name)?.schema;
      expect(schema?.items?.enum ?? schema?.enum, `${op.version} ${operationId} ${name}`).toEqual(states);
    }
  });

  it('the ticket update sets a §3 ticket state', () => {
    expect(property('TicketUpdateRequest', 'status').enum).toEqual(STATES.ticket);
  });
});

describe('values whose allowed set is not shown in the source', () => {
  it.each([
    ['Subscription', 'interval', 'day'],
    ['SubscriptionV20230210', 'interval', 'day'],
    ['FulfillmentHold', 'reason', 'address_incorrect'],
    ['MerchantRequest', 'type', 'fulfill_request'],
    ['Ticket', 'channel', 'customer_account'],
    ['OrderFulfillment', 'status', 'success'],
    ['OrderFulfillmentInOrder', 'status', 'success'],
    ['Order', 'fulfillment_status', 'not_required'],
    ['Order', 'payment_status', 'pending'],
    ['RefundAdjustment', 'type', 'refund_shipping'],
    ['RefundLineItem', 'restock_type', 'cancel'],
    ['Transaction', 'status', 'succeeded'],
    ['TransactionCompact', 'status', 'succeeded'],
    ['MetadataDefinition', 'type', 'text'],
    ['MetadataValidation', 'type', 'maximum_length'],
    ['Subscription', 'frequency', undefined],
    ['Order', 'status', undefined],
    ['Order', 'source', undefined],
    ['Order', 'subscription_lifecycle', undefined],
    ['Order', 'display_taxes', undefined],
    ['Transaction', 'type', undefined],
    ['Transaction', 'payment_method', undefined],
    ['TransactionCompact', 'type', undefined],
    ['TransactionCompact', 'payment_method', undefined],
  ])('%s.%s is an open string naming the known value %s', (name, field, known) => {
    const schema = property(name, field);
    // A string, null or not by the recorded evidence; the values seen stated at most as an open set.
    const strings = ((schema.anyOf as Json[] | undefined) ?? [schema]).filter((b) =>
      [b.type].flat().includes('string'),
    );
    expect(strings.some((b) => !b.enum)).toBe(true);
    expect(schema.enum).toBeUndefined();
    expect(schema.description).toMatch(/not shown\s+in\s+the\s+source/);
    if (known) expect(schema.description).toContain(`\`${known}\``);
    const { version } = component(name);
    expect(validateAgainst(version, schema, 'a_value_the_source_does_not_list')).toEqual([]);
  });
});

describe('types and shapes that are not shown in the source', () => {
  it.each([
    ['OrderFulfillment', 'delivery_status'],
    ['OrderFulfillmentInOrder', 'delivery_status'],
    ['OrderFulfillmentLineItem', 'returnable_quantity'],
    ['OrderFulfillmentLineItem', 'returned_quantity'],
    ['OrderFulfillmentInOrderLineItem', 'returnable_quantity'],
    ['OrderFulfillmentInOrderLineItem', 'returned_quantity'],
    ['Order', 'shipping_method'],
    ['GiftCardCreateRequest', 'user'],
    ['SubscriptionRetryRequest', 'payment_gateway'],
    ['OrderAddLineItemsRequest', 'payment_details'],
    ['TicketUpdateRequest', 'order'],
    ['TicketUpdateRequest', 'requester'],
    ['TicketUpdateRequest', 'ticket_type'],
  ])('%s.%s accepts any JSON value and says why', (name, field) => {
    const schema = property(name, field);
    expect(schema.description).toMatch(/not shown\s+in\s+the\s+source/);
    const { version } = component(name);
    for (const value of ['text', 42, true, null, { id: 7 }, [1, 'two']]) {
      expect(validateAgainst(version, schema, value), JSON.stringify(value)).toEqual([]);
    }
  });

  // Null: an attribution's metadata is "free-form, may be null" (spec §2); a line's, an order's and a
  // page's are "(object)" with nullability not shown, and the staging recording sent null there;
  // payment_details was never null in it (docs/fidelity.md).
  it.each([
    ['Attribution', 'metadata', true],
    ['Subscription', 'payment_details', false],
    ['SubscriptionV20230210', 'payment_details', false],
    ['SubscriptionLine', 'metadata', true],
    ['SubscriptionLineV20230210', 'metadata', true],
    ['Order', 'metadata', true],
    ['OrderLine', 'metadata', true],
    ['Page', 'metadata', true],
  ])('%s.%s is a free-form object whose fields are not shown (null allowed: %s)', (name, field, nullable) => {
    const schema = property(name, field);
    expect(schema.type).toEqual(nullable ? ['object', 'null'] : 'object');
    expect(validateAgainst(component(name).version, schema, null).length === 0).toBe(nullable);
    expect(schema.additionalProperties).toBe(true);
    expect(schema.description).toMatch(/not shown\s+in\s+the\s+source/);
  });

  it('the element type of supported_actions is not shown: any element is accepted', () => {
    const schema = property('FulfillmentOrder', 'supported_actions');
    expect(schema.description).toMatch(/not shown\s+in\s+the\s+source/);
    expect(validateAgainst('2024-04-01', schema, ['move', 3, { action: 'x' }])).toEqual([]);
  });
});

describe('request bodies of spec §4', () => {
  /** Body schema -> the fields §4 marks `*` (required), and those it says accept null. */
  const BODIES: [name: string, required: string[], nullable: string[]][] = [
    ['SubscriptionRetryRequest', [], []],
    ['FulfillmentOrderMoveRequest', ['new_location_id'], []],
    ['FulfillmentRequestCreate', [], ['message']],
    ['CancellationRequestAcceptRequest', [], ['message']],
    ['GiftCardCreateRequest', ['currency', 'initial'], ['expired_at']],
    ['TicketUpdateRequest', [], ['assignee']],
    ['OrderAddLineItemsRequest', ['lines'], []],
    ['TransactionCaptureRequest', [], ['amount']],
    ['MetadataDefinitionUpdateRequest', [], []],
    ['PageUpdateRequest', ['title'], []],
  ];
  /** Fields whose type is not shown accept anything, null included. */
  const ANY = new Set(['payment_gateway', 'user', 'payment_details', 'order', 'requester', 'ticket_type']);

  it.each(BODIES)('%s requires %j and accepts null only in %j', (name, required, nullable) => {
    const { version, schema } = component(name);
    expect([...(schema.required ?? [])].sort()).toEqual([...required].sort());
    const acceptsNull = Object.keys(schema.properties).filter(
      (field) => !ANY.has(field) && validateAgainst(version, schema.properties[field], null).length === 0,
    );
    expect(acceptsNull.sort()).toEqual([...nullable].sort());
  });

  it('every request body schema of the bundles is in this list', () => {
    const names = new Set<string>();
    for (const op of allOperations()) {
      const bundle = loadBundle(op.version);
      const body = deref(bundle, op.operation.requestBody)?.content?.['application/json']?.schema;
      if (body) names.add(body.$ref.split('/').pop());
    }
    expect([...names].sort()).toEqual(BODIES.map(([name]) => name).sort());
  });

  it.each([
    ['FulfillmentOrderMoveRequest', { new_location_id: 14, fulfillment_order_line_items: [{ id: 1, anything: 'x' }] }],
    ['FulfillmentRequestCreate', { fulfillment_order_line_items: [{ id: 1, quantity: 2, note: 'x' }] }],
    ['OrderAddLineItemsRequest', { lines: [{ product_id: 5530, quantity: 1, variant_id: 9131 }] }],
    ['TicketUpdateRequest', { comment: { body: 'Thanks!', is_public: true, attachments: [] } }],
    ['PageUpdateRequest', { title: 'About us', metadata: { any: { nested: true } } }],
  ])('%s keeps objects with unshown fields open', (name, body) => {
    const { version } = component(name);
    expect(validateAgainst(version, ref(name), body)).toEqual([]);
  });
});

describe('open objects', () => {
  it.each(VERSIONS)('no schema of %s is closed (additionalProperties: false)', (version) => {
    const closed: string[] = [];
    const walk = (node: Json, at: string) => {
      if (!node || typeof node !== 'object') return;
      if (node.additionalProperties === false) closed.push(at);
      for (const [key, child] of Object.entries<Json>(node)) walk(child, `${at}/${key}`);
    };
    walk(loadBundle(version).components?.schemas, '#/components/schemas');
    walk(loadBundle(version).paths, '#/paths');
    expect(closed).toEqual([]);
  });

  it('a response with a field the contract does not list stays valid', () => {
    const examples = Object.values<Json>(loadBundle('2023-02-10').components.examples);
    const stock = structuredClone(examples.find((e) => e.value?.net_stock_level !== undefined)?.value);
    expect(stock).toBeDefined();
    stock.reserved_for_returns = 3;
    stock.location.opening_hours = 'Mo-Fr 8-18';
    expect(validateAgainst('2023-02-10', ref('StockRecord'), stock)).toEqual([]);
  });
});

describe('responses', () => {
  it('every operation declares its 200 (and a success status recorded), the 401 of the bearer standard, nothing else; the 401 has no body', () => {
    for (const { version, operationId, operation } of allOperations()) {
      const recorded = RECORDED_SUCCESS[operationId] ?? [];
      expect(Object.keys(operation.responses).sort(), `${version} ${operationId}`).toEqual(['200', ...recorded, '401']);
      const unauthorized = deref(loadBundle(version), operation.responses['401']);
      expect(unauthorized.content, `${version} ${operationId} 401`).toBeUndefined();
      expect(unauthorized.headers?.['WWW-Authenticate']).toBeDefined();
    }
  });

  it('notable states have named examples: active and past_due subscriptions, an on_hold fulfillment order', () => {
    const examplesOf = (version: ApiVersion, operationId: string): Record<string, Json> => {
      const op = allOperations().find((o) => o.version === version && o.operationId === operationId);
      const bundle = loadBundle(version);
      const media = deref(bundle, op?.operation.responses['200']).content['application/json'];
      return Object.fromEntries(
        Object.entries<Json>(media.examples).map(([name, example]) => [name, deref(bundle, example).value]),
      );
    };
    const subscriptions = examplesOf('2024-04-01', 'listSubscriptions');
    expect(subscriptions.active.results.map((s: Json) => s.status)).toEqual(['active']);
    expect(subscriptions.past_due.results.map((s: Json) => s.status)).toEqual(['past_due']);
    const held = examplesOf('2024-04-01', 'listFulfillmentOrders').on_hold.results;
    expect(held.map((f: Json) => f.status)).toEqual(['on_hold']);
    expect(held[0].fulfillment_holds[0]).toMatchObject({ reason: 'address_incorrect' });
  });
});

describe('policies written in every bundle', () => {
  it.each(VERSIONS)('%s: info.description states the nullability, scope, openness and error policies', (version) => {
    const text: string = loadBundle(version).info.description;
    expect(text).toMatch(/## Nullability policy/);
    expect(text).toMatch(/every property of every response object accepts `null`/);
    expect(text).toMatch(/every listed field is required/i);
    expect(text).toMatch(/\*\*alternatives\*\*/);
    expect(text).toMatch(/Response objects are open/);
    expect(text).toMatch(/declares only `401`/);
  });

  it('each operation with two scopes explains the choice in its description', () => {
    const twoScopes = allOperations().filter((o) => (o.operation.security ?? []).length > 1);
    expect(twoScopes.map((o) => o.operationId).sort()).toEqual(['acceptCancellationRequest', 'listFulfillmentOrders']);
    for (const { operation } of twoScopes) {
      const scopes = operation.security.flatMap((requirement: Json) => requirement.oauth2);
      for (const scope of scopes) expect(operation.description).toContain(`\`${scope}\``);
      expect(operation.description).toMatch(/\*\*alternatives\*\*/);
      expect(operation.description).toMatch(/without saying whether both are required/);
    }
  });
});
