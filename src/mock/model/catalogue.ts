/**
 * The mock's catalogue, shared by the seed functions and the writes: the enums the seed cycles
 * through, the products new lines are priced from (VAT 19% included), the locations and people.
 * An order's lines, payments and totals are ./order-arithmetic.ts.
 */
import type { DefaultSchemas } from '../../../generated/types/index.ts';
import type { Prng } from '../prng.ts';
import type { StoredLocation } from './records.ts';
import type { AnyRecord } from './types.ts';

export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'canceled', 'retrying', 'paused'] as const;
export const FULFILLMENT_STATUSES = [
  'not_required',
  'open',
  'processing',
  'on_hold',
  'incomplete',
  'closed',
  'canceled',
] as const;
export const REQUEST_STATUSES = [
  'pending',
  'requested',
  'accepted',
  'rejected',
  'cancel_requested',
  'cancel_accepted',
  'cancel_rejected',
  'closed',
] as const;
export const TICKET_STATUSES = ['new', 'open', 'pending', 'solved', 'closed'] as const;
export const TICKET_PRIORITIES = ['high', 'medium', 'low'] as const;
export const PAYMENT_METHODS = ['apple_pay', 'bankcard', 'google_pay', 'klarna', 'link', 'paypal', 'twint'];
export const CARD_TYPES = [
  'visa',
  'mastercard',
  'american_express',
  'diners_club',
  'discover',
  'jcb',
  'maestro',
  'dankort',
];
export const METADATA_OBJECTS = [
  'attribution',
  'customer',
  'dispute',
  'line',
  'order',
  'product',
  'variant',
  'blog',
  'page',
] as const;
const FIRST = ['Anna', 'Lukas', 'Marie', 'Jonas', 'Lena', 'Felix', 'Sofia', 'Paul', 'Emma', 'Noah'];
const LAST = ['Schmidt', 'Gruber', 'Dubois', 'Meyer', 'Weber', 'Fischer', 'Huber', 'Rossi', 'Novak', 'Berg'];
export const UTM_SOURCES = ['google', 'facebook', 'newsletter', null] as const;
export const SUBJECTS = ['Change of delivery address', 'Item arrived damaged', 'Where is my parcel?', 'Refund request'];
export const FIRST_ORDER_NUMBER = 1001;

const clone = <T>(value: T): T => structuredClone(value);
export const money = (value: number): string => value.toFixed(2);
/** The value at `index` of a non-empty list, going round (the seeds' every-value-in-turn). */
export function inTurn<T>(values: readonly [T, ...T[]], index: number): T {
  const found = values[index % values.length];
  // Always found (the index is in range); a null in the list is a value like any other.
  return found === undefined ? values[0] : found;
}

/** A catalogue category; `fits` says which product titles belong in it (an invariant checks it). */
export interface Category {
  id: number;
  name: string;
  slug: string;
  fits: RegExp;
}

export const CATEGORIES: Category[] = [
  { id: 11, name: 'Shirts', slug: 'shirts', fits: /shirt/i },
  { id: 14, name: 'Socks', slug: 'socks', fits: /socks/i },
  { id: 17, name: 'Scarves', slug: 'scarves', fits: /scarf/i },
  { id: 19, name: 'Trousers', slug: 'trousers', fits: /trousers/i },
  { id: 23, name: 'Bags', slug: 'bags', fits: /tote|bag/i },
  { id: 29, name: 'Linen', slug: 'linen', fits: /linen/i },
  { id: 31, name: 'Wool', slug: 'wool', fits: /wool|merino/i },
];

export interface Product {
  id: number;
  title: string;
  slug: string;
  sku: string;
  variant_id: number;
  variant_title: string;
  price: number;
  /** The categories that fit its title. */
  categories: Category[];
}

interface Named {
  id: number;
  title: string;
  sku: string;
  variant: string;
  price: number;
}

const productNamed = ({ id, title, sku, variant, price }: Named): Product => ({
  id,
  title,
  slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
  sku,
  variant_id: 100 + id,
  variant_title: variant,
  price,
  categories: CATEGORIES.filter((c) => c.fits.test(title)),
});

export const PRODUCTS: Product[] = (
  [
    ['Linen shirt', 'LIN-SHIRT', 'White / M', 49.9],
    ['Linen socks', 'LIN-SOCK', 'Natural / 42', 12.9],
    ['Merino wool socks, 2-pack', 'WOOL-SOCK-2P', 'Anthracite / 39-42', 22.5],
    ['Wool scarf', 'WOOL-SCARF', 'Grey', 39.0],
    ['Linen trousers', 'LIN-TROUSER', 'Sand / 32', 79.0],
    ['Canvas tote', 'CANVAS-TOTE', 'Natural', 19.5],
  ] as const
).map(([title, sku, variant, price], index) => productNamed({ id: index + 1, title, sku, variant, price }));

/** The product a line names (a subscription line or an example's line item), priced as the line is. */
export const productFrom = (line: AnyRecord): Product =>
  productNamed({
    id: Number(line.product_id),
    title: String(line.product_title ?? productOf(Number(line.product_id)).title),
    sku: String(line.sku ?? `SKU-${line.product_id}`),
    variant: String(line.variant_title ?? 'Default'),
    price: Number(line.price ?? line.price_incl_tax),
  });

/** A product of the catalogue; any other id is "Product N" at 10.00 (no category). */
export const productOf = (id: number): Product =>
  PRODUCTS.find((p) => p.id === id) ??
  productNamed({ id, title: `Product ${id}`, sku: `SKU-${id}`, variant: 'Default', price: 10 });

export const excl = (incl: number) => incl / 1.19;

/** Seconds since 2024-01-01 → ISO 8601 without milliseconds. */
export const at = (seconds: number) =>
  new Date(Date.UTC(2024, 0, 1) + seconds * 1000).toISOString().replace('.000Z', 'Z');
export const day = 86_400;

export function person(prng: Prng, template: DefaultSchemas['User'], id: number): DefaultSchemas['User'] {
  const first = prng.pick(FIRST);
  const last = prng.pick(LAST);
  return {
    ...clone(template),
    id,
    first_name: first,
    last_name: last,
    email: `${first}.${last}.${id}@example.com`.toLowerCase(),
    phone_number: `+49 151 ${String(prng.int(1000000, 9999999))}`,
  };
}

/** Location ids: those of the contract's examples (12 Hamburg, 14 Munich, 31 Leipzig) and 40. */
export const LOCATION_IDS = [12, 14, 31, 40];

export function location(template: AnyRecord, index: number): StoredLocation {
  const id = LOCATION_IDS[index] as number;
  const names = ['Hamburg warehouse', 'Munich store', 'ParcelPartner Leipzig', 'Vienna store'];
  const cities = ['Hamburg', 'München', 'Leipzig', 'Wien'];
  // A copy of the example's assigned location (the contract's examples satisfy their schema).
  const out = clone(template) as StoredLocation;
  out.id = id;
  out.name = names[index % names.length] as string;
  out.accept_return = index % 2 === 0;
  if (out.address) {
    out.address.line3 = cities[index % cities.length] as string;
    out.address.postcode = String(10000 + (index + 1) * 1111);
  }
  return out;
}

/** The day (`YYYY-MM-DD`) of a timestamp, for the date filters (undefined when not a string). */
export const dayOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value.slice(0, 10) : undefined;
