// The local admin (App Bridge stand-in and signed session tokens) exists only with LOCAL_ADMIN=1.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { callRoute } from "../helpers/routes";
import { APP_ORIGIN, SHOP } from "../helpers/shopify";
import { installShop, prisma } from "../helpers/db";

async function routes(localAdmin: string | undefined) {
  if (localAdmin === undefined) delete process.env.LOCAL_ADMIN;
  else process.env.LOCAL_ADMIN = localAdmin;
  vi.resetModules(); // env() reads the configuration once per module instance
  return {
    entry: (await import("../../app/routes/local-admin")).loader,
    token: (await import("../../app/routes/local-admin.session-token")).loader,
    script: (await import("../../app/routes/local-admin.app-bridge[.]js")).loader,
    app: (await import("../../app/routes/app")).loader,
  };
}

const get = (path: string) => new Request(new URL(path, APP_ORIGIN));

describe("local admin", () => {
  beforeEach(async () => {
    await prisma.shop.deleteMany();
    await prisma.session.deleteMany();
    await installShop(SHOP);
  });
  afterEach(() => {
    delete process.env.LOCAL_ADMIN;
  });

  for (const value of [undefined, "0", "false"]) {
    it(`answers 404 everywhere when LOCAL_ADMIN is ${value ?? "unset"}`, async () => {
      const r = await routes(value);
      expect((await callRoute(r.entry, get(`/local-admin?shop=${SHOP}`))).status).toBe(404);
      expect((await callRoute(r.token, get(`/local-admin/session-token?shop=${SHOP}`))).status).toBe(404);
      expect((await callRoute(r.script, get("/local-admin/app-bridge.js"))).status).toBe(404);
    });
  }

  it("opens the embedded app with a session token that authenticate.admin accepts, in the asked locale", async () => {
    const r = await routes("1");
    const response = await callRoute(r.entry, get(`/local-admin?shop=${SHOP}&locale=en`));
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location")!, APP_ORIGIN);
    expect(location.pathname).toBe("/app");
    expect(Object.fromEntries(location.searchParams)).toMatchObject({ embedded: "1", shop: SHOP, locale: "en" });
    const app = await callRoute(r.app, new Request(location));
    expect(app.status).toBe(200);
    expect(await app.json()).toMatchObject({ shop: SHOP, locale: "en", localAdmin: true });
  });

  it("signs fresh tokens for the stand-in's fetches, serves the script, and refuses a malformed shop", async () => {
    const r = await routes("1");
    const token = await callRoute(r.token, get(`/local-admin/session-token?shop=${SHOP}`));
    const { token: jwt } = (await token.json()) as { token: string };
    const request = new Request(new URL("/app", APP_ORIGIN), { headers: { Authorization: `Bearer ${jwt}` } });
    expect((await callRoute(r.app, request)).status).toBe(200);
    const script = await callRoute(r.script, get("/local-admin/app-bridge.js"));
    expect(script.headers.get("content-type")).toContain("javascript");
    expect(await script.text()).toContain("window.shopify");
    expect((await callRoute(r.entry, get("/local-admin?shop=evil.example.com"))).status).toBe(400);
  });

  it("the shell does not switch to the stand-in when LOCAL_ADMIN is off", async () => {
    const r = await routes("0");
    const { adminDocumentRequest } = await import("../helpers/shopify");
    const app = await callRoute(r.app, await adminDocumentRequest("/app"));
    expect(await app.json()).toMatchObject({ localAdmin: false });
  });
});
