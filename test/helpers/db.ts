// Test data that goes through the same code the app uses.
import { beforeEach } from "vitest";
import prisma from "../../app/db.server";
import { sessionStorage } from "../../app/shopify.server";
import { markUninstalled, recordShop } from "../../app/shops/shops.server";
import { offlineSession, OTHER_SHOP, SHOP } from "./shopify";

export { prisma };

/** A shop as it is after a real install: its row and its offline session. */
export async function installShop(shop = SHOP, timezone = "Europe/Istanbul") {
  await recordShop(shop, { name: shop.split(".")[0], currency: "TRY", timezone });
  await sessionStorage.storeSession(offlineSession(shop));
}

/**
 * Before each test: no shop's rows or sessions, then SHOP and OTHER_SHOP installed, so every test can check that one
 * shop never sees the other's data. Deleting the shops removes their rows (the schema cascades), not the recorded
 * webhook deliveries, which belong to no shop row.
 */
export function freshShopsForEachTest() {
  beforeEach(async () => {
    await prisma.shop.deleteMany();
    await prisma.privacyRequest.deleteMany();
    await prisma.session.deleteMany();
    await installShop(SHOP);
    await installShop(OTHER_SHOP);
  });
}

/** The shop as the app sees it `hours` after its app/uninstalled: sessions gone, uninstalledAt then. */
export async function uninstalledFor(shop: string, hours: number, now = Date.now()) {
  await markUninstalled(shop, new Date(now - hours * 3_600_000));
}

let orderSeq = 1000;

/** An invoice row with a customer, for tests of what the app stores. */
export async function createInvoiceRow(
  shop = SHOP,
  overrides: Partial<{ orderId: string; customerId: string; customerName: string }> = {},
) {
  orderSeq += 1;
  const orderId = overrides.orderId ?? String(5_000_000_000 + orderSeq);
  return prisma.invoice.create({
    data: {
      shopDomain: shop,
      orderId,
      orderName: `#${orderSeq}`,
      orderCreatedAt: new Date("2026-11-20T10:00:00Z"),
      customerId: overrides.customerId ?? "7001",
      customerName: overrides.customerName ?? "Ayşe Yılmaz",
      orderTotal: "120.00",
      currency: "TRY",
      orderSnapshot: { id: Number(orderId), email: "ayse@example.com", billing_address: { first_name: "Ayşe" } },
      events: { create: [{ type: "received", data: { email: "ayse@example.com" } }] },
    },
  });
}
