// Expiring offline tokens end to end against the stand-in's token endpoint (decision 0044): a non-expiring token
// migrated at its first use, a token renewed before it expires and after a 401, one renewal however many callers and
// processes ask at once, a crash between Shopify's answer and the store, a refused refresh that stops all asking and
// is shown to the merchant until the library's token exchange brings the shop back, and the worker's token step.
import { spawn } from "node:child_process";
import { API_KEY, API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { startStandin, type Standin } from "../../shopify-standin/server";
import { adminDocumentRequest } from "../helpers/shopify";
import { callRoute } from "../helpers/routes";

const SHOP = "tokens-shop.myshopify.com";
const ShopAnswer = z.object({ shop: z.object({ name: z.string() }) });
let standin: Standin;
let app: {
  prisma: typeof import("../../app/db.server").default;
  tokens: typeof import("../../app/shopify/offline-tokens.server");
  admin: typeof import("../../app/shopify/admin.server");
  sessions: import("../../app/db/sessions.server").SessionStore;
  connection: typeof import("../../app/shops/connection.server");
  recordShop: typeof import("../../app/shops/shops.server").recordShop;
  appLoader: typeof import("../../app/routes/app").loader;
  homeLoader: typeof import("../../app/routes/app._index").loader;
};

beforeAll(async () => {
  standin = await startStandin({ shop: SHOP, clientId: API_KEY, clientSecret: API_SECRET_KEY });
  // Before the app's configuration is first read: the stand-in answers for Shopify, and tokens are renewed when less
  // than a second of them is left (the stand-in's live two seconds in some tests).
  process.env.SHOPIFY_ADMIN_API_URL = standin.url;
  process.env.SHOPIFY_TOKEN_REFRESH_MARGIN_SECONDS = "1";
  const { EncryptedSessionStorage } = await import("../../app/secrets/session-storage.server");
  const { PrismaSessions } = await import("../../app/db/sessions.server");
  const prisma = (await import("../../app/db.server")).default;
  app = {
    prisma,
    tokens: await import("../../app/shopify/offline-tokens.server"),
    admin: await import("../../app/shopify/admin.server"),
    sessions: new EncryptedSessionStorage(new PrismaSessions(prisma)),
    connection: await import("../../app/shops/connection.server"),
    recordShop: (await import("../../app/shops/shops.server")).recordShop,
    appLoader: (await import("../../app/routes/app")).loader,
    homeLoader: (await import("../../app/routes/app._index")).loader,
  };
});
afterAll(() => standin?.stop());

/** The stand-in starts over: a shop installed before expiring tokens, holding its non-expiring token. */
async function freshShop(lifetimeSeconds = 3600) {
  standin.tokens.reset();
  standin.setFaults({ tokenLatencyMs: 0 });
  standin.tokens.setLifetime(lifetimeSeconds);
  await app.prisma.shop.deleteMany();
  await app.prisma.session.deleteMany();
  await app.recordShop(SHOP, { name: "tokens", currency: "TRY", timezone: "Europe/Istanbul" });
  const { Session } = await import("@shopify/shopify-api");
  await app.sessions.storeSession(
    new Session({
      id: `offline_${SHOP}`,
      shop: SHOP,
      state: "",
      isOnline: false,
      scope: "read_orders",
      accessToken: standin.accessToken,
    }),
  );
}

const shopName = async () =>
  (await (await app.admin.adminGraphql(SHOP)).graphql("{ shop { name } }", {}, ShopAnswer)).shop.name;
const stored = () => app.sessions.loadSession(`offline_${SHOP}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The stored session as expired (another day), keeping its tokens: the next call must renew it. */
async function expireStored() {
  await app.prisma.session.update({ where: { id: `offline_${SHOP}` }, data: { expires: new Date(Date.now() - 1000) } });
}

interface Child {
  /** Resolves with what it printed once it exits. */
  output: Promise<string>;
  /** Resolves when it printed `line`. */
  printed(line: string): Promise<void>;
  send(line: string): void;
  kill(): void;
}

function startChild(args: string[]): Child {
  const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/offline-token-child.ts", ...args], {
    env: process.env,
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  const waiting: Array<{ line: string; resolve: () => void }> = [];
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    for (const wait of waiting.filter((w) => out.split("\n").includes(w.line))) wait.resolve();
  });
  return {
    output: new Promise((resolve, reject) => {
      child.on("error", reject);
      child.on("exit", () => resolve(out));
    }),
    printed: (line) => new Promise<void>((resolve) => waiting.push({ line, resolve })),
    send: (line) => child.stdin.write(`${line}\n`),
    kill: () => child.kill("SIGKILL"),
  };
}

describe("expiring offline tokens", () => {
  beforeEach(() => freshShop());

  it("exchanges a non-expiring token for an expiring pair at its first use, sealed at rest, once", async () => {
    expect(await shopName()).toBe("tokens-shop");
    const session = await stored();
    expect(session?.accessToken).not.toBe(standin.accessToken);
    expect(session?.expires!.getTime()).toBeGreaterThan(Date.now() + 3_500_000);
    expect(session?.refreshToken).toMatch(/^shprt_/);
    const row = await app.prisma.session.findUniqueOrThrow({ where: { id: `offline_${SHOP}` } });
    expect(row.refreshToken).toMatch(/^v2:[0-9a-f]{8}:/);
    expect(row.accessToken).toMatch(/^v2:[0-9a-f]{8}:/);
    expect(await shopName()).toBe("tokens-shop");
    expect(standin.tokens.stats()).toMatchObject({ migrations: 1, refreshes: 0, refused: {} });
    // The old token no longer opens the Admin API: nothing may still use it.
    expect(standin.tokens.check(standin.accessToken)).toBe("revoked");
  });

  it("renews a token about to expire before the call, once for twenty callers at once", async () => {
    await freshShop(2);
    await shopName();
    const first = (await stored())!.accessToken;
    await sleep(1100); // less than the one-second margin left
    const names = await Promise.all(Array.from({ length: 20 }, () => shopName()));
    expect(new Set(names)).toEqual(new Set(["tokens-shop"]));
    expect(standin.tokens.stats()).toMatchObject({ migrations: 1, refreshes: 1, refused: {} });
    expect((await stored())!.accessToken).not.toBe(first);
    expect(standin.tokens.stats().unauthorized.expired).toBe(0);
  });

  it("after a 401 (a token that ended early), renews it once and sends again", async () => {
    await freshShop(2);
    const client = await app.admin.adminGraphql(SHOP);
    await client.graphql("{ shop { name } }", {}, ShopAnswer);
    // The app believes the token is good for an hour; Shopify has ended it.
    await app.prisma.session.update({
      where: { id: `offline_${SHOP}` },
      data: { expires: new Date(Date.now() + 3_600_000) },
    });
    await sleep(2100);
    expect((await (await app.admin.adminGraphql(SHOP)).graphql("{ shop { name } }", {}, ShopAnswer)).shop.name).toBe(
      "tokens-shop",
    );
    expect(standin.tokens.stats()).toMatchObject({ refreshes: 1, unauthorized: { expired: 1 } });
  });

  // Across processes on PostgreSQL (the documented scale-out); SQLite is one process, where the test above holds.
  it.runIf(process.env.TEST_DB === "postgresql")(
    "two processes renewing at once: one renewal, both read the new token",
    async () => {
      await shopName();
      await expireStored();
      // A slow token endpoint: without one lock across processes, both would be renewing at the same time.
      standin.setFaults({ tokenLatencyMs: 400 });
      const children = [startChild(["renew", SHOP, "5"]), startChild(["renew", SHOP, "5"])];
      await Promise.all(children.map((child) => child.printed("ready")));
      for (const child of children) child.send("go");
      const outputs = await Promise.all(children.map((child) => child.output));
      const tokens = outputs.flatMap((out) => JSON.parse(out.split("\n")[1]) as string[]);
      const now = (await stored())!.accessToken;
      expect(tokens).toEqual(Array(10).fill(now));
      expect(standin.tokens.stats()).toMatchObject({ refreshes: 1, refused: {} });
      expect(standin.tokens.check(now)).toBe("ok");
    },
  );

  it("a crash between Shopify's answer and the store leaves the shop able to renew (the used refresh token stays good)", async () => {
    await shopName();
    await expireStored();
    const before = await stored();
    const child = startChild(["hang", SHOP]);
    await child.printed("answered");
    child.kill();
    await child.output;
    // Shopify renewed, the app kept nothing of it.
    expect(standin.tokens.stats().refreshes).toBe(1);
    expect((await stored())!.refreshToken).toBe(before!.refreshToken);
    expect(await shopName()).toBe("tokens-shop");
    expect(standin.tokens.stats()).toMatchObject({ refreshes: 2, refused: {} });
    expect((await app.connection.shopifyConnectionOf(SHOP)).state).toBe("connected");
  });

  it("a refused refresh marks the shop lost without asking again, parks its work, and the merchant's visit restores it", async () => {
    await shopName();
    await fetch(`${standin.url}/__standin/tokens`, { method: "POST", body: JSON.stringify({ revoke: true }) });
    await expireStored();
    await expect(shopName()).rejects.toMatchObject({ name: "AdminApiError", kind: "reconnect" });
    const lost = await app.connection.shopifyConnectionOf(SHOP);
    expect(lost).toMatchObject({ state: "lost", reason: "invalid_grant" });
    // Every later call fails at once: Shopify is not asked again.
    const asked = standin.tokens.stats().refused.invalid_grant;
    await expect(shopName()).rejects.toMatchObject({ kind: "reconnect" });
    await expect(app.tokens.offlineSession(SHOP)).rejects.toMatchObject({ kind: "reconnect" });
    expect(standin.tokens.stats().refused.invalid_grant).toBe(asked);

    // Work that waited for the shop: an invoice parked by the worker, a write-back.
    const invoice = await app.prisma.invoice.create({
      data: {
        shopDomain: SHOP,
        orderId: "900001",
        orderName: "#9001",
        orderCreatedAt: new Date(),
        orderTotal: "10.00",
        currency: "TRY",
        orderSnapshot: {},
        state: "queued",
        nextAttemptAt: null,
      },
    });
    await app.prisma.reconciliation.create({ data: { shopDomain: SHOP } });
    await app.prisma.orderWriteBack.create({
      data: { invoiceId: invoice.id, shopDomain: SHOP, status: "pending", nextAttemptAt: null },
    });

    // The merchant opens the app: the layout's and the page's loaders authenticate at once; the library exchanges the
    // page's session token at the stand-in once (a second exchange would revoke the first loader's token).
    const responses = await Promise.all([
      callRoute(app.appLoader, await adminDocumentRequest("/app", SHOP)),
      callRoute(app.homeLoader, await adminDocumentRequest("/app", SHOP)),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    expect(standin.tokens.stats().exchanges).toBe(1);
    expect(await shopName()).toBe("tokens-shop");
    const restored = await app.connection.shopifyConnectionOf(SHOP);
    expect(restored).toMatchObject({
      state: "restored",
      reason: "invalid_grant",
      lostAt: lost.state === "lost" ? lost.lostAt : null,
    });
    expect((await app.prisma.invoice.findUniqueOrThrow({ where: { id: invoice.id } })).nextAttemptAt).not.toBeNull();
    expect(
      (await app.prisma.orderWriteBack.findFirstOrThrow({ where: { invoiceId: invoice.id } })).nextAttemptAt,
    ).not.toBeNull();
    // A pass for the orders paid while the connection was lost.
    expect(
      (await app.prisma.reconciliation.findUniqueOrThrow({ where: { shopDomain: SHOP } })).requestedAt,
    ).not.toBeNull();
  });

  it("from 1 January 2027 a non-expiring token cannot be migrated: the shop waits for its merchant", async () => {
    await fetch(`${standin.url}/__standin/tokens`, { method: "POST", body: JSON.stringify({ rejectLegacy: true }) });
    await expect(shopName()).rejects.toMatchObject({ kind: "reconnect" });
    expect(await app.connection.shopifyConnectionOf(SHOP)).toMatchObject({
      state: "lost",
      reason: "invalid_subject_token",
    });
  });

  it("the worker's token step migrates a shop nobody opens, and refreshes one whose refresh token is ending", async () => {
    expect(await app.tokens.cycleOfflineTokens()).toEqual({ migrated: 1, refreshed: 0, failed: 0 });
    expect(await app.tokens.cycleOfflineTokens()).toEqual({ migrated: 0, refreshed: 0, failed: 0 });
    await app.prisma.session.update({
      where: { id: `offline_${SHOP}` },
      data: { expires: new Date(Date.now() - 60_000), refreshTokenExpires: new Date(Date.now() + 86_400_000) },
    });
    expect(await app.tokens.cycleOfflineTokens()).toEqual({ migrated: 0, refreshed: 1, failed: 0 });
    expect(standin.tokens.stats()).toMatchObject({ migrations: 1, refreshes: 1 });
  });
  it("a migration Shopify cannot answer now is postponed: the old token keeps working meanwhile", async () => {
    let asked = 0;
    const { TokenRequestError } = await import("../../app/shopify/token-endpoint.server");
    const unreachable = async () => {
      asked++;
      throw new TokenRequestError("unavailable", "network", "no answer");
    };
    const first = await app.tokens.offlineSession(SHOP, { request: unreachable });
    expect(first.accessToken).toBe(standin.accessToken);
    await app.tokens.offlineSession(SHOP, { request: unreachable });
    expect(asked).toBe(1);
  });
});
