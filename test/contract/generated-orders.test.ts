// Generated orders of many shapes (test/helpers/generated-orders.ts), mapped and posted through the app's client to
// the sandbox over HTTP: every body is accepted as sent (amounts as JSON numbers, read back by the sandbox's JSON
// parser), and the grand total the service computes is the one the mapping predicted, within 0.01 of what was paid.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dec } from "../../app/invoicing-service/money";
import { computeTotals } from "../../app/invoicing-service/totals";
import { mapOrderToInvoice } from "../../app/orders/map-order";
import { parseShopifyOrder } from "../../app/orders/order";
import { withSandbox } from "../helpers/sandbox";
import { contextFor, orderArb, shopifyOrder } from "../helpers/generated-orders";
import { clientFor, nextOrderId } from "./helpers";

const sandbox = withSandbox({ formalizeDelayMs: 60_000 });

describe("generated orders against the sandbox", () => {
  it("are accepted as sent, and the service's grand total is the predicted one", async () => {
    const client = clientFor(sandbox);
    const ids = {
      saleChannelId: sandbox.account.saleChannelId,
      invoiceIntegrationId: sandbox.account.dummyIntegrationId,
    };
    const samples = fc.sample(orderArb, { numRuns: 60, seed: 20261124 });
    let posted = 0;
    for (const [i, g] of samples.entries()) {
      const { payload, paid } = shopifyOrder(g, i);
      const parsed = parseShopifyOrder(payload);
      if (!parsed.ok) throw new Error("payload refused");
      const context = { ...contextFor(g.invoiceIn, ids), now: new Date() };
      const result = mapOrderToInvoice(parsed.order, context);
      if (!result.ok) continue; // refusals and their reasons are the property test's business
      const record = await client.createInvoice({ ...result.body, order_id: nextOrderId() });
      expect(record.grand_total).toBe(computeTotals(result.body.lines).grand_total);
      expect(dec(record.grand_total!).sub(paid).abs().lte("0.01")).toBe(true);
      posted++;
    }
    expect(posted).toBeGreaterThan(30);
  }, 60_000);
});
