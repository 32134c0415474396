// Every field of every resource and shared object of spec §2 has the type the spec gives it (or, for
// a field listed without a type, the one its conventions give: identifiers integers, timestamps
// date-times, money and decimal quantities strings, URLs strings, integer quantities int32, stock
// counters signed int32). The table below is copied from the spec, the oracle of this test; the
// field sets must match exactly, so a field added to or dropped from a schema fails here too.
import { describe, expect, it } from 'vitest';
import { deref, type Json, loadBundle, VERSIONS } from '../helpers/bundles.ts';
import { propertiesOf } from './schemas.ts';

/**
 * Kinds: `int` integer, `int32` integer quantity (0..2^31-1), `sint32` stock counter (signed int32),
 * `bool`, `str` plain string, `dec` decimal string, `ts` ISO 8601 date-time string, `url` URL string,
 * `num` number, `arr` array, `obj` free-form object, `object` inline object, `any` any JSON value
 * (type not shown), `enum` string enum; a PascalCase kind is a `$ref` to that schema (an object).
 */
const SPEC_TYPES: Record<string, string> = {
  Agent: 'email str, first_name str, id int, last_name str',
  User: 'accepts_marketing bool, email str, first_name str, id int, ip str, language str, last_name str, phone_number str, user_agent str',
  Attribution:
    'affiliate str, agent Agent, funnel str, gclid str, metadata obj, subaffiliate1 str, subaffiliate2 str, subaffiliate3 str, subaffiliate4 str, subaffiliate5 str, utm_campaign str, utm_content str, utm_medium str, utm_source str, utm_term str',
  BillingAddress:
    'country str, first_name str, id int, last_name str, line1 str, line2 str, line3 str, line4 str, phone_number str, postcode str, state str',
  ShippingAddress:
    'country str, first_name str, id int, last_name str, line1 str, line2 str, line3 str, line4 str, notes str, phone_number str, postcode str, state str',
  LocationAddress: 'country str, line1 str, line2 str, line3 str, line4 str, phone_number str, postcode str, state str',
  StockLocation: 'accept_return bool, address LocationAddress, callback_url url, id int, name str',
  TaxLine:
    'amount dec, currency str, rate num, report_values AmountReportValues, source str, tax_id int, tax_title str',
  OrderTaxLine:
    'amount dec, currency str, id int, rate num, report_values AmountReportValues, source str, tax_title str',
  AmountReportValues: 'amount dec, currency str',
  PaymentDetails:
    'bankcard_first_six str, bankcard_last_four str, card_token str, gateway object, is_3ds bool, optimized_3ds bool, paypal_vault_id str, sca_flow str',
  PageEnvelope: 'next url, previous url, results arr',
  SubscriptionOrderRef: 'billing_cycle int32, order_number str',
  SubscriptionProductV20230210: 'categories arr, id int, images arr, title str, upc str, url url',
  ProductCategory: 'id int, name str, slug str',
  ProductImage: 'attachment str, caption str, display_order int32, file_name str, id int, src str',
  SubscriptionStockRecordV20230210:
    'id int, low_stock_threshold sint32, num_allocated sint32, num_in_stock sint32, partner_sku str, price dec, price_currency str, price_retail dec',
  FulfillmentOrder:
    'assigned_location StockLocation, created_at ts, fulfillment_holds arr, id int, line_items arr, merchant_requests arr, order_number str, request_status enum, shipping_address ShippingAddress, shipping_method FulfillmentShippingMethod, status enum, supported_actions arr, updated_at ts',
  FulfillmentHold: 'created_at ts, reason str, reason_message str',
  MerchantRequest: 'message str, notify bool, type str',
  FulfillmentShippingMethod: 'code str, name str',
  FulfillmentOrderLineItem:
    'currency str, fulfillable_quantity dec, fulfillment_order_id int, id int, order_line_id int, price_excl_tax dec, price_incl_tax dec, product_id str, product_image str, product_title str, quantity int32, sku str, stockrecord_id int, tax_lines arr, total_discount dec',
  FulfillmentOrderMoveResult: 'moved_fulfillment_order FulfillmentOrder, original_fulfillment_order FulfillmentOrder',
  FulfillmentRequestResult:
    'original_fulfillment_order FulfillmentOrder, requested_fulfillment_order FulfillmentOrder, unrequested_fulfillment_order FulfillmentOrder',
  GiftCard:
    'balance dec, code str, created_at ts, currency str, disabled_at ts, expired_at ts, id int, initial dec, last_four str, updated_at ts, user User',
  Ticket:
    'assignee int, channel str, comments arr, created_at ts, from_email str, id int, order str, priority enum, products arr, requester int, status enum, subject str, tags arr, ticket_type int, updated_at ts',
  TicketComment: 'attachments arr, author int, body str, created_at ts, from_email str, id int, is_public bool',
  TicketAttachment: 'file url, file_name str, id int',
  OrderFulfillment:
    'created_at ts, delivery_status any, id int, last_event_date ts, line_items arr, location_id int, order_number str, origin_address LocationAddress, requires_shipping bool, shipping_method str, status str, tracking_carrier str, tracking_carriers str, tracking_code str, tracking_codes str, tracking_link str, tracking_links url',
  OrderFulfillmentInOrder:
    'created_at ts, delivery_status any, id int, last_event_date ts, line_items arr, location_id int, order_number str, origin_address LocationAddress, requires_shipping bool, shipping_method str, status str, tracking_carrier str, tracking_carriers str, tracking_code str, tracking_codes str, tracking_link str, tracking_links url',
  OrderFulfillmentLineItem:
    'currency str, fulfilled_quantity dec, fulfillment_service str, id int, is_gift_card bool, order_line_id int, price_excl_tax dec, price_excl_tax_excl_discounts dec, price_incl_tax dec, price_incl_tax_excl_discounts dec, product_id int, product_image str, product_title str, quantity int32, requires_shipping bool, returnable_quantity any, returned_quantity any, sku str, tax_lines arr',
  OrderFulfillmentInOrderLineItem:
    'currency str, fulfilled_quantity dec, fulfillment_service str, id int, order_line_id int, price_excl_tax dec, price_incl_tax dec, product_id int, product_image str, product_title str, quantity int32, requires_shipping bool, returnable_quantity any, returned_quantity any, sku str, tax_lines arr, total_discount dec',
  Order:
    'attribution Attribution, billing_address BillingAddress, created_at ts, currency str, date_placed ts, display_taxes str, fulfillment_status str, fulfillments arr, is_test bool, lines arr, metadata obj, number str, offer_discounts arr, order_status_url url, original_shipping_excl_tax dec, original_shipping_incl_tax dec, original_total_discount dec, original_total_excl_tax dec, original_total_incl_tax dec, payment_status str, refunds arr, report_values OrderReportValues, shipping_address ShippingAddress, shipping_code str, shipping_excl_tax dec, shipping_incl_tax dec, shipping_method any, shipping_tax dec, shipping_tax_lines arr, source str, status str, subscription_lifecycle str, subscriptions arr, supports_post_purchase_upsells bool, tags arr, tax_lines arr, total_cost dec, total_discount dec, total_excl_tax dec, total_incl_tax dec, total_outstanding dec, total_tax dec, transactions arr, updated_at ts, user User, voucher_discounts arr',
  OrderReportValues:
    'currency str, original_shipping_excl_tax dec, original_shipping_incl_tax dec, original_total_discount dec, original_total_excl_tax dec, original_total_incl_tax dec, shipping_excl_tax dec, shipping_incl_tax dec, total_cost dec, total_discount dec, total_excl_tax dec, total_incl_tax dec',
  OrderLine:
    'created_at ts, currency str, current_quantity int32, editable_quantity int32, fulfillable_quantity int32, id int, is_gift_card bool, is_upsell bool, metadata obj, original_price_excl_tax dec, original_price_incl_tax dec, original_total_discount dec, price_excl_tax dec, price_incl_tax dec, product_id int, product_image str, product_title str, product_url str, quantity int32, report_values OrderLineReportValues, requires_shipping bool, sku str, tax_lines arr, total_cost dec, total_discount dec, unit_cost dec, updated_at ts, variant_id int, variant_title str',
  OrderLineReportValues:
    'currency str, original_price_excl_tax dec, original_price_incl_tax dec, original_total_discount dec, price_excl_tax dec, price_incl_tax dec, total_cost dec, total_discount dec, unit_cost dec',
  OfferDiscount: 'amount dec, description str, name str',
  VoucherDiscount: 'amount dec, description str, name str, voucher object',
  SubscriptionRef: 'billing_cycle int32, id int',
  Refund:
    'adjustments arr, created_at ts, id int, note str, order_number str, refund_line_items arr, report_values object, total_refund_amount dec, total_return_excl_tax dec, total_return_incl_tax dec, transactions arr, user_id int',
  RefundAdjustment: 'amount_excl_tax dec, amount_incl_tax dec, id int, report_values object, type str',
  RefundLineItem:
    'amount_excl_tax dec, amount_incl_tax dec, id int, line_item_id int, location_id int, quantity int32, report_values object, restock_type str',
  TransactionCompact:
    'amount dec, auth_code str, currency str, date_created ts, external_id str, id int, is_disputed bool, is_external bool, is_initial_retry bool, is_test bool, network_transaction_id str, parent_id int, payment_details PaymentDetails, payment_method str, report_values AmountReportValues, response_code int, statement_descriptor str, status str, type str',
  Transaction:
    'amount dec, amount_available_for_refund dec, attribution Attribution, auth_code str, currency str, date_created ts, external_id str, id int, initiator Agent, is_disputed bool, is_external bool, is_test bool, network_transaction_id str, order str, parent_id int, payment_details PaymentDetails, payment_method str, report_values AmountReportValues, response_code int, statement_descriptor str, status str, subscription SubscriptionRef, type str, user User',
  StockRecord:
    'date_created ts, date_updated ts, id int, location StockLocation, low_stock_threshold sint32, net_stock_level sint32, num_allocated sint32, num_in_stock sint32, product object, sku str',
  Store:
    'available_currencies arr, available_languages arr, contact_address StoreContactAddress, name str, payments StorePayments, primary_domain str, tagline str, tax_id str, timezone str',
  StoreContactAddress:
    'city str, company_name str, country str, line1 str, line2 str, phone_number str, postcode str, state str',
  StorePayments:
    'available_express_payment_methods arr, available_payment_methods arr, certificate_token str, environment_key str',
  CodeLabel: 'code str, label str',
  MetadataDefinition:
    'created_at ts, enable_export bool, enable_filter bool, id int, key str, name str, object enum, type str, updated_at ts, validations arr',
  MetadataValidation: 'type str, value str',
  Page: 'content str, id int, meta_description str, meta_title str, metadata obj, slug str, template str, title str',
};

/**
 * Spec §2 writes the 2023-02-10 Subscription as a difference from the 2024-04-01 one ("adds
 * `is_tax_known`; each line has id, metadata, price, quantity, `product` and `stockrecord`"), and so
 * does this table: the fields both versions share once, then what each version adds. A field of
 * both versions goes into the shared list; a field of one version only into that version's row (no
 * field to drop anywhere).
 */
const SUBSCRIPTION_SHARED =
  'attribution Attribution, billing_address BillingAddress, cancel_reason str, cancel_reason_other_message str, currency str, date_created ts, frequency str, id int, interval str, interval_count int32, is_test bool, lines arr, next_renewal_date ts, num_lines int32, num_orders int32, orders arr, payment_details obj, payment_method str, shipping_address ShippingAddress, shipping_code str, shipping_price dec, status enum, total dec, user User';
const SUBSCRIPTION_LINE_SHARED = 'id int, metadata obj, price dec, quantity int32';
const withFields = (...lists: string[]): string =>
  lists
    .filter(Boolean)
    .flatMap((list) => list.split(', '))
    .sort()
    .join(', ');
// 2024-04-01
SPEC_TYPES.Subscription = withFields(SUBSCRIPTION_SHARED);
SPEC_TYPES.SubscriptionLine = withFields(
  SUBSCRIPTION_LINE_SHARED,
  'product_id int, product_image url, product_title str, product_url url, sku str, variant_id int, variant_title str',
);
// 2023-02-10
SPEC_TYPES.SubscriptionV20230210 = withFields(SUBSCRIPTION_SHARED, 'is_tax_known bool');
SPEC_TYPES.SubscriptionLineV20230210 = withFields(
  SUBSCRIPTION_LINE_SHARED,
  'product SubscriptionProductV20230210, stockrecord SubscriptionStockRecordV20230210',
);

/** The schema of that name in the first bundle that holds it (a schema is the same in every bundle). */
function bundleWith(name: string): Json | undefined {
  for (const version of VERSIONS) {
    const bundle = loadBundle(version);
    if (bundle.components?.schemas?.[name]) return bundle;
  }
  return undefined;
}

const refName = (node: Json): string | undefined =>
  typeof node?.$ref === 'string' ? node.$ref.split('/').pop() : undefined;

/**
 * The property without its wrappers: `anyOf: [X, {type: 'null'}]` -> X; a shared schema narrowed
 * where it is used (`allOf: [X]` and a non-null `type`: never null by the recorded evidence) -> X;
 * an open set of known values (`anyOf: [{type: string, enum}, {type: string}]`) -> its plain string.
 */
function unwrap(bundle: Json, raw: Json): Json {
  const node = deref(bundle, raw);
  if (Array.isArray(node.allOf) && node.allOf.length === 1 && node.type && ![node.type].flat().includes('null')) {
    return node.allOf[0];
  }
  if (Array.isArray(node.anyOf)) {
    const members = node.anyOf.filter((m: Json) => deref(bundle, m).type !== 'null');
    if (members.length === 1) return members[0];
    const strings = members.map((m: Json) => deref(bundle, m)).filter((m: Json) => m.type === 'string');
    if (strings.length === members.length) return strings.find((m: Json) => !m.enum) ?? raw;
  }
  return raw;
}

/** What a property is, in the vocabulary of SPEC_TYPES. */
function kindOf(bundle: Json, raw: Json): string {
  const inner = unwrap(bundle, raw);
  const name = refName(inner);
  const schema = deref(bundle, inner);
  const types = new Set([schema.type].flat().filter((t) => t !== undefined && t !== 'null'));
  const only = (t: string) => types.size === 1 && types.has(t);
  if (name === 'AnyValue' || types.size >= 5) return 'any';
  if (name && (schema.properties || schema.allOf) && (types.size === 0 || only('object'))) return name;
  if (only('integer')) {
    if (schema.format !== 'int32') return schema.minimum === undefined && schema.maximum === undefined ? 'int' : '?';
    if (schema.minimum === 0 && schema.maximum === 2147483647) return 'int32';
    if (schema.minimum === -2147483648 && schema.maximum === 2147483647) return 'sint32';
    return '?';
  }
  if (only('boolean')) return 'bool';
  if (only('number')) return 'num';
  if (only('array')) return 'arr';
  if (only('string')) {
    if (Array.isArray(schema.enum)) return 'enum';
    if (schema.format === 'date-time') return 'ts';
    if (schema.format === 'uri') return 'url';
    if (schema.format) return `?format ${schema.format}`;
    return name === 'DecimalString' ? 'dec' : 'str';
  }
  if (only('object')) {
    if (name && name !== 'FreeFormObject') return name;
    if (schema.additionalProperties === true && !schema.properties) return 'obj';
    return schema.properties ? 'object' : '?';
  }
  return `?${[...types].join('|')}`;
}

describe('types of spec §2', () => {
  it.each(Object.entries(SPEC_TYPES))('%s: every field, with its type', (name, spec) => {
    const bundle = bundleWith(name);
    expect(bundle, `schema ${name} is in no bundle`).toBeDefined();
    const properties = propertiesOf(bundle, bundle.components.schemas[name]);
    const have = Object.fromEntries(Object.entries(properties).map(([field, raw]) => [field, kindOf(bundle, raw)]));
    const want = Object.fromEntries(spec.split(', ').map((pair) => pair.split(' ')));
    expect(have).toEqual(want);
  });

  it('covers every object schema reachable from a response', () => {
    const uncovered = new Set<string>();
    for (const version of VERSIONS) {
      const schemas = loadBundle(version).components?.schemas ?? {};
      for (const [name, schema] of Object.entries<Json>(schemas)) {
        const isObject = schema.properties || schema.allOf;
        const isRequest = /Request$|Create$/.test(name);
        const isPage = /Page(V\d{8})?$/.test(name) && name !== 'Page';
        // A `<Name>Base` holds the fields its variants share; it is checked through them (below).
        const isBase = /Base$/.test(name);
        if (isObject && !isRequest && !isPage && !isBase && !(name in SPEC_TYPES)) uncovered.add(name);
      }
    }
    expect([...uncovered]).toEqual([]);
  });

  it('each <Name>Base is shared: at least two schemas of the table extend it with allOf', () => {
    const extenders = new Map<string, Set<string>>();
    for (const version of VERSIONS) {
      const schemas = loadBundle(version).components?.schemas ?? {};
      for (const [name, schema] of Object.entries<Json>(schemas)) {
        if (/Base$/.test(name)) extenders.set(name, extenders.get(name) ?? new Set());
        for (const member of schema.allOf ?? []) {
          const base = refName(member);
          if (base && /Base$/.test(base)) extenders.set(base, (extenders.get(base) ?? new Set()).add(name));
        }
      }
    }
    expect(extenders.size).toBeGreaterThan(0);
    for (const [base, names] of extenders) {
      expect(
        [...names].filter((name) => name in SPEC_TYPES).length,
        `${base} extended by ${[...names]}`,
      ).toBeGreaterThanOrEqual(2);
    }
  });
});
