// Privacy deliveries sent again (issue 35, point 1). Shopify's signature covers the body only, and the body of
// app/uninstalled, shop/redact and customers/redact is the same for every delivery of them: a captured delivery sent
// again with a new X-Shopify-Event-Id passes the signature and the once-only check. Each must still act only on what
// it was meant for, and answer 200 (Shopify would otherwise retry a refusal for hours). Shopify itself (the stand-in)
// says whether the app is installed: it revokes the app's tokens when the merchant uninstalls it.
import { randomUUID } from "node:crypto";
import { API_KEY, API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startStandin, type Standin } from "../../shopify-standin/server";
import { signedWebhookRequest } from "../helpers/shopify";
import { callRoute } from "../helpers/routes";

const SHOP = "replay-shop.myshopify.com";
let standin: Standin;
let app: {
  prisma: typeof import("../../app/db.server").default;
  routes: Record<"uninstalled" | "shopRedact" | "customersRedact", (args: never) => unknown>;
  installShopLocally: typeof import("../../app/shops/local-install.server").installShopLocally;
  recordShop: typeof import("../../app/shops/shops.server").recordShop;
  redactDueShops: typeof import("../../app/privacy/compliance.server").redactDueShops;
  markUninstalled: typeof import("../../app/shops/shops.server").markUninstalled;
};

beforeAll(async () => {
  standin = await startStandin({ shop: SHOP, clientId: API_KEY, clientSecret: API_SECRET_KEY });
  process.env.SHOPIFY_ADMIN_API_URL = standin.url; // before the app's configuration is first read
  app = {
    prisma: (await import("../../app/db.server")).default,
    routes: {
      uninstalled: (await import("../../app/routes/webhooks.app.uninstalled")).action as never,
      shopRedact: (await import("../../app/routes/webhooks.shop.redact")).action as never,
      customersRedact: (await import("../../app/routes/webhooks.customers.redact")).action as never,
    },
    installShopLocally: (await import("../../app/shops/local-install.server")).installShopLocally,
    recordShop: (await import("../../app/shops/shops.server")).recordShop,
    markUninstalled: (await import("../../app/shops/shops.server")).markUninstalled,
    redactDueShops: (await import("../../app/privacy/compliance.server")).redactDueShops,
  };
});
afterAll(() => standin?.stop());

/** The shop installed, holding the stand-in's token, with its settings and one issued invoice. */
beforeEach(async () => {
  standin.tokens.reset();
  await app.prisma.shop.deleteMany();
  await app.prisma.session.deleteMany();
  await app.prisma.privacyRequest.deleteMany();
  await app.installShopLocally({
    shop: SHOP,
    apiKey: "fe_test_key",
    baseUrl: "http://127.0.0.1:9/api",
    saleChannelId: 1,
    invoiceIntegrationId: 2,
    accessToken: standin.accessToken,
  });
});

/** One delivery, each time with a new event and webhook id (what a replay changes; the signature still holds). */
const deliver = async (route: keyof typeof app.routes, topic: string, body: unknown) => {
  const response = await callRoute(
    app.routes[route] as never,
    signedWebhookRequest({ topic, shop: SHOP, body, eventId: randomUUID(), webhookId: randomUUID() }),
  );
  return { status: response.status, body: (await response.json()) as { result?: string } };
};

const shopBody = { id: 77, domain: SHOP, myshopify_domain: SHOP, name: "Replay" };
const redactBody = { shop_id: 77, shop_domain: SHOP };
const rows = async () => ({
  shop: await app.prisma.shop.findUnique({ where: { domain: SHOP } }),
  sessions: await app.prisma.session.count({ where: { shop: SHOP } }),
  settings: await app.prisma.shopSettings.count({ where: { shopDomain: SHOP } }),
});

describe("privacy deliveries sent again with a new event id", () => {
  it("shop/redact of an installed shop erases nothing, however often it comes", async () => {
    for (let i = 0; i < 3; i++)
      expect(await deliver("shopRedact", "shop/redact", redactBody)).toEqual({
        status: 200,
        body: expect.objectContaining({ result: "refused_installed" }),
      });
    const after = await rows();
    expect(after.shop?.uninstalledAt).toBeNull();
    expect(after.shop?.redactRequestedAt).toBeNull();
    expect(after.sessions).toBe(1);
    expect(after.settings).toBe(1);
  });

  it("app/uninstalled of an installed shop does not log it out; once Shopify has revoked the app, it does", async () => {
    expect((await deliver("uninstalled", "app/uninstalled", shopBody)).body.result).toBe("refused_installed");
    expect(await rows()).toMatchObject({ sessions: 1, shop: { uninstalledAt: null } });
    // The merchant uninstalls: Shopify revokes the app's tokens, then delivers app/uninstalled.
    await fetch(`${standin.url}/__standin/tokens`, { method: "POST", body: JSON.stringify({ revoke: true }) });
    expect((await deliver("uninstalled", "app/uninstalled", shopBody)).body.result).toBe("uninstalled");
    const after = await rows();
    expect(after.sessions).toBe(0);
    expect(after.shop?.uninstalledAt).toBeInstanceOf(Date);
  });

  it("shop/redact erases a shop only after 48 hours uninstalled, and not if it came back meanwhile", async () => {
    await app.markUninstalled(SHOP, new Date(Date.now() - 3_600_000));
    expect((await deliver("shopRedact", "shop/redact", redactBody)).body.result).toBe("scheduled");
    expect((await rows()).shop).not.toBeNull();
    // 47 hours later: still there; 48 hours after the uninstall: erased.
    expect(await app.redactDueShops(new Date(Date.now() + 46 * 3_600_000))).toEqual([]);
    expect(await app.redactDueShops(new Date(Date.now() + 47 * 3_600_000 + 60_000))).toEqual([SHOP]);
    expect(await rows()).toEqual({ shop: null, sessions: 0, settings: 0 });
  });

  it("a shop that reinstalled before its 48 hours were up keeps everything", async () => {
    await app.markUninstalled(SHOP, new Date(Date.now() - 3_600_000));
    await deliver("shopRedact", "shop/redact", redactBody);
    await app.recordShop(SHOP, {}); // the merchant is back (afterAuth)
    expect(await app.redactDueShops(new Date(Date.now() + 72 * 3_600_000))).toEqual([]);
    expect((await rows()).shop?.redactRequestedAt).toBeNull();
  });

  it("customers/redact sent again reaches only the invoices that existed when it first came", async () => {
    const invoice = (orderId: string, createdAt: Date) =>
      app.prisma.invoice.create({
        data: {
          shopDomain: SHOP,
          orderId,
          orderName: `#${orderId}`,
          orderCreatedAt: createdAt,
          createdAt,
          customerId: "7001",
          customerName: "Ayşe Yılmaz",
          orderTotal: "10.00",
          currency: "TRY",
          orderSnapshot: { email: "ayse@example.com" },
        },
      });
    const old = await invoice("1001", new Date(Date.now() - 86_400_000));
    const body = { shop_id: 77, shop_domain: SHOP, customer: { id: 7001 }, orders_to_redact: [] };
    expect((await deliver("customersRedact", "customers/redact", body)).status).toBe(200);
    expect((await app.prisma.invoice.findUniqueOrThrow({ where: { id: old.id } })).customerName).toBe("[redacted]");
    // The customer comes back and buys again; the captured request is sent again.
    const later = await invoice("1002", new Date(Date.now() + 1000));
    expect((await deliver("customersRedact", "customers/redact", body)).status).toBe(200);
    expect((await app.prisma.invoice.findUniqueOrThrow({ where: { id: later.id } })).customerName).toBe("Ayşe Yılmaz");
    // An order it names is reached whenever its invoice was made.
    const named = await invoice("1003", new Date(Date.now() + 2000));
    await deliver("customersRedact", "customers/redact", { ...body, orders_to_redact: [1003] });
    expect((await app.prisma.invoice.findUniqueOrThrow({ where: { id: named.id } })).customerName).toBe("[redacted]");
  });
});
