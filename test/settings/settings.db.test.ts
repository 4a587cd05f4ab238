import { describe, expect, it } from "vitest";
import { apiKeyFor, connectionFor, getSettings, saveConnection } from "../../app/settings/settings.server";
import { decryptSecret, encryptSecret } from "../../app/secrets/crypto.server";
import { saveSettingsForm } from "../../app/settings/page.server";
import { formFromSettings } from "../../app/settings/schema";
import { freshShopsForEachTest, prisma } from "../helpers/db";
import { OTHER_SHOP, SHOP } from "../helpers/shopify";

const KEY = "fe_live_9f8e7d6c5b4a39281706";

describe("shop settings", () => {
  freshShopsForEachTest();

  it("stores the API key only encrypted, and gives it back to the worker", async () => {
    await saveConnection(SHOP, {
      apiKey: KEY,
      saleChannelId: 3,
      invoiceIntegrationId: 11,
      dummyIntegrationId: 12,
      testMode: false,
    });
    const row = await prisma.shopSettings.findUniqueOrThrow({ where: { shopDomain: SHOP } });
    expect(row.apiKeyEncrypted).toMatch(/^v2:[0-9a-f]{8}:/);
    expect(row.apiKeyEncrypted).not.toContain(KEY);
    expect(JSON.stringify(row)).not.toContain(KEY);
    expect(await apiKeyFor(SHOP)).toBe(KEY);
    const connection = await connectionFor(SHOP);
    expect(connection).toMatchObject({
      ok: true,
      connection: {
        baseUrl: "https://app.faturaentegrator.com/api",
        apiKey: KEY,
        saleChannelId: 3,
        invoiceIntegrationId: 11,
        testMode: false,
      },
    });
  });

  it("never puts the key in the settings view for the browser", async () => {
    await saveConnection(SHOP, { apiKey: KEY, saleChannelId: 3, invoiceIntegrationId: 11 });
    const view = await getSettings(SHOP);
    expect(view.hasApiKey).toBe(true);
    expect(JSON.stringify(view)).not.toContain(KEY);
    expect(JSON.stringify(view)).not.toContain("v2:");
  });

  it("keeps the stored key when the form sends none (the field is write-only)", async () => {
    await saveConnection(SHOP, { apiKey: KEY, saleChannelId: 3, invoiceIntegrationId: 11 });
    await saveConnection(SHOP, { saleChannelId: 4, invoiceIntegrationId: 11 });
    expect(await apiKeyFor(SHOP)).toBe(KEY);
    expect((await getSettings(SHOP)).saleChannelId).toBe(4);
  });

  it("test mode posts with the dummy integration; going live swaps that one id", async () => {
    await saveConnection(SHOP, {
      apiKey: KEY,
      saleChannelId: 3,
      invoiceIntegrationId: 11,
      dummyIntegrationId: 12,
      testMode: true,
    });
    expect(await connectionFor(SHOP)).toMatchObject({
      ok: true,
      connection: { invoiceIntegrationId: 12, testMode: true },
    });
    await saveConnection(SHOP, { saleChannelId: 3, invoiceIntegrationId: 11, dummyIntegrationId: 12, testMode: false });
    expect(await connectionFor(SHOP)).toMatchObject({
      ok: true,
      connection: { invoiceIntegrationId: 11, testMode: false },
    });
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

  it("reads a row stored by an older version: every valid field kept, new fields defaulted, one bad field alone falls back", async () => {
    // The mapping as the first version stored it: no export exemption, no company-title names, a free-text
    // invoice type (later limited to the service's value set), and a key no version reads any more.
    const oldMapping = {
      unit: "KGM",
      defaultTaxRate: "18",
      pricesIncludeVat: false,
      exemptionCode: "301",
      exemptionReason: "11/1-a Mal İhracatı",
      taxNumberAttributes: ["Vergi No"],
      citizenNumberAttributes: ["TCKN"],
      taxOfficeAttributes: ["Vergi Dairesi"],
      useBillingCompany: false,
      foreignBuyerTaxNumber: "2222222222",
      paymentMethodMap: [{ match: "iyzico", method: "payment_agent" }],
      carriers: { "Aras Kargo": { title: "Aras Kargo Yurtiçi Yurtdışı Taşımacılık A.Ş.", taxNumber: "0720039666" } },
      defaultAddress: { address: "Moda Caddesi No: 12", district: "Kadıköy", city: "İstanbul", country: "Türkiye" },
      invoiceCurrency: "presentment",
      invoiceType: "satış",
      roundingMode: "half-up",
    };
    // A local address that answers nothing: saving below registers no webhook anywhere real.
    await prisma.shopSettings.create({
      data: {
        shopDomain: SHOP,
        baseUrl: "http://127.0.0.1:9/api",
        apiKeyEncrypted: encryptSecret(KEY, SHOP),
        saleChannelId: 3,
        dummyIntegrationId: 12,
        mapping: oldMapping,
      },
    });
    const { roundingMode: _gone, invoiceType: _bad, ...kept } = oldMapping;
    const expected = {
      ...kept,
      invoiceType: "SATIS",
      exportExemptionCode: "301",
      exportExemptionReason: "11/1-a Mal İhracatı",
      companyTitleAttributes: ["Şirket Unvanı", "Firma Unvanı", "Fatura Unvanı"],
      companyTaxOfficeMetafield: "custom.tax_office",
    };
    const view = await getSettings(SHOP);
    expect(view.mapping).toEqual(expected);
    // The worker reads it the same way.
    expect(await connectionFor(SHOP)).toMatchObject({ ok: true, connection: { mapping: expected } });
    // Saving the page unchanged keeps all of it, the fields the page does not show included.
    expect(await saveSettingsForm(SHOP, formFromSettings(view))).toMatchObject({ ok: true });
    expect((await getSettings(SHOP)).mapping).toEqual(expected);
  });

  it("rejects a malformed base URL without saving anything", async () => {
    await expect(saveConnection(SHOP, { apiKey: KEY, baseUrl: "not a url" })).rejects.toThrow();
    expect(await prisma.shopSettings.count({ where: { shopDomain: SHOP } })).toBe(0);
  });
});
