// The local admin (App Bridge stand-in and signed session tokens) lives in the demo's server
// (scripts/lib/local-admin.ts), not in the app: its answers, and the shell's switch to the stand-in.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { localAdmin } from "../../scripts/lib/local-admin";
import { callRoute } from "../helpers/routes";
import { APP_ORIGIN, SHOP } from "../helpers/shopify";
import { installShop, prisma } from "../helpers/db";

async function appLoader(localAdminFlag: string | undefined) {
  if (localAdminFlag === undefined) delete process.env.LOCAL_ADMIN;
  else process.env.LOCAL_ADMIN = localAdminFlag;
  vi.resetModules(); // env() reads the configuration once per module instance
  return (await import("../../app/routes/app")).loader;
}

const admin = () => localAdmin({ apiKey: process.env.SHOPIFY_API_KEY!, apiSecret: process.env.SHOPIFY_API_SECRET! });
const url = (path: string) => new URL(path, APP_ORIGIN);

describe("local admin", () => {
  beforeEach(async () => {
    await prisma.shop.deleteMany();
    await prisma.session.deleteMany();
    await installShop(SHOP);
  });
  afterEach(() => {
    delete process.env.LOCAL_ADMIN;
  });

  it("opens the embedded app with a session token that authenticate.admin accepts, in the asked locale and page", async () => {
    const app = await appLoader("1");
    const response = admin().open(
      url(`/local-admin?shop=${SHOP}&locale=en&path=${encodeURIComponent("/app?state=failed")}`),
    );
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location")!, APP_ORIGIN);
    expect(location.pathname).toBe("/app");
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      embedded: "1",
      shop: SHOP,
      locale: "en",
      state: "failed",
    });
    const page = await callRoute(app, new Request(location));
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({ shop: SHOP, locale: "en", localAdmin: true });
  });

  it("signs fresh tokens for the stand-in's fetches, serves the script, and refuses a malformed shop or page", async () => {
    const app = await appLoader("1");
    const token = admin().token(url(`/local-admin/session-token?shop=${SHOP}`));
    const { token: jwt } = (await token.json()) as { token: string };
    const request = new Request(url("/app"), { headers: { Authorization: `Bearer ${jwt}` } });
    expect((await callRoute(app, request)).status).toBe(200);
    const script = admin().script();
    expect(script.headers.get("content-type")).toContain("javascript");
    expect(await script.text()).toContain("window.shopify");
    expect(admin().open(url("/local-admin?shop=evil.example.com")).status).toBe(400);
    expect(admin().token(url("/local-admin/session-token?shop=evil.example.com")).status).toBe(400);
    const elsewhere = admin().open(
      url(`/local-admin?shop=${SHOP}&path=${encodeURIComponent("https://evil.example.com/x")}`),
    );
    expect(new URL(elsewhere.headers.get("location")!, APP_ORIGIN).pathname).toBe("/app");
  });

  it("a token signed with another secret is refused", async () => {
    const app = await appLoader("1");
    const forged = localAdmin({ apiKey: process.env.SHOPIFY_API_KEY!, apiSecret: "not-the-app-secret" }).token(
      url(`/local-admin/session-token?shop=${SHOP}`),
    );
    const { token: jwt } = (await forged.json()) as { token: string };
    const response = await callRoute(app, new Request(url("/app"), { headers: { Authorization: `Bearer ${jwt}` } }));
    expect(response.status).toBe(401);
  });

  for (const value of [undefined, "0", "false"]) {
    it(`the shell does not switch to the stand-in when LOCAL_ADMIN is ${value ?? "unset"}`, async () => {
      const app = await appLoader(value);
      const { adminDocumentRequest } = await import("../helpers/shopify");
      const page = await callRoute(app, await adminDocumentRequest("/app"));
      expect(await page.json()).toMatchObject({ localAdmin: false });
    });
  }
});
