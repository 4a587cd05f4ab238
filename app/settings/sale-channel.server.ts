// The shop's sales channel at the invoicing service. A new invoicing account has none, and until one exists
// nothing can be invoiced: the settings page offers to create it for the shop's domain and selects it.
import prisma from "../db.server";
import { InvoicingClient } from "../invoicing-service/client";
import { AuthenticationError, InvoicingError, ValidationError } from "../invoicing-service/errors";
import type { SaleChannel } from "../invoicing-service/schemas";
import { apiKeyFor, getSettings, setSaleChannel } from "./settings.server";

const TIMEOUT_MS = 10_000;

/** The host a channel was created for (its settings.domain), lower case, without scheme or path. */
export function channelDomain(channel: SaleChannel): string | null {
  const settings = (channel as { settings?: unknown }).settings;
  const domain = settings && typeof settings === "object" ? (settings as { domain?: unknown }).domain : undefined;
  if (typeof domain !== "string" || !domain.trim()) return null;
  return domain
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, "")
    .replace(/[/?#].*$/, "");
}

/** The shop's own addresses: its myshopify domain, and the storefront's host when it has another one. */
export async function shopHosts(shop: string): Promise<string[]> {
  const row = await prisma.shop.findUnique({ where: { domain: shop }, select: { storefrontUrl: true } });
  const hosts = [shop.toLowerCase()];
  try {
    if (row?.storefrontUrl) hosts.push(new URL(row.storefrontUrl).host.toLowerCase());
  } catch {
    // not a URL: the myshopify domain is enough
  }
  return hosts;
}

/** The channel made for this shop, if the account has one. */
export function channelForShop<T extends SaleChannel>(channels: T[], hosts: string[]): T | undefined {
  return channels.find((channel) => {
    const domain = channelDomain(channel);
    return domain !== null && hosts.includes(domain);
  });
}

export type SaleChannelResult =
  | { ok: true; id: number; name: string; created: boolean }
  | { ok: false; code: "no_api_key" | "api_key_rejected" | "rejected" | "unavailable"; detail?: string };

/**
 * Selects the account's channel for this shop, creating it first when there is none. Listing first keeps a
 * repeated click (or a retry after a lost answer) from creating a second channel.
 */
export async function ensureSaleChannel(shop: string): Promise<SaleChannelResult> {
  const settings = await getSettings(shop);
  const apiKey = settings.hasApiKey ? await apiKeyFor(shop) : null;
  if (!apiKey) return { ok: false, code: "no_api_key" };
  const client = new InvoicingClient({ baseUrl: settings.baseUrl, apiKey, timeoutMs: TIMEOUT_MS });
  try {
    const existing = channelForShop(await client.listSaleChannels(), await shopHosts(shop));
    const channel = existing ?? (await client.createSaleChannel(shop));
    await setSaleChannel(shop, Number(channel.id));
    return { ok: true, id: Number(channel.id), name: channel.name || shop, created: !existing };
  } catch (error) {
    if (error instanceof AuthenticationError) return { ok: false, code: "api_key_rejected" };
    if (error instanceof ValidationError)
      return { ok: false, code: "rejected", detail: error.serviceMessage ?? undefined };
    if (error instanceof InvoicingError)
      return { ok: false, code: "unavailable", detail: error.status ? `HTTP ${error.status}` : error.kind };
    return { ok: false, code: "unavailable", detail: "network" };
  }
}
