// Shopify tokens encrypted at rest through the library's session storage (app/secrets/session-storage.server.ts),
// tokens from before encryption sealed by the start-up step, and `npm run secrets:reencrypt` after a key rotation
// (app/secrets/reencrypt.server.ts).
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { Session } from "@shopify/shopify-api";
import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { startWorker } from "../../app/worker/worker.server";
import { reencryptSecrets, sealPlainTokens } from "../../app/secrets/reencrypt.server";
import { adminGraphql } from "../../app/shopify/admin.server";
import { sessionStorage } from "../../app/shopify.server";
import { accountWebhookSecret } from "../../app/settings/account-webhook.server";
import { decryptSecret, encryptSecret, keyId, keyRing } from "../../app/secrets/crypto.server";
import { apiKeyFor, saveConnection } from "../../app/settings/settings.server";
import { installShop, prisma } from "../helpers/db";
import { OTHER_SHOP, SHOP } from "../helpers/shopify";

const TEST_KEY = process.env.ENCRYPTION_KEY!;
const TOKEN = `shpat_test_${SHOP.split(".")[0]}`;

/** Every Session row as the database holds it, every column, through plain SQL. */
async function rawSessions(): Promise<Array<Record<string, unknown>>> {
  return prisma.$queryRawUnsafe(`SELECT * FROM "Session" ORDER BY "id"`);
}

describe("Shopify tokens at rest", () => {
  beforeEach(async () => {
    await prisma.session.deleteMany();
    await prisma.shop.deleteMany();
  });

  it("stores the offline access token (and a refresh token) encrypted: the raw row holds no shpat_, the library's storage gives them back", async () => {
    await installShop(SHOP);
    await sessionStorage.storeSession(
      new Session({
        id: "online_1",
        shop: SHOP,
        state: "s",
        isOnline: true,
        accessToken: "shpua_online_token",
        refreshToken: "shprt_refresh_token",
      }),
    );
    const raw = await rawSessions();
    expect(raw).toHaveLength(2);
    const text = JSON.stringify(raw, (_, value: unknown) => (typeof value === "bigint" ? String(value) : value));
    for (const clear of ["shpat_", "shpua_", "shprt_", "online_token", "refresh_token"])
      expect(text).not.toContain(clear);
    for (const row of raw) expect(row.accessToken).toMatch(/^v2:[0-9a-f]{8}:/);

    expect((await sessionStorage.loadSession(`offline_${SHOP}`))?.accessToken).toBe(TOKEN);
    const found = await sessionStorage.findSessionsByShop(SHOP);
    expect(found.map((session) => [session.id, session.accessToken, session.refreshToken]).sort()).toEqual([
      [`offline_${SHOP}`, TOKEN, `shprt_test_${SHOP.split(".")[0]}`],
      ["online_1", "shpua_online_token", "shprt_refresh_token"],
    ]);
  });

  it("the Admin API client sends the decrypted token (the library's unauthenticated.admin reads the storage)", async () => {
    await installShop(SHOP);
    const sent: string[] = [];
    const admin = await adminGraphql(SHOP, {
      maxAttempts: 1,
      fetch: (async (_url: string, init: { headers: Record<string, string> }) => {
        sent.push(init.headers["x-shopify-access-token"]);
        return new Response(JSON.stringify({ data: { shop: { name: "x" } } }), {
          status: 200,
          headers: { "content-type": "application/json" },
        });
      }) as unknown as typeof fetch,
    });
    await admin.graphql("{ shop { name } }", undefined, z.object({ shop: z.object({ name: z.string() }) }));
    expect(sent).toEqual([TOKEN]);
  });

  it("a token copied into another shop's session row does not open: that session comes back without a token", async () => {
    await installShop(SHOP);
    await installShop(OTHER_SHOP);
    const mine = await prisma.session.findUniqueOrThrow({ where: { id: `offline_${SHOP}` } });
    await prisma.session.update({ where: { id: `offline_${OTHER_SHOP}` }, data: { accessToken: mine.accessToken } });
    const theirs = await sessionStorage.loadSession(`offline_${OTHER_SHOP}`);
    expect(theirs?.accessToken).toBeUndefined();
    expect(theirs?.isActive("read_orders")).toBe(false);
  });

  it("seals tokens stored in clear by an earlier version (the worker's start-up step); they read before and after", async () => {
    await prisma.session.create({
      data: {
        id: `offline_${SHOP}`,
        shop: SHOP,
        state: "installed",
        isOnline: false,
        scope: "read_orders",
        accessToken: "shpat_legacy_clear",
      },
    });
    expect((await sessionStorage.loadSession(`offline_${SHOP}`))?.accessToken).toBe("shpat_legacy_clear");
    expect(await sealPlainTokens(prisma)).toEqual({ rewritten: 1, current: 0, unreadable: [] });
    expect(JSON.stringify(await rawSessions())).not.toContain("shpat_");
    expect((await sessionStorage.loadSession(`offline_${SHOP}`))?.accessToken).toBe("shpat_legacy_clear");
    expect((await sealPlainTokens(prisma)).rewritten).toBe(0);
  });

  it("every worker runs that step when it starts", async () => {
    await prisma.session.create({
      data: {
        id: `offline_${SHOP}`,
        shop: SHOP,
        state: "installed",
        isOnline: false,
        scope: "read_orders",
        accessToken: "shpat_legacy_clear",
      },
    });
    const worker = await startWorker({ appUrl: "http://127.0.0.1:9", pollMs: 60_000, checkAccounts: false });
    await worker.stop();
    expect(JSON.stringify(await rawSessions())).not.toContain("shpat_");
    expect((await sessionStorage.loadSession(`offline_${SHOP}`))?.accessToken).toBe("shpat_legacy_clear");
  });
});

describe("rotating ENCRYPTION_KEY: npm run secrets:reencrypt", () => {
  beforeEach(async () => {
    await prisma.session.deleteMany();
    await prisma.shop.deleteMany();
    await installShop(SHOP);
    await installShop(OTHER_SHOP);
    await saveConnection(SHOP, { apiKey: "fe_live_mine", saleChannelId: 3, invoiceIntegrationId: 11 });
    await saveConnection(OTHER_SHOP, { apiKey: "fe_live_theirs", saleChannelId: 3, invoiceIntegrationId: 11 });
    await accountWebhookSecret(SHOP);
  });

  /** Every stored secret, raw. */
  async function storedSecrets(): Promise<string[]> {
    const settings = await prisma.shopSettings.findMany({
      select: { apiKeyEncrypted: true, accountWebhookSecret: true },
    });
    const sessions = await prisma.session.findMany({ select: { accessToken: true, refreshToken: true } });
    return [
      ...settings.flatMap((row) => [row.apiKeyEncrypted, row.accountWebhookSecret]),
      ...sessions.flatMap((row) => [row.accessToken, row.refreshToken]),
    ].filter((v): v is string => Boolean(v));
  }

  it("rewrites every secret under the new key, which then reads them alone; a second run has nothing to do", async () => {
    const newKey = randomBytes(32);
    const during = keyRing(newKey, [TEST_KEY]);
    const report = await reencryptSecrets(prisma, { ring: during });
    // Two API keys, one account webhook secret, two offline sessions' access and refresh tokens.
    expect(report).toEqual({ rewritten: 7, current: 0, unreadable: [] });
    const stored = await storedSecrets();
    expect(stored).toHaveLength(7);
    for (const value of stored) expect(value.startsWith(`v2:${keyId(newKey)}:`)).toBe(true);
    const after = keyRing(newKey);
    const settings = await prisma.shopSettings.findUniqueOrThrow({ where: { shopDomain: SHOP } });
    expect(decryptSecret(settings.apiKeyEncrypted!, SHOP, after)).toBe("fe_live_mine");
    const session = await prisma.session.findUniqueOrThrow({ where: { id: `offline_${OTHER_SHOP}` } });
    expect(decryptSecret(session.accessToken, OTHER_SHOP, after)).toBe(`shpat_test_${OTHER_SHOP.split(".")[0]}`);
    expect(decryptSecret(session.refreshToken!, OTHER_SHOP, after)).toBe(`shprt_test_${OTHER_SHOP.split(".")[0]}`);
    expect(await reencryptSecrets(prisma, { ring: during })).toEqual({ rewritten: 0, current: 7, unreadable: [] });
  });

  it("names, never shows, a value no configured key reads, and leaves it as it is", async () => {
    const foreign = keyRing(randomBytes(32));
    const unreadable = encryptSecret("fe_live_foreign", OTHER_SHOP, foreign);
    await prisma.shopSettings.update({ where: { shopDomain: OTHER_SHOP }, data: { apiKeyEncrypted: unreadable } });
    const report = await reencryptSecrets(prisma, { ring: keyRing(randomBytes(32), [TEST_KEY]) });
    expect(report.unreadable).toEqual([{ table: "ShopSettings", id: OTHER_SHOP, field: "apiKeyEncrypted" }]);
    expect(report.rewritten).toBe(6);
    expect((await prisma.shopSettings.findUniqueOrThrow({ where: { shopDomain: OTHER_SHOP } })).apiKeyEncrypted).toBe(
      unreadable,
    );
  });

  it("the command runs with the rotated configuration, and the app reads everything afterwards", async () => {
    const newKey = randomBytes(32).toString("hex");
    const environment: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      DATABASE_URL: process.env.DATABASE_URL,
      ENCRYPTION_KEY: newKey,
      ENCRYPTION_KEY_PREVIOUS: TEST_KEY,
      LOG_LEVEL: "silent",
    };
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "scripts/reencrypt-secrets.ts"],
      {
        env: environment,
        timeout: 60_000,
      },
    );
    expect(JSON.parse(stdout.trim().split("\n").pop()!)).toEqual({ rewritten: 7, current: 0, unreadable: [] });
    for (const value of await storedSecrets())
      expect(value.startsWith(`v2:${keyId(Buffer.from(newKey, "hex"))}:`)).toBe(true);
    // This process still has only the old key: it no longer reads them (the rotation really happened).
    expect(await apiKeyFor(SHOP).catch(() => "unreadable")).toBe("unreadable");
  });
});
