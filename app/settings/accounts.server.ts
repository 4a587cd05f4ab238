// Test and live accounts checked against the service's own list (app/settings/accounts.ts says what is refused):
// when the settings are saved (app/settings/page.server.ts), for every shop's stored settings when a worker
// starts, and before every post (the form alone is not enough: stored settings predate the check, and a panel can
// change an account). What is found is kept on the shop's settings (accountProblem) and shown on the home page.
import prisma from "../db.server";
import { InvoicingClient } from "../invoicing-service/client";
import { logger } from "../logger.server";
import {
  accountErrors,
  accountKindOf,
  postRefusal,
  type AccountKind,
  type AccountProblem,
  type KnownAccount,
} from "./accounts";
import { decryptSecret } from "../secrets/crypto.server";
import type { Connection } from "./settings.server";

const defaultLister = (service: { baseUrl: string; apiKey: string }): AccountLister =>
  new InvoicingClient({ ...service, timeoutMs: 10_000 });

export interface AccountLister {
  listInvoiceIntegrations(): Promise<Array<{ id: number | string; name?: string; is_test?: unknown }>>;
}

/** The account's invoice accounts with their kind; throws what the client throws. */
export async function listAccounts(client: AccountLister): Promise<Array<KnownAccount & { name: string }>> {
  const items = await client.listInvoiceIntegrations();
  return items.map((item) => ({ id: Number(item.id), name: item.name || `#${item.id}`, kind: accountKindOf(item) }));
}

/** Stores what a check found for the shop (null: nothing wrong). */
export async function setAccountProblem(shop: string, problem: AccountProblem | null): Promise<void> {
  await prisma.shopSettings.updateMany({ where: { shopDomain: shop }, data: { accountProblem: problem } });
}

// Before a post: the kind of the account posted to, read at most every few minutes per shop, address and account.
const KIND_FRESH_MS = 5 * 60_000;
const kinds = new Map<string, { kind: AccountKind; at: number }>();
/**
 * The listings under way, by the same key: the posts that need one while it is read wait for it rather than each
 * asking the service (a worker's slots all reached this at once after its start: 16 identical listings).
 */
const listings = new Map<string, Promise<AccountKind | null>>();

/** Forgets what was read for a shop (its settings were saved); a listing under way is not kept either. */
export function forgetAccountKinds(shop: string): void {
  for (const key of kinds.keys()) if (key.startsWith(`${shop}|`)) kinds.delete(key);
  for (const key of listings.keys()) if (key.startsWith(`${shop}|`)) listings.delete(key);
}

/** The kind of the account `connection` posts to, read from the service (null: the list could not be read). */
function listKind(key: string, shop: string, connection: Connection, client: AccountLister, now: number) {
  const listing: Promise<AccountKind | null> = listAccounts(client).then(
    (accounts) => {
      const kind = accounts.find((a) => a.id === connection.invoiceIntegrationId)?.kind ?? "unknown";
      // Forgotten meanwhile (the settings were saved): what was read belongs to the old settings.
      if (listings.get(key) === listing) kinds.set(key, { kind, at: now });
      return kind;
    },
    (error: unknown) => {
      logger.warn({ shop, err: (error as Error).message }, "invoice accounts could not be listed before posting");
      return null;
    },
  );
  listings.set(key, listing);
  void listing.finally(() => listings.get(key) === listing && listings.delete(key));
  return listing;
}

/**
 * Whether this post may go to the account it is addressed to: null, or why not. A list that cannot be read (or a
 * client that cannot list) says nothing, and the post goes on: the service then answers the post itself.
 */
export async function postAccountRefusal(
  shop: string,
  connection: Connection,
  client: Partial<AccountLister>,
  now = Date.now(),
): Promise<AccountProblem | null> {
  const key = `${shop}|${connection.baseUrl}|${connection.invoiceIntegrationId}`;
  let known = kinds.get(key);
  if (!known || now - known.at > KIND_FRESH_MS) {
    if (!client.listInvoiceIntegrations) return null;
    const listed = await (listings.get(key) ?? listKind(key, shop, connection, client as AccountLister, now));
    if (listed === null) return null;
    known = { kind: listed, at: now };
  }
  const refusal = postRefusal(known.kind, connection.testMode);
  if (refusal) await setAccountProblem(shop, refusal);
  return refusal;
}

/** Shops whose accounts the start-up check asks their service for at once. */
export const CHECK_LANES = 8;

/**
 * Every shop's stored choice of accounts against the service's list, once when a worker starts: settings saved
 * before the check existed (or changed in the panel since) show as a problem on the home page before any post.
 */
export async function checkStoredAccounts(
  clientFor: (service: { baseUrl: string; apiKey: string }) => AccountLister = defaultLister,
): Promise<number> {
  const rows = await prisma.shopSettings.findMany({
    where: {
      apiKeyEncrypted: { not: null },
      OR: [{ invoiceIntegrationId: { not: null } }, { dummyIntegrationId: { not: null } }],
      shop: { uninstalledAt: null },
    },
    select: {
      shopDomain: true,
      baseUrl: true,
      apiKeyEncrypted: true,
      invoiceIntegrationId: true,
      dummyIntegrationId: true,
    },
  });
  let found = 0;
  let next = 0;
  let cannotList = false;
  // CHECK_LANES shops at a time: one slow or unreachable service (10 s timeout) holds one lane, not every shop after it.
  const lane = async () => {
    while (!cannotList && next < rows.length) {
      const row = rows[next++];
      try {
        const client = clientFor({ baseUrl: row.baseUrl, apiKey: decryptSecret(row.apiKeyEncrypted!, row.shopDomain) });
        if (typeof client.listInvoiceIntegrations !== "function") {
          cannotList = true; // a client that cannot list (a test's)
          return;
        }
        const accounts = await listAccounts(client);
        const errors = accountErrors(accounts, {
          invoiceIntegrationId: row.invoiceIntegrationId,
          dummyIntegrationId: row.dummyIntegrationId,
        });
        const problem = errors.invoiceIntegrationId ?? errors.dummyIntegrationId ?? null;
        await setAccountProblem(row.shopDomain, problem);
        if (problem) found += 1;
      } catch (error) {
        logger.warn(
          { shop: row.shopDomain, err: (error as Error).message },
          "stored invoice accounts could not be checked",
        );
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CHECK_LANES, rows.length) }, lane));
  return found;
}
