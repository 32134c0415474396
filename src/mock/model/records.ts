/**
 * The record each collection of the store holds, by collection name: what a {@link StoreRecords}
 * read of a known collection gives (./types.ts `RecordReader`), and the record type a collection's
 * declaration (./<collection>.ts) is checked against (`DeclaredCollection<'orders'>`). They live in
 * this one file, importing nothing of the model, because the declarations read other collections
 * through the typed reader: a map made from the declarations themselves would tie every
 * declaration to the whole model (an import cycle, type-only imports counted).
 */
import type { DefaultSchemas } from '../../../generated/types/index.ts';

/** A location as the store holds it (internal: shown as a fulfillment order's `assigned_location`). */
export type StoredLocation = DefaultSchemas['StockLocation'];
/**
 * A subscription as the store holds it: the newest version's, with the field 2023-02-10 adds
 * (`is_tax_known`, which ./subscriptions.ts's `view` fills in).
 */
export type StoredSubscription = DefaultSchemas['Subscription'] &
  Partial<Pick<DefaultSchemas['SubscriptionV20230210'], 'is_tax_known'>>;
/** An order as the store holds it (its `fulfillments` are a view: ./orders.ts). */
export type StoredOrder = DefaultSchemas['Order'];
/** An order's fulfillment (2023-02-10's `OrderFulfillment`). */
export type StoredFulfillment = DefaultSchemas['OrderFulfillment'];
/** A stock record as the store holds it. */
export type StoredStockRecord = DefaultSchemas['StockRecord'];
/** A transaction as the store holds it (the same in each version showing one); also made by ../writes/payments.ts. */
export type StoredTransaction = DefaultSchemas['Transaction'];
/** A fulfillment order as the store holds it. */
export type StoredFulfillmentOrder = DefaultSchemas['FulfillmentOrder'];
/** A ticket as the store holds it: the same in every version that shows one. */
export type StoredTicket = DefaultSchemas['Ticket'];
/** A gift card as the store holds it (shown by one version). */
export type StoredGiftCard = DefaultSchemas['GiftCard'];
/** A metadata definition as the store holds it. */
export type StoredMetadataDefinition = DefaultSchemas['MetadataDefinition'];
/** A page as the store holds it. */
export type StoredPage = DefaultSchemas['Page'];
/** The store's settings (a singleton). */
export type StoredStore = DefaultSchemas['Store'];

/** Collection name → the record it holds (./index.ts checks that the model declares each once). */
export interface StoreRecords {
  locations: StoredLocation;
  subscriptions: StoredSubscription;
  orders: StoredOrder;
  fulfillments: StoredFulfillment;
  stockrecords: StoredStockRecord;
  transactions: StoredTransaction;
  fulfillmentOrders: StoredFulfillmentOrder;
  tickets: StoredTicket;
  giftCards: StoredGiftCard;
  metadata: StoredMetadataDefinition;
  pages: StoredPage;
  store: StoredStore;
}

/** The name of a collection of the store. */
export type CollectionName = keyof StoreRecords;
