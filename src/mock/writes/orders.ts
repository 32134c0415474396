/** Adding lines to an order: bounded (../limits.ts), paid by one `sale` (./payments.ts). */
import { money, orderLine, productOf } from '../model/catalogue.ts';
import type { Rec } from '../model/index.ts';
import type { WriteDecl } from '../resources.ts';
import { clone, maxId, refuse } from './common.ts';
import { pay } from './payments.ts';

export const ORDER_WRITES: Record<string, WriteDecl> = {
  addOrderLineItems: {
    kind: 'write',
    collection: 'orders',
    param: 'number',
    effect:
      'Appends one line per line sent (product from the mock’s catalogue, ids 1-6; other ids priced 10.00), charges the added amount as a `sale` transaction (listed by the order and, for a subscription’s order, by the subscription’s transactions), recomputes the totals (VAT 19% included). Empty `lines` or a `quantity` below 1 → 422 naming the field; more lines than the limits → 422 naming the limit.',
    run: ({ state, record, body, now, limits }) => {
      const sent = body.lines as Rec[];
      if (sent.length === 0) return refuse('body.lines', 'minItems', 'add at least one line');
      if (sent.length > limits.maxLinesPerRequest) {
        return refuse(
          'body.lines',
          'maxLinesPerRequest',
          `at most ${limits.maxLinesPerRequest} lines per request (the mock's limit maxLinesPerRequest); ${sent.length} sent`,
        );
      }
      const bad = sent.findIndex((line) => !(Number(line.quantity) >= 1));
      if (bad !== -1)
        return refuse(`body.lines[${bad}].quantity`, 'minimum', `must be at least 1, got ${sent[bad]?.quantity}`);
      const lines = (record.lines ?? []) as Rec[];
      if (lines.length + sent.length > limits.maxLinesPerOrder) {
        return refuse(
          'body.lines',
          'maxLinesPerOrder',
          `order ${record.number} holds ${lines.length} lines; an order holds at most ${limits.maxLinesPerOrder} (the mock's limit maxLinesPerOrder)`,
        );
      }
      const template = clone(lines[0] ?? {});
      let id = maxId(lines) + 1;
      let added = 0;
      for (const line of sent) {
        const product = productOf(line.product_id);
        added += product.price * line.quantity;
        lines.push(orderLine(template, product, id++, line.quantity, now));
      }
      record.lines = lines;
      const charge = pay(state, record, { type: 'sale', amount: money(added), now });
      return {
        ok: true,
        body: record,
        changes: [
          ['orders', record],
          ['transactions', charge],
        ],
      };
    },
  },
};
