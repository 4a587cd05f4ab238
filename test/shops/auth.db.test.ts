import { randomBytes } from "node:crypto";
import { setAbstractFetchFunc } from "@shopify/shopify-api/runtime";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loader as appLoader } from "../../app/routes/app";
import { loader as homeLoader } from "../../app/routes/app._index";
import { action as loginAction, loader as loginLoader } from "../../app/routes/auth.login";
import { encryptSecret, keyRing } from "../../app/secrets/crypto.server";
import { sessionStorage } from "../../app/shopify.server";
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

  it("answers /auth/login (a page reloaded outside the admin) with the app's own form, never the library's 500; a shop's address opens the app in its admin (issue 36, point 8)", async () => {
    const form = await callRoute(loginLoader, new Request(`${APP_ORIGIN}/auth/login`));
    expect(form.status).toBe(200);
    expect(await form.json()).toEqual({ error: null });
    const post = (shop: string) =>
      callRoute(
        loginAction,
        new Request(`${APP_ORIGIN}/auth/login`, { method: "POST", body: new URLSearchParams({ shop }) }),
      );
    expect(await (await post("not a shop!")).json()).toEqual({ error: "INVALID_SHOP" });
    expect(await (await post("")).json()).toEqual({ error: "MISSING_SHOP" });
    const opened = await post("demo-magaza");
    expect(opened.status).toBe(302);
    // Shopify's own page: it opens the app in that shop's admin, installing it first if need be.
    expect(opened.headers.get("location")).toBe(
      `https://admin.shopify.com/store/demo-magaza/oauth/install?client_id=${process.env.SHOPIFY_API_KEY}`,
    );
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

// Embedded auth by token exchange (future.unstable_newEmbeddedAuthStrategy): a shop without a usable offline session
// is installed by exchanging the page's session token for an offline access token at the shop's
// /admin/oauth/access_token, then afterAuth records the shop from the Admin API. Shopify's two endpoints are answered
// here through the library's fetch (the one the node adapter sets, @shopify/shopify-api/runtime).
describe("embedded install by token exchange", () => {
  const EXCHANGED = "shpat_exchanged_token";
  let calls: Array<{ url: string; body: Record<string, unknown> | null; token: string | null }> = [];

  beforeEach(async () => {
    await prisma.shop.deleteMany();
    await prisma.session.deleteMany();
    calls = [];
    setAbstractFetchFunc(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      const headers = new Headers(init?.headers);
      const body = typeof init?.body === "string" ? (JSON.parse(init.body) as Record<string, unknown>) : null;
      calls.push({ url, body, token: headers.get("x-shopify-access-token") });
      const json = (value: unknown) =>
        new Response(JSON.stringify(value), { status: 200, headers: { "Content-Type": "application/json" } });
      if (url === `https://${SHOP}/admin/oauth/access_token`)
        // An expiring offline token, as Shopify answers an exchange that asks for one (expiring=1).
        return json({
          access_token: EXCHANGED,
          scope: "read_orders",
          expires_in: 3600,
          refresh_token: "shprt_exchanged",
          refresh_token_expires_in: 7_776_000,
        });
      if (url === `https://${SHOP}/admin/api/2026-10/graphql.json`) {
        return json({
          data: {
            shop: {
              name: "Demo Mağaza",
              email: "owner@example.com",
              currencyCode: "TRY",
              ianaTimezone: "Europe/Istanbul",
              primaryDomain: { url: "https://demo.example" },
              taxesIncluded: true,
            },
          },
        });
      }
      return new Response("not Shopify", { status: 404 });
    });
  });
  afterEach(() => setAbstractFetchFunc(globalThis.fetch));

  it("a shop's first open exchanges the session token, stores the offline token sealed, and records the shop", async () => {
    const request = await adminDocumentRequest("/app");
    const response = await callRoute(appLoader, request);
    expect(response.status).toBe(200);

    const exchange = calls.find((call) => call.url.endsWith("/admin/oauth/access_token"));
    expect(exchange?.body).toMatchObject({
      client_id: process.env.SHOPIFY_API_KEY,
      client_secret: process.env.SHOPIFY_API_SECRET,
      grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
      subject_token: new URL(request.url).searchParams.get("id_token"),
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
      requested_token_type: "urn:shopify:params:oauth:token-type:offline-access-token",
      expiring: "1",
    });
    // afterAuth read the shop with the exchanged token.
    expect(calls.find((call) => call.url.endsWith("/graphql.json"))?.token).toBe(EXCHANGED);

    const row = await prisma.session.findUniqueOrThrow({ where: { id: `offline_${SHOP}` } });
    expect(row.accessToken).not.toContain(EXCHANGED);
    expect(row.accessToken).toMatch(/^v2:[0-9a-f]{8}:/);
    const stored = await sessionStorage.loadSession(`offline_${SHOP}`);
    expect(stored).toMatchObject({ accessToken: EXCHANGED, refreshToken: "shprt_exchanged" });
    // An hour from the exchange, and the refresh token sealed like the access token.
    // (The library is handed the session without it: renewing it is the app's, decision 0044.)
    expect(row.expires!.getTime() - Date.now()).toBeGreaterThan(3_500_000);
    expect(stored!.expires).toBeUndefined();
    expect(row.refreshToken).toMatch(/^v2:[0-9a-f]{8}:/);
    expect(await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).toMatchObject({
      name: "Demo Mağaza",
      currency: "TRY",
      uninstalledAt: null,
    });

    // The next open uses the stored session: no second exchange.
    expect((await callRoute(appLoader, await adminDocumentRequest("/app"))).status).toBe(200);
    expect(calls.filter((call) => call.url.endsWith("/admin/oauth/access_token"))).toHaveLength(1);
  });

  it("a stored token no configured key opens (ENCRYPTION_KEY replaced) is exchanged again instead of failing", async () => {
    await installShop(SHOP);
    const otherKey = keyRing(randomBytes(32));
    await prisma.session.update({
      where: { id: `offline_${SHOP}` },
      data: { accessToken: encryptSecret("shpat_lost", SHOP, otherKey) },
    });
    expect((await callRoute(appLoader, await adminDocumentRequest("/app"))).status).toBe(200);
    expect(calls.filter((call) => call.url.endsWith("/admin/oauth/access_token"))).toHaveLength(1);
    expect((await sessionStorage.loadSession(`offline_${SHOP}`))?.accessToken).toBe(EXCHANGED);
  });

  it("a refused exchange (Shopify answers 400) does not open the app and stores nothing", async () => {
    setAbstractFetchFunc(
      async () =>
        new Response(JSON.stringify({ error: "invalid_subject_token" }), {
          status: 400,
          headers: { "Content-Type": "application/json" },
        }),
    );
    const response = await callRoute(appLoader, await adminDocumentRequest("/app"));
    expect(response.status).not.toBe(200);
    expect(await prisma.session.count()).toBe(0);
    expect(await prisma.shop.count()).toBe(0);
  });
});
