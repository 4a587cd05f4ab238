// npm run reconcile -- --shop NAME.myshopify.com [--since 2026-11-20T00:00:00Z]
// One reconciliation pass for one installed shop, now: reads through the Admin API the paid orders updated since
// the last pass (or since --since) and records those no webhook brought, exactly as the worker's scheduled pass
// does. Prints the result as one JSON line. Exit 0: done; 1: failed or another pass is running; 2: bad usage.
// Uses DATABASE_URL, ENCRYPTION_KEY and the Shopify settings of the app's environment (SHOPIFY_ADMIN_API_URL
// points it at the local stand-in).
import { parseArgs } from "node:util";
import { isShopDomain } from "../app/shopify/shop-domain";

const usage = "Usage: npm run reconcile -- --shop NAME.myshopify.com [--since ISO-DATE-TIME]";
let values: { shop?: string; since?: string };
try {
  ({ values } = parseArgs({ options: { shop: { type: "string" }, since: { type: "string" } }, strict: true }));
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (!values.shop || !isShopDomain(values.shop)) {
  console.error(`--shop NAME.myshopify.com is required.\n${usage}`);
  process.exit(2);
}
const since = values.since ? new Date(values.since) : undefined;
if (since && Number.isNaN(since.getTime())) {
  console.error(`--since must be an ISO date-time, got ${JSON.stringify(values.since)}.\n${usage}`);
  process.exit(2);
}

const { reconcileShop } = await import("../app/reconciliation/reconcile.server");
const { shopifyOrders } = await import("../app/shopify/order-readers.server");
const { default: prisma } = await import("../app/db.server");
const result = await reconcileShop(values.shop, { reader: shopifyOrders, owner: `cli-${process.pid}`, since });
console.log(JSON.stringify({ shop: values.shop, ...result }));
await prisma.$disconnect();
process.exit(result.status === "done" ? 0 : 1);
