// Rewrites the secrets stored in the database under the current key (`npm run secrets:reencrypt`, after a rotation
// of ENCRYPTION_KEY), and seals the Shopify tokens stored in clear by versions before encryption (also at every
// worker's start, `sealPlainTokens`). Each row is rewritten only if it still holds the value read, so a save or an
// authentication at the same moment is never overwritten. A value no configured key reads is counted and left.
// docs/decisions/0025-secrets-key-rotation-and-tokens-at-rest.md
import type { Db } from "../db/client";
import {
  configuredKeyRing,
  decryptSecret,
  encryptSecret,
  isCurrentSecret,
  isStoredSecret,
  type KeyRing,
} from "./crypto.server";

export interface ReencryptReport {
  /** Values written again under the current key (or sealed for the first time). */
  rewritten: number;
  /** Values already under the current key. */
  current: number;
  /** Values no configured key reads: where they are, never what. */
  unreadable: Array<{ table: "ShopSettings" | "Session"; id: string; field: string }>;
}

const PAGE = 500;
const SETTINGS_FIELDS = ["apiKeyEncrypted", "accountWebhookSecret"] as const;
const TOKEN_FIELDS = ["accessToken", "refreshToken"] as const;

interface Options {
  ring?: KeyRing;
  /** Only tokens stored in clear (the start-up step): what is encrypted already is left as it is. */
  plainTokensOnly?: boolean;
}

/** One value's new stored form, or null when it stays. */
function rewrite(
  value: string | null,
  shop: string,
  ring: KeyRing,
  plain: boolean,
  report: ReencryptReport,
  where: ReencryptReport["unreadable"][number],
): string | null {
  if (!value) return null;
  if (plain) {
    // A token from before encryption: sealed as it is.
    if (isStoredSecret(value)) return null;
    report.rewritten += 1;
    return encryptSecret(value, shop, ring);
  }
  if (isCurrentSecret(value, ring)) {
    report.current += 1;
    return null;
  }
  try {
    const next = encryptSecret(decryptSecret(value, shop, ring), shop, ring);
    report.rewritten += 1;
    return next;
  } catch {
    report.unreadable.push(where);
    return null;
  }
}

export async function reencryptSecrets(db: Db, options: Options = {}): Promise<ReencryptReport> {
  const ring = options.ring ?? configuredKeyRing();
  const report: ReencryptReport = { rewritten: 0, current: 0, unreadable: [] };
  const tokensOnly = options.plainTokensOnly ?? false;

  if (!tokensOnly) {
    for (let cursor: string | undefined; ;) {
      const rows = await db.shopSettings.findMany({
        select: { shopDomain: true, apiKeyEncrypted: true, accountWebhookSecret: true },
        ...(cursor ? { where: { shopDomain: { gt: cursor } } } : {}),
        orderBy: { shopDomain: "asc" },
        take: PAGE,
      });
      for (const row of rows) {
        for (const field of SETTINGS_FIELDS) {
          const next = rewrite(row[field], row.shopDomain, ring, false, report, {
            table: "ShopSettings",
            id: row.shopDomain,
            field,
          });
          if (next)
            await db.shopSettings.updateMany({
              where: { shopDomain: row.shopDomain, [field]: row[field] },
              data: { [field]: next },
            });
        }
      }
      if (rows.length < PAGE) break;
      cursor = rows[rows.length - 1].shopDomain;
    }
  }

  for (let cursor: string | undefined; ;) {
    const rows = await db.session.findMany({
      select: { id: true, shop: true, accessToken: true, refreshToken: true },
      where: {
        ...(cursor ? { id: { gt: cursor } } : {}),
        // The start-up step reads only rows with a token in clear (or none).
        ...(tokensOnly
          ? { NOT: [{ accessToken: { startsWith: "v2:" } }, { accessToken: { startsWith: "v1:" } }] }
          : {}),
      },
      orderBy: { id: "asc" },
      take: PAGE,
    });
    for (const row of rows) {
      for (const field of TOKEN_FIELDS) {
        const value = row[field];
        const plain = Boolean(value) && !isStoredSecret(value!);
        const next = rewrite(value, row.shop, ring, tokensOnly || plain, report, {
          table: "Session",
          id: row.id,
          field,
        });
        if (next) await db.session.updateMany({ where: { id: row.id, [field]: value }, data: { [field]: next } });
      }
    }
    if (rows.length < PAGE) break;
    cursor = rows[rows.length - 1].id;
  }
  return report;
}

/** The start-up step: tokens stored in clear by an earlier version are sealed under the current key. */
export function sealPlainTokens(db: Db, ring?: KeyRing): Promise<ReencryptReport> {
  return reencryptSecrets(db, { ring, plainTokensOnly: true });
}
