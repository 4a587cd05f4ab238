// Shops for the multi-shop benchmarks: copies of the local stack's installed shop and its settings. One sandbox
// account answers them all; the API key is encrypted again for each shop, which its ciphertext is bound to.
import type { createDb } from "../app/db/client";
import type { LocalStack } from "../scripts/lib/local-stack";

/** The stack's shop and `count - 1` copies of it (bench-shop-N.myshopify.com), the stack's first. */
export async function cloneShops(stack: LocalStack, db: ReturnType<typeof createDb>, count: number): Promise<string[]> {
  const { decryptSecret, encryptSecret, keyRing } = await import("../app/secrets/crypto.server");
  const key = keyRing(stack.env.ENCRYPTION_KEY!);
  const shopRow = await db.shop.findUniqueOrThrow({ where: { domain: stack.shop } });
  const settings = await db.shopSettings.findUniqueOrThrow({ where: { shopDomain: stack.shop } });
  const shops = [stack.shop, ...Array.from({ length: count - 1 }, (_, k) => `bench-shop-${k + 1}.myshopify.com`)];
  await db.shop.createMany({ data: shops.slice(1).map((domain) => ({ ...shopRow, domain })) });
  const apiKey = decryptSecret(settings.apiKeyEncrypted!, stack.shop, key);
  await db.shopSettings.createMany({
    data: shops.slice(1).map((shopDomain) => ({
      ...settings,
      shopDomain,
      apiKeyEncrypted: encryptSecret(apiKey, shopDomain, key),
      mapping: settings.mapping ?? undefined,
    })),
  });
  return shops;
}
