import { beforeEach, describe, expect, it } from "vitest";
import { loader as appLoader } from "../../app/routes/app";
import { loader as homeLoader } from "../../app/routes/app._index";
import { callRoute } from "../helpers/routes";
import { adminDocumentRequest, APP_ORIGIN, OTHER_SHOP, SHOP } from "../helpers/shopify";
import { createInvoiceRow, installShop, prisma } from "../helpers/db";

describe("embedded admin authentication", () => {
  beforeEach(async () => {
    await prisma.shop.deleteMany();
    await prisma.session.deleteMany();
  });

  it("opens /app with a valid session token when the shop's offline session is stored", async () => {
    await installShop(SHOP);
    const response = await callRoute(appLoader, await adminDocumentRequest("/app?locale=tr-TR"));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ apiKey: process.env.SHOPIFY_API_KEY, locale: "tr" });
  });

  it("shows each shop only its own invoices", async () => {
    await installShop(SHOP);
    await installShop(OTHER_SHOP);
    const mine = await createInvoiceRow(SHOP);
    const theirs = [await createInvoiceRow(OTHER_SHOP), await createInvoiceRow(OTHER_SHOP)];
    const response = await callRoute(homeLoader, await adminDocumentRequest("/app", SHOP));
    const body = JSON.stringify(await response.json());
    expect(body).toContain(mine.id);
    for (const row of theirs) expect(body).not.toContain(row.id);
  });

  it("does not open /app without a session token", async () => {
    await installShop(SHOP);
    const response = await callRoute(appLoader, new Request(`${APP_ORIGIN}/app?shop=${SHOP}&embedded=1`));
    expect(response.status).not.toBe(200);
  });

  it("rejects a session token signed with another secret", async () => {
    await installShop(SHOP);
    const request = await adminDocumentRequest("/app");
    const url = new URL(request.url);
    const [header, payload] = url.searchParams.get("id_token")!.split(".");
    url.searchParams.set("id_token", `${header}.${payload}.forgedsignature`);
    const response = await callRoute(appLoader, new Request(url));
    expect(response.status).not.toBe(200);
  });
});
