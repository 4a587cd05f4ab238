// The Shopify library's sessions in the `Session` table: the five methods of its SessionStorage interface, in place
// of @shopify/shopify-app-session-storage-prisma, whose peer range (Prisma ^6.19) would hold the app on Prisma 6.
// Same table and columns as that package, so existing rows read unchanged; the tokens are sealed by the wrapper
// around this (app/secrets/session-storage.server.ts). docs/decisions/0036-own-session-storage.md
import type { Prisma } from "#prisma/sqlite";
import { Session, type OnlineAccessInfo } from "@shopify/shopify-api";
import type { Db } from "./client";

/** What the Shopify library asks of a session storage (shopifyApp's `sessionStorage`). */
export interface SessionStore {
  storeSession(session: Session): Promise<boolean>;
  loadSession(id: string): Promise<Session | undefined>;
  deleteSession(id: string): Promise<boolean>;
  deleteSessions(ids: string[]): Promise<boolean>;
  findSessionsByShop(shop: string): Promise<Session[]>;
}

type SessionRow = Prisma.SessionGetPayload<object>;
type SessionData = Omit<SessionRow, "id">;

/** A session as a row: the online user's fields flattened into columns, absent values as null. */
export function sessionToRow(session: Session): SessionData {
  const user = session.onlineAccessInfo?.associated_user;
  return {
    shop: session.shop,
    state: session.state,
    isOnline: session.isOnline,
    scope: session.scope || null,
    expires: session.expires ?? null,
    // The column is required; a session without a token (never the case after an authentication) stores "".
    accessToken: session.accessToken ?? "",
    userId: user?.id !== undefined && user.id !== null ? BigInt(user.id) : null,
    firstName: user?.first_name ?? null,
    lastName: user?.last_name ?? null,
    email: user?.email ?? null,
    accountOwner: user?.account_owner ?? false,
    locale: user?.locale ?? null,
    collaborator: user?.collaborator ?? false,
    emailVerified: user?.email_verified ?? false,
    refreshToken: session.refreshToken ?? null,
    refreshTokenExpires: session.refreshTokenExpires ?? null,
  };
}

/** A row as a session: only what the row holds (a missing name stays missing, never the text "null"). */
export function rowToSession(row: SessionRow): Session {
  const present = <T extends object>(value: T) =>
    Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined));
  const user = present({
    id: row.userId === null ? null : Number(row.userId),
    first_name: row.firstName,
    last_name: row.lastName,
    email: row.email,
    account_owner: row.accountOwner,
    locale: row.locale,
    collaborator: row.collaborator,
    email_verified: row.emailVerified,
  });
  return new Session({
    id: row.id,
    shop: row.shop,
    state: row.state,
    isOnline: row.isOnline,
    scope: row.scope || undefined,
    expires: row.expires ?? undefined,
    accessToken: row.accessToken || undefined,
    refreshToken: row.refreshToken || undefined,
    refreshTokenExpires: row.refreshTokenExpires ?? undefined,
    // The table keeps the associated user only (as the library's Prisma storage did), not the token's own expiry.
    onlineAccessInfo: row.isOnline ? ({ associated_user: user } as unknown as OnlineAccessInfo) : undefined,
  });
}

export class PrismaSessions implements SessionStore {
  constructor(private readonly db: Pick<Db, "session">) {}

  async storeSession(session: Session): Promise<boolean> {
    const data = sessionToRow(session);
    const upsert = () =>
      this.db.session.upsert({ where: { id: session.id }, create: { id: session.id, ...data }, update: data });
    try {
      await upsert();
    } catch (error) {
      // Two requests storing the same new session at once: the loser's insert meets the winner's row; update it.
      // (Each database has its own generated client and error class: the code is what both share.)
      if ((error as { code?: unknown } | null)?.code !== "P2002") throw error;
      await upsert();
    }
    return true;
  }

  async loadSession(id: string): Promise<Session | undefined> {
    const row = await this.db.session.findUnique({ where: { id } });
    return row ? rowToSession(row) : undefined;
  }

  async deleteSession(id: string): Promise<boolean> {
    await this.db.session.deleteMany({ where: { id } });
    return true;
  }

  async deleteSessions(ids: string[]): Promise<boolean> {
    await this.db.session.deleteMany({ where: { id: { in: ids } } });
    return true;
  }

  /** Every session of the shop, the latest expiry first (the offline one, without expiry, last). */
  async findSessionsByShop(shop: string): Promise<Session[]> {
    const rows = await this.db.session.findMany({
      where: { shop },
      orderBy: [{ expires: { sort: "desc", nulls: "last" } }, { id: "asc" }],
    });
    return rows.map(rowToSession);
  }
}
