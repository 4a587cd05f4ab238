// Settings that shorten a new shop's setup: the sales channel found or created for the shop's domain (against
// the invoicing sandbox, from an account that has none), and the cart block's section with its usage count.
import { beforeEach, describe, expect, it } from "vitest";
import { loader as settingsLoader } from "../../app/routes/app.settings";
import { action as saleChannelAction } from "../../app/routes/app.sale-channel";
import { getSettings, saveConnection } from "../../app/settings/settings.server";
import { themeEditorUrl } from "../../app/cart-block/cart-block.server";
import { InvoicingClient } from "../../app/invoicing-service/client";
import type { EmptyAccount } from "../../sandbox/server";
import { withSandbox } from "../helpers/sandbox";
import { callRoute } from "../helpers/routes";
import { adminDocumentRequest, adminFetchRequest, OTHER_SHOP, SHOP } from "../helpers/shopify";
import { freshShopsForEachTest } from "../helpers/db";
import { seedInvoice } from "../helpers/seed";

const sandbox = withSandbox({ formalizeDelayMs: 20 });
let account: EmptyAccount;

async function settingsData(shop = SHOP) {
  const response = await callRoute(settingsLoader, await adminDocumentRequest("/app/settings", shop));
  expect(response.status).toBe(200);
  return (await response.json()) as {
    form: { saleChannelId: number | null };
    lists: { saleChannels: Array<{ id: number }>; channelForShop: number | null; error: string | null } | null;
    cartBlock: {
      usage: { recent: number; withDetails: number; latestAt: string | null };
      editorUrl: string;
      names: string[];
    };
  };
}

async function createChannel(shop = SHOP) {
  const response = await callRoute(
    saleChannelAction,
    await adminFetchRequest("/app/sale-channel", shop, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    }),
  );
  return {
    status: response.status,
    body: (await response.json()) as { ok: boolean; id?: number; created?: boolean; code?: string },
  };
}

const channelsOf = (apiKey: string) => new InvoicingClient({ baseUrl: sandbox.url, apiKey }).listSaleChannels();

describe("sales channel for a new account", () => {
  freshShopsForEachTest();
  beforeEach(async () => {
    account = sandbox.addEmptyAccount();
    await saveConnection(SHOP, {
      baseUrl: sandbox.url,
      apiKey: account.apiKey,
      dummyIntegrationId: account.dummyIntegrationId,
    });
  });

  it("sees that the account has no channel for the shop, creates it for the shop's domain, selects it, and never makes a second", async () => {
    const before = await settingsData();
    expect(before.lists).toMatchObject({ saleChannels: [], channelForShop: null, error: null });
    expect(before.form.saleChannelId).toBeNull();

    const first = await createChannel();
    expect(first).toMatchObject({ status: 200, body: { ok: true, created: true, id: expect.any(Number) } });
    const channels = await channelsOf(account.apiKey);
    expect(channels).toEqual([
      expect.objectContaining({ id: first.body.id, sale_channel: "shopify", settings: { domain: SHOP } }),
    ]);
    expect((await getSettings(SHOP)).saleChannelId).toBe(first.body.id);

    // A second click (or a retry after a lost answer) finds the channel instead of creating another one.
    const second = await createChannel();
    expect(second.body).toMatchObject({ ok: true, created: false, id: first.body.id });
    expect(await channelsOf(account.apiKey)).toHaveLength(1);

    const after = await settingsData();
    expect(after.lists?.channelForShop).toBe(first.body.id);
    expect(after.form.saleChannelId).toBe(first.body.id);
  });

  it("proposes the account's existing channel for this shop without saving it", async () => {
    const existing = await new InvoicingClient({ baseUrl: sandbox.url, apiKey: account.apiKey }).createSaleChannel(
      SHOP,
    );
    const data = await settingsData();
    expect(data.lists?.channelForShop).toBe(existing.id);
    expect(data.form.saleChannelId).toBe(existing.id);
    expect((await getSettings(SHOP)).saleChannelId).toBeNull();
  });

  it("another shop without a key gets a clear refusal and changes nothing of this shop's", async () => {
    const refused = await createChannel(OTHER_SHOP);
    expect(refused).toMatchObject({ status: 422, body: { ok: false, code: "no_api_key" } });
    expect(await channelsOf(account.apiKey)).toEqual([]);
    expect((await getSettings(SHOP)).saleChannelId).toBeNull();
  });

  it("a key the service no longer accepts is said so, and nothing is created", async () => {
    await saveConnection(SHOP, { baseUrl: sandbox.url, apiKey: "revoked-key-0123456789" });
    expect(await createChannel()).toMatchObject({ status: 422, body: { ok: false, code: "api_key_rejected" } });
  });
});

describe("cart block section", () => {
  freshShopsForEachTest();

  it("links to the theme editor's cart template with the app's block, and names the attributes the block writes", async () => {
    const data = await settingsData();
    expect(data.cartBlock.editorUrl).toBe(themeEditorUrl(SHOP, process.env.SHOPIFY_API_KEY!));
    expect(new URL(data.cartBlock.editorUrl).searchParams.get("addAppBlockId")).toBe(
      `${process.env.SHOPIFY_API_KEY}/invoice-details`,
    );
    expect(data.cartBlock.names).toEqual(["TC Kimlik No", "Vergi Numarası", "Vergi Dairesi", "Şirket Unvanı"]);
    expect(data.cartBlock.usage).toEqual({ recent: 0, withDetails: 0, latestAt: null });
  });

  it("counts the shop's recent orders that carry invoice details, and only this shop's real ones", async () => {
    await seedInvoice(SHOP, {
      orderSnapshot: { note_attributes: [{ name: "Vergi Numarası", value: "9860008925" }] },
      createdAt: new Date("2026-11-20T10:00:00Z"),
    });
    await seedInvoice(SHOP, {
      orderSnapshot: { note_attributes: [{ name: "tc kimlik no", value: "10000000146" }] },
      createdAt: new Date("2026-11-21T10:00:00Z"),
    });
    await seedInvoice(SHOP, {
      orderSnapshot: {
        note_attributes: [
          { name: "Vergi Numarası", value: "  " },
          { name: "Hediye notu", value: "x" },
        ],
      },
    });
    await seedInvoice(SHOP, { orderSnapshot: { note_attributes: "not a list" } });
    await seedInvoice(SHOP, {
      isTest: true,
      orderSnapshot: { note_attributes: [{ name: "VKN", value: "9860008925" }] },
    });
    await seedInvoice(OTHER_SHOP, { orderSnapshot: { note_attributes: [{ name: "VKN", value: "9860008925" }] } });
    const { usage } = (await settingsData()).cartBlock;
    expect(usage.recent).toBe(4);
    expect(usage.withDetails).toBe(2);
    expect(usage.latestAt).toBe(new Date("2026-11-21T10:00:00Z").toISOString());
  });
});
