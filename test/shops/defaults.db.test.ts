// Defaults read from Shopify at authentication (afterAuth): currency, time zone and whether prices include tax,
// so a new shop's first invoice is right without a visit to Settings, and a merchant's own choice survives.
import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { fetchShopProfile, onAuthenticated } from "../../app/shops/shops.server";
import { getSettings, saveSettings } from "../../app/settings/settings.server";
import { saveSettingsForm } from "../../app/settings/page.server";
import { formFromSettings } from "../../app/settings/schema";
import { mapOrderToInvoice } from "../../app/orders/map-order";
import { parseShopifyOrder } from "../../app/orders/order";
import { fixtureContext, fixtureOrder } from "../orders/fixture-loader";
import { prisma } from "../helpers/db";
import { SHOP } from "../helpers/shopify";

/** A stand-in for admin.graphql that answers the shop query and records what was asked. */
function admin(shop: Record<string, unknown>) {
  const queries: string[] = [];
  return {
    queries,
    graphql: async (query: string) => {
      queries.push(query);
      return new Response(JSON.stringify({ data: { shop } }), { headers: { "Content-Type": "application/json" } });
    },
  };
}

const profile = (taxesIncluded: unknown) => ({
  name: "Moda Kitabevi",
  email: "owner@example.com",
  currencyCode: "TRY",
  ianaTimezone: "Europe/Istanbul",
  taxesIncluded,
  primaryDomain: { url: "https://modakitabevi.com" },
});

async function authenticate(taxesIncluded: unknown) {
  const api = admin(profile(taxesIncluded));
  await onAuthenticated({ session: { shop: SHOP }, admin: api });
  return api;
}

describe("install defaults from the Admin API", () => {
  beforeEach(async () => {
    await prisma.shop.deleteMany();
  });

  it("asks for the shop's currency, time zone and tax setting (Shop.currencyCode, ianaTimezone, taxesIncluded)", async () => {
    const api = admin(profile(false));
    expect(await fetchShopProfile(api.graphql)).toEqual({
      name: "Moda Kitabevi",
      email: "owner@example.com",
      currency: "TRY",
      timezone: "Europe/Istanbul",
      storefrontUrl: "https://modakitabevi.com",
      taxesIncluded: false,
    });
    expect(api.queries[0]).toMatch(/shop\s*{[^}]*\bcurrencyCode\b[^}]*\bianaTimezone\b[^}]*\btaxesIncluded\b/);
    expect((await fetchShopProfile(admin(profile("yes")).graphql)).taxesIncluded).toBeNull();
  });

  it("a new shop whose prices exclude tax: the first invoice adds VAT on top without a visit to Settings", async () => {
    await authenticate(false);
    const shop = await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
    expect(shop).toMatchObject({
      currency: "TRY",
      timezone: "Europe/Istanbul",
      taxesIncluded: false,
      storefrontUrl: "https://modakitabevi.com",
    });
    const settings = await getSettings(SHOP);
    expect(settings.mapping.pricesIncludeVat).toBe(false);
    // Every other mapping setting keeps its default.
    expect({ ...settings.mapping, pricesIncludeVat: true }).toEqual((await getSettingsOfNewShop()).mapping);

    // The order without tax lines of a shop whose prices exclude VAT: invoiced exactly as its reviewed
    // fixture (VAT added on top), with nothing but what afterAuth stored.
    const name = "28-no-tax-lines-prices-exclude-vat";
    const parsed = parseShopifyOrder(fixtureOrder(name));
    if (!parsed.ok) throw new Error("fixture");
    const fixture = fixtureContext(name);
    const withStored = mapOrderToInvoice(parsed.order, {
      ...fixture,
      settings: { ...fixture.settings, pricesIncludeVat: settings.mapping.pricesIncludeVat },
    });
    expect(JSON.parse(JSON.stringify(withStored))).toEqual(
      JSON.parse(readFileSync(`test/fixtures/orders/expected/${name}.json`, "utf8")),
    );
    expect(withStored.ok && withStored.warnings.map((w) => w.code)).toContain("order.vat_added_to_prices");
    const withCodeDefault = mapOrderToInvoice(parsed.order, {
      ...fixture,
      settings: { ...fixture.settings, pricesIncludeVat: true },
    });
    expect(withCodeDefault.ok && withCodeDefault.totals.grand_total).not.toBe(
      withStored.ok && withStored.totals.grand_total,
    );
  });

  it("follows Shopify's setting while the merchant has not chosen, and keeps the merchant's choice afterwards", async () => {
    await authenticate(true);
    expect((await getSettings(SHOP)).mapping.pricesIncludeVat).toBe(true);
    // The merchant changes the tax setting in Shopify; the next authentication follows it.
    await authenticate(false);
    expect((await getSettings(SHOP)).mapping.pricesIncludeVat).toBe(false);

    // The merchant turns "prices include VAT" back on in the app's Settings: that is their choice now.
    const form = formFromSettings(await getSettings(SHOP));
    expect(await saveSettingsForm(SHOP, { ...form, pricesIncludeVat: true })).toMatchObject({ ok: true });
    await authenticate(false);
    await authenticate(false);
    expect((await getSettings(SHOP)).mapping.pricesIncludeVat).toBe(true);
  });

  it("keeps the other settings a merchant saved when the default is applied", async () => {
    await authenticate(true);
    const settings = await getSettings(SHOP);
    await saveSettings(
      SHOP,
      { testMode: true },
      { ...settings.mapping, exemptionCode: "301", exemptionReason: "11/1-a Mal İhracatı" },
    );
    await authenticate(false);
    const after = await getSettings(SHOP);
    expect(after.mapping).toMatchObject({
      pricesIncludeVat: false,
      exemptionCode: "301",
      exemptionReason: "11/1-a Mal İhracatı",
    });
  });

  it("a shop recorded before the tax setting was read keeps its stored value", async () => {
    await prisma.shop.create({ data: { domain: SHOP } });
    await saveSettings(SHOP, { testMode: true }, { pricesIncludeVat: true });
    await authenticate(false);
    expect((await getSettings(SHOP)).mapping.pricesIncludeVat).toBe(true);
    expect((await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).taxesIncluded).toBe(false);
  });
});

async function getSettingsOfNewShop() {
  await prisma.shop.upsert({
    where: { domain: "fresh.myshopify.com" },
    create: { domain: "fresh.myshopify.com" },
    update: {},
  });
  return getSettings("fresh.myshopify.com");
}
