// The app's session storage (app/db/sessions.server.ts) with the Shopify tokens encrypted at rest: every session
// the library (or `installShopLocally`) stores has its access and refresh tokens sealed with the shop as additional data
// (app/secrets/crypto.server.ts), and every session it loads has them opened again. A database copy or backup
// alone holds no usable token. The library's other reads and the app's own (scope, id) never see a token.
// docs/decisions/0025-secrets-key-rotation-and-tokens-at-rest.md
import { Session } from "@shopify/shopify-api";
import type { SessionStore } from "../db/sessions.server";
import { logger } from "../logger.server";
import { configuredKeyRing, decryptSecret, encryptSecret, isStoredSecret, type KeyRing } from "./crypto.server";

/** A token as stored: sealed; an empty one stays empty (the library stores "" for none). */
export function sealToken(token: string | undefined, shop: string, ring?: KeyRing): string | undefined {
  return token ? encryptSecret(token, shop, ring) : token;
}

/**
 * A stored token opened: a sealed one decrypted, a plain one (a row from before encryption, until the start-up
 * step or `npm run secrets:reencrypt` seals it) as it is. Throws when no configured key reads it.
 */
export function openToken(stored: string | undefined, shop: string, ring?: KeyRing): string | undefined {
  return stored && isStoredSecret(stored) ? decryptSecret(stored, shop, ring) : stored;
}

export class EncryptedSessionStorage implements SessionStore {
  constructor(
    private readonly inner: SessionStore,
    private readonly ring: () => KeyRing = () => configuredKeyRing(),
  ) {}

  storeSession(session: Session): Promise<boolean> {
    const ring = this.ring();
    return this.inner.storeSession(
      new Session({
        ...session.toObject(),
        accessToken: sealToken(session.accessToken, session.shop, ring),
        refreshToken: sealToken(session.refreshToken, session.shop, ring),
      }),
    );
  }

  async loadSession(id: string): Promise<Session | undefined> {
    const session = await this.inner.loadSession(id);
    return session && this.opened(session);
  }

  deleteSession(id: string): Promise<boolean> {
    return this.inner.deleteSession(id);
  }

  deleteSessions(ids: string[]): Promise<boolean> {
    return this.inner.deleteSessions(ids);
  }

  async findSessionsByShop(shop: string): Promise<Session[]> {
    return (await this.inner.findSessionsByShop(shop)).map((session) => this.opened(session));
  }

  private opened(session: Session): Session {
    const ring = this.ring();
    try {
      return new Session({
        ...session.toObject(),
        accessToken: openToken(session.accessToken, session.shop, ring),
        refreshToken: openToken(session.refreshToken, session.shop, ring),
      });
    } catch (error) {
      // ENCRYPTION_KEY changed without ENCRYPTION_KEY_PREVIOUS, or the row was copied from another shop: a session
      // without a token is an inactive one, which the library replaces at the next authentication (token exchange).
      logger.warn(
        { shop: session.shop, session: session.id, reason: (error as Error).message },
        "a stored Shopify token could not be decrypted",
      );
      return new Session({ ...session.toObject(), accessToken: undefined, refreshToken: undefined });
    }
  }
}
