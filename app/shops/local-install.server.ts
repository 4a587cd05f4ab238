// Installs a shop without Shopify: its row, an offline session, and its invoicing settings. For the demo,
// the tests, and support work on a local copy (`npm run shop:setup`). Never called by the web app.
import { Session } from "@shopify/shopify-api";
import prisma from "../db.server";
import { PrismaSessions } from "../db/sessions.server";
import { EncryptedSessionStorage } from "../secrets/session-storage.server";
import { parseSettings, saveSettings, ConnectionInputSchema, type ConnectionInput } from "../settings/settings.server";
import { MappingSettingsSchema } from "../settings/schema";
import type { MappingSettingsInput } from "../settings/schema";
import { recordShop } from "./shops.server";
import { isShopDomain } from "../shopify/shop-domain";
import { TURKEY_ZONE } from "../orders/dates";

export interface LocalShopInput extends ConnectionInput {
  shop: string;
  timezone?: string;
  currency?: string;
  name?: string;
  storefrontUrl?: string;
  /** Mapping settings; by default Yurtiçi Kargo (the one carrier tax number all sources agree on) ships. */
  mapping?: MappingSettingsInput;
  /**
   * The offline session's access token: the Admin API stand-in's (`npm run shopify:standin`), a non-expiring one that
   * the app migrates to an expiring pair at its first use, as it does a real shop's from before the change. None by
   * default: a placeholder that no Shopify accepts, kept from being migrated or refreshed (it reaches no Shopify).
   */
  accessToken?: string;
  /** The scopes the session records (default read_orders). */
  scopes?: string;
}

export const LOCAL_DEFAULT_MAPPING: MappingSettingsInput = {
  defaultCarrier: { title: "Yurtiçi Kargo Servisi A.Ş.", taxNumber: "9860008925" },
  // The shop's own address, for sales without a buyer address (point of sale).
  defaultAddress: { address: "Moda Caddesi No: 12", district: "Kadıköy", city: "İstanbul", country: "Türkiye" },
};

export async function installShopLocally(input: LocalShopInput) {
  if (!isShopDomain(input.shop)) {
    throw new Error(`--shop must be a NAME.myshopify.com domain (got "${input.shop}")`);
  }
  const { shop, timezone, currency, name, storefrontUrl, mapping, accessToken, scopes, ...connection } = input;
  // Checked before anything is written: a bad value installs nothing (SettingsInvalidError says which field).
  parseSettings(ConnectionInputSchema, connection);
  parseSettings(MappingSettingsSchema, mapping ?? LOCAL_DEFAULT_MAPPING, "mapping");
  await recordShop(shop, {
    name: name ?? shop.split(".")[0],
    timezone: timezone ?? TURKEY_ZONE,
    currency: currency ?? "TRY",
    storefrontUrl: storefrontUrl ?? `https://${shop}`,
  });
  // The storage shopify.server.ts gives the library, without loading the library's configuration.
  await new EncryptedSessionStorage(new PrismaSessions(prisma)).storeSession(
    new Session({
      id: `offline_${shop}`,
      shop,
      state: "local",
      isOnline: false,
      scope: scopes ?? "read_orders",
      accessToken: accessToken ?? "local-install-no-shopify-access",
      // The placeholder "expires" in a year and has no refresh token: nothing asks Shopify for a new one.
      ...(accessToken ? {} : { expires: new Date(Date.now() + 365 * 86_400_000) }),
    }),
  );
  await saveSettings(shop, connection, mapping ?? LOCAL_DEFAULT_MAPPING);
}
