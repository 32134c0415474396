// Every field spec §2 lists for a resource is a property of its schema in the bundles, and no
// field is invented: the field lists below are copied from the spec, the oracle of this test.
import { describe, expect, it } from 'vitest';
import { deref, type Json, loadBundle, VERSIONS } from '../helpers/bundles.ts';

/** Resource schema -> its fields as spec §2 lists them. */
const SPEC_FIELDS: Record<string, string> = {
  Subscription:
    'attribution, billing_address, cancel_reason, cancel_reason_other_message, currency, date_created, frequency, id, interval, interval_count, is_test, lines, next_renewal_date, num_lines, num_orders, orders, payment_details, payment_method, shipping_address, shipping_code, shipping_price, status, total, user',
  SubscriptionLine:
    'id, metadata, price, product_id, product_image, product_title, product_url, quantity, sku, variant_id, variant_title',
  FulfillmentOrder:
    'assigned_location, created_at, fulfillment_holds, id, line_items, merchant_requests, order_number, request_status, shipping_address, shipping_method, status, supported_actions, updated_at',
  FulfillmentOrderLineItem:
    'currency, fulfillable_quantity, fulfillment_order_id, id, order_line_id, price_excl_tax, price_incl_tax, product_id, product_image, product_title, quantity, sku, stockrecord_id, tax_lines, total_discount',
  Ticket:
    'assignee, channel, comments, created_at, from_email, id, order, priority, products, requester, status, subject, tags, ticket_type, updated_at',
  OrderFulfillmentLineItem:
    'currency, fulfilled_quantity, fulfillment_service, id, is_gift_card, order_line_id, price_excl_tax, price_excl_tax_excl_discounts, price_incl_tax, price_incl_tax_excl_discounts, product_id, product_image, product_title, quantity, requires_shipping, returnable_quantity, returned_quantity, sku, tax_lines',
  OrderFulfillment:
    'created_at, delivery_status, id, last_event_date, line_items, location_id, order_number, origin_address, requires_shipping, shipping_method, status, tracking_carrier, tracking_carriers, tracking_code, tracking_codes, tracking_link, tracking_links',
  Order:
    'attribution, billing_address, created_at, currency, date_placed, display_taxes, fulfillment_status, fulfillments, is_test, lines, metadata, number, offer_discounts, order_status_url, original_shipping_excl_tax, original_shipping_incl_tax, original_total_discount, original_total_excl_tax, original_total_incl_tax, payment_status, refunds, report_values, shipping_address, shipping_code, shipping_excl_tax, shipping_incl_tax, shipping_method, shipping_tax, shipping_tax_lines, source, status, subscription_lifecycle, subscriptions, supports_post_purchase_upsells, tags, tax_lines, total_cost, total_discount, total_excl_tax, total_incl_tax, total_outstanding, total_tax, transactions, updated_at, user, voucher_discounts',
  OrderReportValues:
    'currency, original_shipping_excl_tax, original_shipping_incl_tax, original_total_discount, original_total_excl_tax, original_total_incl_tax, shipping_excl_tax, shipping_incl_tax, total_cost, total_discount, total_excl_tax, total_incl_tax',
  OrderLine:
    'created_at, currency, current_quantity, editable_quantity, fulfillable_quantity, id, is_gift_card, is_upsell, metadata, original_price_excl_tax, original_price_incl_tax, original_total_discount, price_excl_tax, price_incl_tax, product_id, product_image, product_title, product_url, quantity, report_values, requires_shipping, sku, tax_lines, total_cost, total_discount, unit_cost, updated_at, variant_id, variant_title',
  Refund:
    'adjustments, created_at, id, note, order_number, refund_line_items, report_values, total_refund_amount, total_return_excl_tax, total_return_incl_tax, transactions, user_id',
  TransactionCompact:
    'amount, auth_code, currency, date_created, external_id, id, is_disputed, is_external, is_initial_retry, is_test, network_transaction_id, parent_id, payment_details, payment_method, report_values, response_code, statement_descriptor, status, type',
  Transaction:
    'amount, amount_available_for_refund, attribution, auth_code, currency, date_created, external_id, id, initiator, is_disputed, is_external, is_test, network_transaction_id, order, parent_id, payment_details, payment_method, report_values, response_code, statement_descriptor, status, subscription, type, user',
  StockRecord:
    'date_created, date_updated, id, location, low_stock_threshold, net_stock_level, num_allocated, num_in_stock, product, sku',
  Store:
    'available_currencies, available_languages, contact_address, name, payments, primary_domain, tagline, tax_id, timezone',
  MetadataDefinition: 'created_at, enable_export, enable_filter, id, key, name, object, type, updated_at, validations',
  Page: 'content, id, meta_description, meta_title, metadata, slug, template, title',
  GiftCard: 'balance, code, created_at, currency, disabled_at, expired_at, id, initial, last_four, updated_at, user',
  SubscriptionV20230210:
    'attribution, billing_address, cancel_reason, cancel_reason_other_message, currency, date_created, frequency, id, interval, interval_count, is_test, lines, next_renewal_date, num_lines, num_orders, orders, payment_details, payment_method, shipping_address, shipping_code, shipping_price, status, total, user, is_tax_known',
  SubscriptionLineV20230210: 'id, metadata, price, quantity, product, stockrecord',
};

/** The schema of that name in any version (a schema is the same in every bundle that holds it). */
function schemaNamed(name: string): { bundle: Json; schema: Json } | undefined {
  for (const version of VERSIONS) {
    const bundle = loadBundle(version);
    const schema = bundle.components?.schemas?.[name];
    if (schema) return { bundle, schema };
  }
  return undefined;
}

/** Property names of a schema, `allOf` members included. */
function propertiesOf(bundle: Json, schema: Json): string[] {
  const resolved = deref(bundle, schema);
  return [
    ...Object.keys(resolved.properties ?? {}),
    ...(resolved.allOf ?? []).flatMap((member: Json) => propertiesOf(bundle, member)),
  ];
}

describe('fields of spec §2', () => {
  it.each(Object.entries(SPEC_FIELDS))('%s has exactly the listed fields', (name, fields) => {
    const found = schemaNamed(name);
    expect(found, `schema ${name} is in no bundle`).toBeDefined();
    const have = new Set(propertiesOf(found?.bundle, found?.schema));
    expect([...have].sort()).toEqual(fields.split(', ').sort());
  });
});
