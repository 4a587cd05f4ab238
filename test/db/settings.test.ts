import { beforeEach, describe, expect, it } from "vitest";
import { apiKeyFor, connectionFor, getSettings, saveConnection } from "../../app/settings/settings.server";
import { decryptSecret, encryptSecret } from "../../app/settings/crypto.server";
import { installShop, prisma } from "../helpers/db";
import { OTHER_SHOP, SHOP } from "../helpers/shopify";

const KEY = "fe_live_9f8e7d6c5b4a39281706";

describe("shop settings", () => {
  beforeEach(async () => {
    await prisma.shop.deleteMany();
    await installShop(SHOP);
    await installShop(OTHER_SHOP);
  });

  it("stores the API key only encrypted, and gives it back to the worker", async () => {
    await saveConnection(SHOP, { apiKey: KEY, saleChannelId: 3, invoiceIntegrationId: 11, dummyIntegrationId: 12, testMode: false });
    const row = await prisma.shopSettings.findUniqueOrThrow({ where: { shopDomain: SHOP } });
    expect(row.apiKeyEncrypted).toMatch(/^v1:/);
    expect(row.apiKeyEncrypted).not.toContain(KEY);
    expect(JSON.stringify(row)).not.toContain(KEY);
    expect(await apiKeyFor(SHOP)).toBe(KEY);
    const connection = await connectionFor(SHOP);
    expect(connection).toMatchObject({ ok: true, connection: { baseUrl: "https://app.faturaentegrator.com/api", apiKey: KEY, saleChannelId: 3, invoiceIntegrationId: 11, testMode: false } });
  });

  it("never puts the key in the settings view for the browser", async () => {
    await saveConnection(SHOP, { apiKey: KEY, saleChannelId: 3, invoiceIntegrationId: 11 });
    const view = await getSettings(SHOP);
    expect(view.hasApiKey).toBe(true);
    expect(JSON.stringify(view)).not.toContain(KEY);
    expect(JSON.stringify(view)).not.toContain("v1:");
  });

  it("keeps the stored key when the form sends none (the field is write-only)", async () => {
    await saveConnection(SHOP, { apiKey: KEY, saleChannelId: 3, invoiceIntegrationId: 11 });
    await saveConnection(SHOP, { saleChannelId: 4, invoiceIntegrationId: 11 });
    expect(await apiKeyFor(SHOP)).toBe(KEY);
    expect((await getSettings(SHOP)).saleChannelId).toBe(4);
  });

  it("test mode posts with the dummy integration; going live swaps that one id", async () => {
    await saveConnection(SHOP, { apiKey: KEY, saleChannelId: 3, invoiceIntegrationId: 11, dummyIntegrationId: 12, testMode: true });
    expect(await connectionFor(SHOP)).toMatchObject({ ok: true, connection: { invoiceIntegrationId: 12, testMode: true } });
    await saveConnection(SHOP, { saleChannelId: 3, invoiceIntegrationId: 11, dummyIntegrationId: 12, testMode: false });
    expect(await connectionFor(SHOP)).toMatchObject({ ok: true, connection: { invoiceIntegrationId: 11, testMode: false } });
  });

  it("says what is missing for a connection", async () => {
    expect(await connectionFor(SHOP)).toEqual({ ok: false, missing: ["api_key", "sale_channel", "dummy_integration"] });
    await saveConnection(SHOP, { apiKey: KEY, testMode: false });
    expect(await connectionFor(SHOP)).toEqual({ ok: false, missing: ["sale_channel", "invoice_integration"] });
  });

  it("a ciphertext copied into another shop's row does not decrypt", async () => {
    const stored = encryptSecret(KEY, SHOP);
    expect(decryptSecret(stored, SHOP)).toBe(KEY);
    expect(() => decryptSecret(stored, OTHER_SHOP)).toThrow();
  });

  it("rejects a malformed base URL without saving anything", async () => {
    await expect(saveConnection(SHOP, { apiKey: KEY, baseUrl: "not a url" })).rejects.toThrow();
    expect(await prisma.shopSettings.count({ where: { shopDomain: SHOP } })).toBe(0);
  });
});
