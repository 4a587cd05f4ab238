import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { action as settingsAction, loader as settingsLoader } from "../../app/routes/app.settings";
import { apiKeyFor, getSettings, saveConnection } from "../../app/settings/settings.server";
import { formFromSettings, type SettingsForm } from "../../app/settings/schema";
import { callRoute } from "../helpers/routes";
import { adminDocumentRequest, adminFetchRequest, OTHER_SHOP, SHOP } from "../helpers/shopify";
import { TEST_APP_URL as APP_URL } from "../setup-env";
import { freshShopsForEachTest, prisma } from "../helpers/db";

// A stand-in for the invoicing service's account endpoints: one key works, every other gets 401.
const GOOD_KEY = "good-key-0123456789";
let server: Server;
let baseUrl: string;
const seenKeys: string[] = [];
/** Every call with a working key: "METHOD /path". */
const calls: string[] = [];
/** webhook_url values the account webhook was saved with. */
const webhooks: string[] = [];
let webhookStatus = 200;

beforeAll(async () => {
  server = createServer((request, response) => {
    const key = (request.headers.authorization ?? "").replace(/^Bearer /, "");
    seenKeys.push(key);
    response.setHeader("Content-Type", "application/json");
    if (key !== GOOD_KEY) {
      response.statusCode = 401;
      response.end(JSON.stringify({ message: "Unauthenticated." }));
      return;
    }
    calls.push(`${request.method} ${request.url}`);
    if (request.method === "POST" && request.url === "/api/check/auth")
      return response.end(JSON.stringify({ success: true }));
    if (request.method === "POST" && request.url === "/api/helpers/settings-webhook") {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        response.statusCode = webhookStatus;
        if (webhookStatus === 200)
          webhooks.push((JSON.parse(Buffer.concat(chunks).toString("utf8")) as { webhook_url: string }).webhook_url);
        response.end(webhookStatus === 200 ? "" : JSON.stringify({ message: "Server Error" }));
      });
      return;
    }
    if (request.url === "/api/integrations/invoice") {
      // The service's test flag (sandbox/README.md): 12 is the dummy account; 13 says nothing either way.
      return response.end(
        JSON.stringify({
          data: [
            { id: 11, name: "Canlı hesap", is_test: false },
            { id: 12, title: "Test (dummy)", is_test: true },
            { id: 13, name: "Eski hesap" },
          ],
        }),
      );
    }
    if (request.url === "/api/integrations/sale-channel")
      return response.end(JSON.stringify({ data: [{ id: 5, name: "Shopify mağazası" }] }));
    response.statusCode = 404;
    response.end(JSON.stringify({ message: "Not found" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function formOf(shop = SHOP): Promise<SettingsForm> {
  return formFromSettings(await getSettings(shop));
}

async function save(form: Partial<SettingsForm>, shop = SHOP) {
  const request = await adminFetchRequest("/app/settings", shop, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(form),
  });
  const response = await callRoute(settingsAction, request);
  return {
    status: response.status,
    body: (await response.json()) as {
      ok: boolean;
      errors?: Record<string, string>;
      keyChecked?: boolean;
      webhook?: unknown;
    },
  };
}

describe("settings page", () => {
  freshShopsForEachTest();
  beforeEach(async () => {
    seenKeys.length = 0;
    calls.length = 0;
    webhooks.length = 0;
    webhookStatus = 200;
  });

  it("never sends the stored API key (or its ciphertext) to the browser", async () => {
    await saveConnection(SHOP, { baseUrl, apiKey: GOOD_KEY, saleChannelId: 5 });
    const response = await callRoute(settingsLoader, await adminDocumentRequest("/app/settings"));
    expect(response.status).toBe(200);
    const text = await response.text();
    const stored = await prisma.shopSettings.findUniqueOrThrow({ where: { shopDomain: SHOP } });
    expect(text).not.toContain(GOOD_KEY);
    expect(text).not.toContain(stored.apiKeyEncrypted!);
    const data = JSON.parse(text);
    expect(data.hasApiKey).toBe(true);
    expect(data.form.apiKey).toBe("");
    // The lists come from the service, read with the stored key.
    expect(data.lists).toEqual({
      integrations: [
        { id: 11, name: "Canlı hesap", kind: "live" },
        { id: 12, name: "Test (dummy)", kind: "test" },
        { id: 13, name: "Eski hesap", kind: "unknown" },
      ],
      saleChannels: [{ id: 5, name: "Shopify mağazası" }],
      channelForShop: null,
      error: null,
    });
  });

  it("rejects a key the service refuses, with a clear error on the field, and saves nothing at all", async () => {
    const form = {
      ...(await formOf()),
      baseUrl,
      apiKey: "wrong-key-999999",
      exemptionCode: "301",
      exemptionReason: "11/1-a Mal İhracatı",
    };
    const { status, body } = await save(form);
    expect(status).toBe(422);
    expect(body).toMatchObject({ ok: false, errors: { apiKey: "api_key_rejected" } });
    expect(seenKeys).toContain("wrong-key-999999");
    expect(await prisma.shopSettings.findUnique({ where: { shopDomain: SHOP } })).toBeNull();
  });

  it("accepts a working key: stores it encrypted with the connection and the mapping in one save", async () => {
    const form = {
      ...(await formOf()),
      baseUrl,
      apiKey: GOOD_KEY,
      saleChannelId: 5,
      dummyIntegrationId: 12,
      invoiceIntegrationId: 11,
      trigger: "fulfilled",
      defaultTaxRate: "10",
      pricesIncludeVat: false,
      exemptionCode: "301",
      exemptionReason: "11/1-a Mal İhracatı",
      taxNumberAttributes: "VKN, Vergi No",
      carriers: [{ name: "Yurtiçi Kargo", title: "Yurtiçi Kargo Servisi A.Ş.", taxNumber: "9860008925" }],
      paymentMethodMap: [{ match: "iyzico", method: "payment_agent" }],
    };
    const { status, body } = await save(form);
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, keyChecked: true, webhook: { state: "registered" } });
    expect(await apiKeyFor(SHOP)).toBe(GOOD_KEY);
    const saved = await getSettings(SHOP);
    expect(saved).toMatchObject({
      baseUrl,
      saleChannelId: 5,
      dummyIntegrationId: 12,
      invoiceIntegrationId: 11,
      trigger: "fulfilled",
      testMode: true,
    });
    expect(saved.mapping).toMatchObject({
      defaultTaxRate: "10",
      pricesIncludeVat: false,
      exemptionCode: "301",
      exemptionReason: "11/1-a Mal İhracatı",
      taxNumberAttributes: ["VKN", "Vergi No"],
      carriers: { "Yurtiçi Kargo": { title: "Yurtiçi Kargo Servisi A.Ş.", taxNumber: "9860008925" } },
      paymentMethodMap: [{ match: "iyzico", method: "payment_agent" }],
    });
    // An empty key field keeps the stored key and does not check it again (only the webhook is registered again).
    calls.length = 0;
    const again = await save({ ...(await formOf()), apiKey: "" });
    expect(again.body).toEqual({ ok: true, keyChecked: false, webhook: { state: "registered" } });
    expect(calls).toEqual(["GET /api/integrations/invoice", "POST /api/helpers/settings-webhook"]);
    expect(await apiKeyFor(SHOP)).toBe(GOOD_KEY);
  });

  it("refuses swapped test and live accounts as the service flags them, with both fields' errors, and saves nothing", async () => {
    const base = { ...(await formOf()), baseUrl, apiKey: GOOD_KEY, saleChannelId: 5, testMode: false };
    const swapped = await save({ ...base, invoiceIntegrationId: 12, dummyIntegrationId: 11 });
    expect(swapped.status).toBe(422);
    expect(swapped.body).toEqual({
      ok: false,
      errors: { invoiceIntegrationId: "live_account_is_test", dummyIntegrationId: "test_account_is_live" },
    });
    expect(await prisma.shopSettings.findUnique({ where: { shopDomain: SHOP } })).toBeNull();
    // The live account alone being the dummy is refused too, in test mode as well (going live later must not find it).
    const liveIsTest = await save({ ...base, testMode: true, invoiceIntegrationId: 12, dummyIntegrationId: 12 });
    expect(liveIsTest.body.errors).toEqual({ invoiceIntegrationId: "live_account_is_test" });
    // An account without the flag is not refused; the right choice saves and clears a problem found earlier.
    expect((await save({ ...base, invoiceIntegrationId: 13, dummyIntegrationId: 12 })).status).toBe(200);
    await prisma.shopSettings.update({ where: { shopDomain: SHOP }, data: { accountProblem: "live_account_is_test" } });
    expect((await save({ ...base, apiKey: "", invoiceIntegrationId: 11, dummyIntegrationId: 12 })).status).toBe(200);
    expect(await prisma.shopSettings.findUniqueOrThrow({ where: { shopDomain: SHOP } })).toMatchObject({
      invoiceIntegrationId: 11,
      dummyIntegrationId: 12,
      accountProblem: null,
    });
  });

  it("puts validation messages on the fields and saves nothing half, even with a working key", async () => {
    const form = {
      ...(await formOf()),
      baseUrl,
      apiKey: GOOD_KEY,
      exemptionCode: "301",
      exemptionReason: "",
      foreignBuyerTaxNumber: "12ab",
      carriers: [
        { name: "Aras", title: "Aras Kargo", taxNumber: "0720039666" },
        { name: "aras", title: "", taxNumber: "123" },
      ],
      paymentMethodMap: [{ match: "", method: "teleport" }],
      testMode: false,
      invoiceIntegrationId: null,
    };
    const { status, body } = await save(form);
    expect(status).toBe(422);
    expect(body.errors).toEqual({
      exemptionReason: "exemption_pair",
      foreignBuyerTaxNumber: "digits_10_11",
      "carriers.1.name": "duplicate",
      "carriers.1.title": "required",
      "carriers.1.taxNumber": "digits_10_11",
      "paymentMethodMap.0.match": "required",
      "paymentMethodMap.0.method": "invalid",
      invoiceIntegrationId: "invoice_integration_required",
    });
    // Validation runs before the key check: the service was not even asked, and nothing was stored.
    expect(seenKeys).toEqual([]);
    expect(await prisma.shopSettings.findUnique({ where: { shopDomain: SHOP } })).toBeNull();
  });

  it("shows the export exemption with its default 301, stores a change, and refuses a malformed code", async () => {
    const form = await formOf();
    expect(form).toMatchObject({ exportExemptionCode: "301", exportExemptionReason: "11/1-a Mal İhracatı" });
    const bad = await save({ ...form, baseUrl, exportExemptionCode: "3O1" });
    expect(bad.body.errors).toEqual({ exportExemptionCode: "exemption_code" });
    const half = await save({ ...form, baseUrl, exportExemptionCode: "302", exportExemptionReason: "" });
    expect(half.body.errors).toEqual({ exportExemptionReason: "exemption_pair" });
    const good = await save({
      ...form,
      baseUrl,
      exportExemptionCode: "302",
      exportExemptionReason: "11/1-a Hizmet İhracatı",
    });
    expect(good.status).toBe(200);
    expect((await getSettings(SHOP)).mapping).toMatchObject({
      exportExemptionCode: "302",
      exportExemptionReason: "11/1-a Hizmet İhracatı",
    });
    // Both fields emptied: the default pair again, never an export without an exemption.
    await save({ ...(await formOf()), exportExemptionCode: "", exportExemptionReason: "" });
    expect((await getSettings(SHOP)).mapping).toMatchObject({
      exportExemptionCode: "301",
      exportExemptionReason: "11/1-a Mal İhracatı",
    });
  });

  it("registers the account webhook on every save with the same per-shop secret address, and saves even when that fails", async () => {
    const form = { ...(await formOf()), baseUrl, apiKey: GOOD_KEY };
    expect((await save(form)).body.webhook).toEqual({ state: "registered" });
    expect((await save({ ...form, apiKey: "" })).body.webhook).toEqual({ state: "registered" });
    expect(webhooks).toHaveLength(2);
    expect(webhooks[0]).toBe(webhooks[1]); // same URL: the service updates it instead of adding one
    expect(webhooks[0]).toMatch(
      new RegExp(`^${APP_URL}/callbacks/account/${SHOP.replace(/\./g, "\\.")}/[A-Za-z0-9_-]{43}$`),
    );
    const stored = await prisma.shopSettings.findUniqueOrThrow({ where: { shopDomain: SHOP } });
    expect(stored.accountWebhookRegisteredAt).not.toBeNull();
    expect(stored.accountWebhookSecret).not.toContain(webhooks[0].split("/").pop()!); // encrypted at rest
    const loaded = JSON.parse(
      await (await callRoute(settingsLoader, await adminDocumentRequest("/app/settings"))).text(),
    );
    expect(loaded.webhookRegisteredAt).toBe(stored.accountWebhookRegisteredAt!.toISOString());
    expect(JSON.stringify(loaded)).not.toContain(webhooks[0].split("/").pop()!); // the secret never reaches the browser

    // Another shop gets another secret.
    await save({ ...(await formOf(OTHER_SHOP)), baseUrl, apiKey: GOOD_KEY }, OTHER_SHOP);
    expect(webhooks[2].split("/").pop()).not.toBe(webhooks[0].split("/").pop());

    webhookStatus = 503;
    const failed = await save({ ...(await formOf()), defaultTaxRate: "10" });
    expect(failed.status).toBe(200);
    expect(failed.body.webhook).toEqual({ state: "failed", detail: "HTTP 503" });
    expect((await getSettings(SHOP)).mapping.defaultTaxRate).toBe("10");
  });

  it("does not register a webhook without an API key", async () => {
    const { body } = await save({ ...(await formOf()), baseUrl });
    expect(body.webhook).toEqual({ state: "skipped" });
    expect(calls).toEqual([]);
  });

  it("a changed service address needs the key entered again: the stored key is never sent to the new address", async () => {
    await saveConnection(SHOP, { baseUrl, apiKey: GOOD_KEY, saleChannelId: 5 });
    // Another server (on this machine: LOCAL_SERVICES is on in tests) that records every Authorization header.
    const captured: string[] = [];
    const other = createServer((request, response) => {
      captured.push(request.headers.authorization ?? "");
      response.setHeader("Content-Type", "application/json");
      response.end(JSON.stringify({ success: true }));
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/api`;
    try {
      const { status, body } = await save({ ...(await formOf()), baseUrl: otherUrl });
      expect(status).toBe(422);
      expect(body.errors).toEqual({ apiKey: "api_key_required_for_address" });
      expect(captured).toEqual([]);
      expect((await getSettings(SHOP)).baseUrl).toBe(baseUrl);
      // The lower layer refuses it too, whoever calls it.
      await expect(saveConnection(SHOP, { baseUrl: otherUrl, saleChannelId: 5 })).rejects.toThrow(
        /API key entered again/,
      );
      expect((await getSettings(SHOP)).baseUrl).toBe(baseUrl);
      // With the key typed again, that key is checked at the new address and saved.
      const again = await save({ ...(await formOf()), baseUrl: otherUrl, apiKey: "key-for-the-new-address" });
      expect(again.body).toEqual({ ok: true, keyChecked: true, webhook: { state: "registered" } });
      // The key check and the account webhook's registration: only the new key, only at the new address.
      expect(captured).toEqual(["Bearer key-for-the-new-address", "Bearer key-for-the-new-address"]);
      expect(await apiKeyFor(SHOP)).toBe("key-for-the-new-address");
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it("refuses a service address the operator does not allow, before anything is sent", async () => {
    for (const address of [
      "https://evil.example.com/api",
      "http://10.0.0.5/api",
      "https://169.254.169.254/api",
      "ftp://app.faturaentegrator.com/api",
    ]) {
      const { status, body } = await save({ ...(await formOf()), baseUrl: address, apiKey: GOOD_KEY });
      expect(status, address).toBe(422);
      expect(body.errors, address).toEqual({ baseUrl: expect.stringMatching(/^(base_url_not_allowed|url)$/) });
    }
    expect(seenKeys).toEqual([]);
    expect(await prisma.shopSettings.findUnique({ where: { shopDomain: SHOP } })).toBeNull();
    // The live address is allowed (the check is not sent anywhere here: no key changes).
    const live = await save({ ...(await formOf()), baseUrl: "https://app.faturaentegrator.com/api" });
    expect(live.status).toBe(200);
  });

  it("changes only the session shop's settings, whatever the body says", async () => {
    await saveConnection(OTHER_SHOP, { baseUrl, apiKey: GOOD_KEY, saleChannelId: 5, dummyIntegrationId: 12 });
    const before = await prisma.shopSettings.findUniqueOrThrow({ where: { shopDomain: OTHER_SHOP } });
    const form = {
      ...(await formOf()),
      baseUrl,
      saleChannelId: 99,
      shop: OTHER_SHOP,
      shopDomain: OTHER_SHOP,
    } as Partial<SettingsForm>;
    const { status } = await save(form, SHOP);
    expect(status).toBe(200);
    expect((await getSettings(SHOP)).saleChannelId).toBe(99);
    const after = await prisma.shopSettings.findUniqueOrThrow({ where: { shopDomain: OTHER_SHOP } });
    expect(after).toEqual(before);
  });

  it("hostile posts get clear field errors from the settings schema, never a 500, and save nothing", async () => {
    const form = { ...(await formOf()), baseUrl };
    const cases: Array<[string, Record<string, unknown>, Record<string, string>]> = [
      [
        "bad tax numbers",
        {
          foreignBuyerTaxNumber: "1e10",
          carriers: [{ name: "Aras", title: "Aras Kargo", taxNumber: "07200396661234" }],
          defaultCarrierTitle: "X",
          defaultCarrierTaxNumber: "abc",
        },
        {
          foreignBuyerTaxNumber: "digits_10_11",
          "carriers.0.taxNumber": "digits_10_11",
          defaultCarrierTaxNumber: "digits_10_11",
        },
      ],
      [
        "oversize strings",
        {
          exemptionCode: "301",
          exemptionReason: "x".repeat(10_000),
          carriers: [{ name: "Aras", title: "y".repeat(256), taxNumber: "0720039666" }],
          orderTag: "z".repeat(41),
          taxNumberAttributes: "VKN, ".repeat(1000),
        },
        {
          exemptionReason: "too_long",
          "carriers.0.title": "too_long",
          orderTag: "tag",
          taxNumberAttributes: "too_long",
        },
      ],
      [
        "too many rows",
        { paymentMethodMap: Array.from({ length: 201 }, () => ({ match: "x", method: "other" })) },
        { paymentMethodMap: "too_many" },
      ],
      [
        "wrong types",
        {
          testMode: "false",
          carriers: "none",
          paymentMethodMap: [null],
          saleChannelId: { id: 5 },
          unit: 42,
          trigger: ["paid"],
        },
        {
          testMode: "invalid",
          carriers: "invalid",
          "paymentMethodMap.0": "invalid",
          saleChannelId: "invalid",
          unit: "invalid",
          trigger: "invalid",
        },
      ],
      [
        "a reserved carrier name",
        {
          carriers: [
            { name: "__proto__", title: "Kargo", taxNumber: "0720039666" },
            { name: "constructor", title: "Kargo", taxNumber: "0720039666" },
          ],
        },
        { "carriers.0.name": "invalid", "carriers.1.name": "invalid" },
      ],
    ];
    for (const [what, change, errors] of cases) {
      const { status, body } = await save({ ...form, ...change } as Partial<SettingsForm>);
      expect(status, what).toBe(422);
      expect(body.errors, what).toEqual(errors);
    }
    expect(await prisma.shopSettings.findUnique({ where: { shopDomain: SHOP } })).toBeNull();
  });

  it("ignores unknown and prototype-pollution keys in the posted JSON", async () => {
    const body = JSON.stringify({ ...(await formOf()), baseUrl, isAdmin: true }).replace(
      /^\{/,
      '{"__proto__":{"testMode":false,"polluted":1},"constructor":{"prototype":{"polluted":1}},',
    );
    const request = await adminFetchRequest("/app/settings", SHOP, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
    });
    const response = await callRoute(settingsAction, request);
    expect(response.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const saved = await getSettings(SHOP);
    expect(saved.testMode).toBe(true);
    expect(Object.keys(saved.mapping)).not.toContain("isAdmin");
  });

  it("a settings post over the admin body limit gets 413 and saves nothing", async () => {
    const before = await prisma.shopSettings.findUnique({ where: { shopDomain: SHOP } });
    const huge = { ...(await formOf()), taxNumberAttributes: "x".repeat(300 * 1024) };
    const { status } = await save(huge).catch(() => ({ status: 0 }));
    expect(status).toBe(413);
    expect(await prisma.shopSettings.findUnique({ where: { shopDomain: SHOP } })).toEqual(before);
  });
});
