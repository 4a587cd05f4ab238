// The invoicing service's account-level webhook (POST /api/helpers/settings-webhook). Its address carries a
// per-shop secret: `{SHOPIFY_APP_URL}/callbacks/account/{shop}/{secret}`, 32 random bytes stored encrypted
// like the API key and kept across saves, so re-registering the same address updates it (the service keys
// it on the URL) instead of piling up stale ones. Its payload is undocumented and never trusted: a call is
// only a hint (app/invoices/account-hint.server.ts).
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import prisma from "../db.server";
import { env } from "../env.server";
import { InvoicingClient } from "../invoicing-service/client";
import { InvoicingError } from "../invoicing-service/errors";
import { decryptSecret, encryptSecret } from "../secrets/crypto.server";
import { isShopDomain } from "../shopify/shop-domain";

const SECRET = /^[A-Za-z0-9_-]{43}$/;
const REGISTER_TIMEOUT_MS = 10_000;

export function accountWebhookUrl(appUrl: string, shop: string, secret: string): string {
  return `${appUrl.replace(/\/+$/, "")}/callbacks/account/${encodeURIComponent(shop)}/${secret}`;
}

/** The shop's secret, made once. Two saves at once agree on one: only a row without a secret takes a new one. */
export async function accountWebhookSecret(shop: string): Promise<string> {
  const read = async () =>
    (await prisma.shopSettings.findUnique({ where: { shopDomain: shop }, select: { accountWebhookSecret: true } }))
      ?.accountWebhookSecret;
  let stored = await read();
  if (!stored) {
    const fresh = randomBytes(32).toString("base64url");
    await prisma.shopSettings.updateMany({
      where: { shopDomain: shop, accountWebhookSecret: null },
      data: { accountWebhookSecret: encryptSecret(fresh, shop) },
    });
    stored = await read();
    if (!stored) throw new Error(`no settings row for ${shop}`);
  }
  return decryptSecret(stored, shop);
}

export type RegisterResult = { ok: true } | { ok: false; detail: string };

/** Registers (or updates: same URL) the shop's address with its invoicing account. */
export async function registerAccountWebhook(
  shop: string,
  connection: { baseUrl: string; apiKey: string },
  options: { appUrl?: string; now?: Date; client?: Pick<InvoicingClient, "saveAccountWebhook"> } = {},
): Promise<RegisterResult> {
  const url = accountWebhookUrl(options.appUrl ?? env().SHOPIFY_APP_URL, shop, await accountWebhookSecret(shop));
  const client = options.client ?? new InvoicingClient({ ...connection, timeoutMs: REGISTER_TIMEOUT_MS });
  try {
    await client.saveAccountWebhook(url);
  } catch (error) {
    return {
      ok: false,
      detail: error instanceof InvoicingError ? (error.status ? `HTTP ${error.status}` : error.kind) : "network",
    };
  }
  await prisma.shopSettings.update({
    where: { shopDomain: shop },
    data: { accountWebhookRegisteredAt: options.now ?? new Date() },
  });
  return { ok: true };
}

/** When the shop's address was last registered with the service, for the settings page. */
export async function accountWebhookRegisteredAt(shop: string): Promise<string | null> {
  const row = await prisma.shopSettings.findUnique({
    where: { shopDomain: shop },
    select: { accountWebhookRegisteredAt: true },
  });
  return row?.accountWebhookRegisteredAt?.toISOString() ?? null;
}

/** Whether `presented` is the shop's secret; compared in constant time (as digests of equal length). */
export async function verifyAccountWebhook(shop: string, presented: string): Promise<boolean> {
  if (!isShopDomain(shop) || !SECRET.test(presented)) return false;
  const row = await prisma.shopSettings.findUnique({
    where: { shopDomain: shop },
    select: { accountWebhookSecret: true },
  });
  if (!row?.accountWebhookSecret) return false;
  let expected: string;
  try {
    expected = decryptSecret(row.accountWebhookSecret, shop);
  } catch {
    return false;
  }
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
