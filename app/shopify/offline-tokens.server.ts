// A shop's offline access token, valid whenever the app calls Shopify without a merchant present (the worker,
// reconciliation, past orders, bulk reads, B2B reads, the write-back) and when the library loads the offline session
// for an admin request. docs/decisions/0044-expiring-offline-tokens.md
// - Expiring tokens live an hour and their refresh token rotates on every use, so the refresh is a read, a request to
//   Shopify and a write that must not interleave with another one for the same shop: one refresher per shop at a
//   time, in this process (a promise chain) and, on PostgreSQL, across processes (an advisory lock held by the
//   transaction that re-reads the session, asks Shopify and stores the answer). A process that waited reads the new
//   token instead of refreshing again.
// - A non-expiring token (an install from before the change) is exchanged for an expiring pair the first time it is
//   needed; shops nobody opens are migrated by the worker's token step (cycleOfflineTokens).
// - A crash between Shopify's answer and the store rolls the transaction back: the stored refresh token is the one
//   just used, which Shopify keeps accepting until its replacement is first used (changelog, 28 August 2026), so the
//   next refresh succeeds. Tested in test/shopify/offline-tokens.db.test.ts.
// - A refresh Shopify refuses (revoked, expired, uninstalled) marks the shop's connection as lost
//   (Shop.shopifyConnectionLostAt); every later call fails at once with AdminApiError("reconnect") instead of asking
//   Shopify again, until the merchant opens the app and the library's token exchange stores a new token.
import { Session } from "@shopify/shopify-api";
import prisma, { dbProvider } from "../db.server";
import { PrismaSessions, type SessionStore } from "../db/sessions.server";
import { env } from "../env.server";
import { logger } from "../logger.server";
import { EncryptedSessionStorage } from "../secrets/session-storage.server";
import { AdminApiError } from "./errors";
import { offlineSessionId, requestOfflineToken, TokenRequestError, type TokenGrant } from "./token-endpoint.server";

export interface OfflineTokenOptions {
  /** An Admin API call was answered 401 with this token: replace it (unless another process already did). */
  rejected?: string;
  /** How long before expiry a token is replaced (default SHOPIFY_TOKEN_REFRESH_MARGIN_SECONDS). */
  marginMs?: number;
  /** Shopify's token endpoint (tests replace it). */
  request?: (shop: string, grant: TokenGrant) => Promise<Session>;
  now?: () => number;
}

type Renewal =
  | { kind: "ok"; session: Session; grant?: TokenGrant["grant"] }
  | { kind: "no_session" }
  | { kind: "lost" }
  | { kind: "refused"; reason: string }
  | { kind: "unavailable"; message: string };

/** What the worker's token step did (cycleOfflineTokens). */
export interface TokenCycle {
  migrated: number;
  refreshed: number;
  failed: number;
}

const sessions = () => new EncryptedSessionStorage(new PrismaSessions(prisma));
const refreshMarginMs = () => env().SHOPIFY_TOKEN_REFRESH_MARGIN_SECONDS * 1000;

/** Usable for the next `margin` ms: expiring, not expiring soon. A non-expiring token is never (it is migrated). */
function usable(session: Session, margin: number, now: number): boolean {
  return Boolean(session.accessToken && session.expires && session.expires.getTime() - now > margin);
}

/**
 * The shop's offline session with an access token valid for at least the margin, refreshed or migrated if need be.
 * Throws AdminApiError: `no_session` (not installed), `reconnect` (Shopify refused the refresh: the merchant must
 * open the app), `unavailable` (Shopify's token endpoint did not answer; try again later).
 */
export async function offlineSession(shop: string, options: OfflineTokenOptions = {}): Promise<Session> {
  const now = options.now ?? Date.now;
  const margin = options.marginMs ?? refreshMarginMs();
  if (!options.rejected) {
    const stored = await sessions().loadSession(offlineSessionId(shop));
    if (!stored?.accessToken)
      throw new AdminApiError("no_session", `${shop} has no offline session (is the app installed?)`);
    if (usable(stored, margin, now())) return stored;
  }
  const renewal = await withTokenLock(shop, (store) => renew(shop, store, options, margin, now));
  switch (renewal.kind) {
    case "ok":
      return renewal.session;
    case "no_session":
      throw new AdminApiError("no_session", `${shop} has no offline session (is the app installed?)`);
    case "lost":
      throw new AdminApiError("reconnect", `Shopify's connection to ${shop} was lost: the merchant must open the app`);
    case "refused":
      await markConnectionLost(shop, renewal.reason, new Date(now()));
      throw new AdminApiError(
        "reconnect",
        `Shopify refused ${shop}'s token (${renewal.reason}): the merchant must open the app`,
      );
    case "unavailable":
      throw new AdminApiError("unavailable", renewal.message);
  }
}

/** Inside the shop's token lock: read again, and replace the token only if it still needs it. */
async function renew(
  shop: string,
  store: SessionStore,
  options: OfflineTokenOptions,
  margin: number,
  now: () => number,
): Promise<Renewal> {
  const session = await store.loadSession(offlineSessionId(shop));
  if (!session?.accessToken) return { kind: "no_session" };
  // Another process (or an earlier caller here) may have replaced it while this one waited for the lock.
  const replaced = options.rejected !== undefined && session.accessToken !== options.rejected;
  if ((options.rejected === undefined || replaced) && usable(session, margin, now())) return { kind: "ok", session };
  if (await connectionLost(shop)) return { kind: "lost" };

  if (!session.expires && !options.rejected && (postponed.get(shop) ?? 0) > now()) return { kind: "ok", session };
  const grant: TokenGrant | null = !session.expires
    ? { grant: "migrate", nonExpiringToken: session.accessToken }
    : session.refreshToken
      ? { grant: "refresh", refreshToken: session.refreshToken }
      : null;
  if (!grant) return { kind: "refused", reason: "no refresh token stored" };
  try {
    const next = await (options.request ?? requestOfflineToken)(shop, grant);
    await store.storeSession(next);
    logger.info({ shop, grant: grant.grant, expires: next.expires?.toISOString() }, "offline token renewed");
    return { kind: "ok", session: next, grant: grant.grant };
  } catch (error) {
    if (!(error instanceof TokenRequestError)) throw error;
    // A non-expiring token still works until Shopify stops taking it: a migration that cannot be done now (Shopify
    // unreachable, the app's request refused) leaves the shop on it rather than without access.
    if (grant.grant === "migrate" && error.kind !== "refused" && !options.rejected) {
      postponed.set(shop, now() + MIGRATION_RETRY_MS);
      logger.warn({ shop, code: error.code, reason: error.message }, "offline token migration postponed");
      return { kind: "ok", session };
    }
    if (error.kind === "refused") {
      // Replaced meanwhile by a request that holds no lock of ours (the library's token exchange, another process on
      // SQLite): the stored token is good, nothing is lost.
      const now = await store.loadSession(offlineSessionId(shop));
      if (now?.accessToken && now.accessToken !== session.accessToken) return { kind: "ok", session: now };
      logger.warn({ shop, grant: grant.grant, code: error.code }, "Shopify refused the shop's offline token");
      return { kind: "refused", reason: error.code };
    }
    logger.warn({ shop, grant: grant.grant, code: error.code, reason: error.message }, "offline token renewal failed");
    return { kind: "unavailable", message: error.message };
  }
}

/** A migration that could not be done is not tried again by every call: once per MIGRATION_RETRY_MS per process. */
const MIGRATION_RETRY_MS = 5 * 60_000;
const postponed = new Map<string, number>();

const shopLocks = new Map<string, Promise<unknown>>();

/**
 * One renewal per shop at a time: queued behind this process's earlier one, then (PostgreSQL) behind every other
 * process's, with the session read and written inside the transaction that holds the advisory lock.
 */
export async function withTokenLock<T>(shop: string, work: (store: SessionStore) => Promise<T>): Promise<T> {
  const before = shopLocks.get(shop) ?? Promise.resolve();
  const run = before.catch(() => undefined).then(() => acrossProcesses(shop, work));
  shopLocks.set(shop, run);
  try {
    return await run;
  } finally {
    if (shopLocks.get(shop) === run) shopLocks.delete(shop);
  }
}

function acrossProcesses<T>(shop: string, work: (store: SessionStore) => Promise<T>): Promise<T> {
  // SQLite is the embedded default: one process, so the in-process queue is the lock.
  if (dbProvider() !== "postgresql") return work(sessions());
  return prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`offline-token:${shop}`}))`;
      return work(new EncryptedSessionStorage(new PrismaSessions(tx)));
    },
    // The token request inside is bounded (3 tries of 10 s); waiting for another process's renewal is too.
    { maxWait: 15_000, timeout: 60_000 },
  );
}

async function connectionLost(shop: string): Promise<boolean> {
  const row = await prisma.shop.findUnique({ where: { domain: shop }, select: { shopifyConnectionLostAt: true } });
  return Boolean(row?.shopifyConnectionLostAt);
}

async function markConnectionLost(shop: string, reason: string, at: Date): Promise<void> {
  await prisma.shop.updateMany({
    where: { domain: shop, uninstalledAt: null, shopifyConnectionLostAt: null },
    data: {
      shopifyConnectionLostAt: at,
      shopifyConnectionLastLostAt: at,
      shopifyConnectionLostReason: reason.slice(0, 100),
    },
  });
}

/** The shop's connection is back (a new token stored): the mark goes; answers whether there was one. */
async function markConnectionRestored(shop: string): Promise<boolean> {
  const restored = await prisma.shop.updateMany({
    where: { domain: shop, shopifyConnectionLostAt: { not: null } },
    data: { shopifyConnectionLostAt: null, shopifyConnectionRestoredAt: new Date() },
  });
  if (restored.count > 0) logger.info({ shop }, "Shopify connection restored by a new offline token");
  return restored.count > 0;
}

/**
 * The session storage the library is given (shopify.server.ts): the sealed sessions, with the offline one kept
 * valid by the app. Loading it renews it first when need be (offlineSession), and hands it to the library without
 * its expiry: renewing is the app's, under its lock, and the library would otherwise exchange the page's session
 * token for a new pair whenever less than its own 5 minutes are left, revoking the tokens other processes are using
 * and refreshing. When the shop's connection is lost it is answered without a token, so the library gets a new one
 * by token exchange (the merchant is there). Storing one (that exchange) takes the shop's token lock, and a lost
 * connection is restored: `onRestored` resumes the work that waited for it.
 *
 * A page's document request runs its loaders at once (the layout's and the page's), each authenticating: only the
 * first is sent to exchange; the others wait for the token it stores. Two exchanges would each replace the other's
 * token (Shopify keeps one expiring token per shop), and the loader holding the first would be refused.
 */
export class OfflineTokenStorage implements SessionStore {
  /** Shops whose token the library is exchanging in this process: settled when it is stored (or after a while). */
  private readonly exchanging = new Map<string, { settled: Promise<void>; settle: () => void }>();

  constructor(
    private readonly inner: SessionStore,
    private readonly onRestored: (shop: string) => Promise<void> = async () => undefined,
    private readonly exchangeWaitMs = 10_000,
  ) {}

  async loadSession(id: string): Promise<Session | undefined> {
    const answer = await this.renewed(id);
    if (answer?.accessToken || !id.startsWith("offline_") || answer?.isOnline) return answer;
    // The library is to exchange the page's session token: once per shop at a time.
    const shop = id.slice("offline_".length);
    const pending = this.exchanging.get(shop);
    if (!pending) {
      let settle = () => undefined as void;
      const settled = new Promise<void>((resolve) => {
        settle = resolve;
        setTimeout(resolve, this.exchangeWaitMs).unref?.();
      }).finally(() => {
        if (this.exchanging.get(shop)?.settled === settled) this.exchanging.delete(shop);
      });
      this.exchanging.set(shop, { settled, settle });
      return answer;
    }
    await pending.settled;
    // The exchange stored a token: this loader uses it. Otherwise (it failed) the library exchanges here too.
    return (await this.renewed(id)) ?? answer;
  }

  /** The stored offline session made valid (offlineSession), without its expiry; tokenless when one is to be exchanged. */
  private async renewed(id: string): Promise<Session | undefined> {
    const stored = await this.inner.loadSession(id);
    // Without a token (none stored, or one no configured key opens) the library exchanges the page's session token.
    if (!stored?.accessToken || stored.isOnline || id !== offlineSessionId(stored.shop)) return stored;
    try {
      const valid = await offlineSession(stored.shop);
      return new Session({ ...valid.toObject(), expires: undefined });
    } catch (error) {
      if (!(error instanceof AdminApiError)) throw error;
      if (error.kind === "no_session") return undefined;
      if (error.kind === "reconnect") return new Session({ ...stored.toObject(), accessToken: undefined });
      return stored; // Shopify's token endpoint did not answer: the library decides with what is stored.
    }
  }

  async storeSession(session: Session): Promise<boolean> {
    if (session.isOnline) return this.inner.storeSession(session);
    await withTokenLock(session.shop, (store) => store.storeSession(session));
    if (session.accessToken && (await markConnectionRestored(session.shop))) await this.onRestored(session.shop);
    if (session.accessToken) this.exchanging.get(session.shop)?.settle();
    return true;
  }

  deleteSession(id: string): Promise<boolean> {
    return this.inner.deleteSession(id);
  }

  deleteSessions(ids: string[]): Promise<boolean> {
    return this.inner.deleteSessions(ids);
  }

  findSessionsByShop(shop: string): Promise<Session[]> {
    return this.inner.findSessionsByShop(shop);
  }
}

/**
 * The worker's token step: every installed shop still on a non-expiring token is migrated, and a shop nobody used
 * for a while (its access token expired) whose refresh token ends within `refreshWithinMs` is refreshed, so its grant
 * does not lapse unseen. One shop's failure does not stop the others.
 */
export async function cycleOfflineTokens(
  options: Pick<OfflineTokenOptions, "request" | "now"> & { refreshWithinMs?: number } = {},
): Promise<TokenCycle> {
  const now = new Date((options.now ?? Date.now)());
  const refreshBefore = new Date(now.getTime() + (options.refreshWithinMs ?? 7 * 86_400_000));
  const due = await prisma.session.findMany({
    where: {
      isOnline: false,
      OR: [{ expires: null }, { expires: { lt: now }, refreshTokenExpires: { lt: refreshBefore } }],
    },
    select: { shop: true, expires: true },
  });
  const installed = new Set(
    (
      await prisma.shop.findMany({
        where: { domain: { in: due.map((s) => s.shop) }, uninstalledAt: null, shopifyConnectionLostAt: null },
        select: { domain: true },
      })
    ).map((s) => s.domain),
  );
  const cycle: TokenCycle = { migrated: 0, refreshed: 0, failed: 0 };
  for (const { shop, expires } of due) {
    if (!installed.has(shop)) continue;
    try {
      const session = await offlineSession(shop, { ...options, marginMs: 0, rejected: undefined });
      // Still non-expiring: the migration was postponed (logged); it is tried again at the next step.
      if (!session.expires) cycle.failed++;
      else if (expires) cycle.refreshed++;
      else cycle.migrated++;
    } catch (error) {
      cycle.failed++;
      logger.warn({ shop, err: error }, "the token step could not renew a shop's offline token");
    }
  }
  if (cycle.migrated || cycle.refreshed || cycle.failed) logger.info(cycle, "offline tokens cycled");
  return cycle;
}
