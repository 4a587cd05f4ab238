// Internet-sale data: how and when the customer paid.
import type { ShopifyOrder } from "./order";
import type { MappingSettings, PaymentMethod } from "../settings/schema";
import { foldAll, foldName } from "./text";

const GIFT_CARD = "giftcard";

/** The gateway that took the money: the first one that is not a gift card (gift cards pay, they are not a method). */
export function paymentGateway(order: ShopifyOrder): string | undefined {
  const names = [...(order.payment_gateway_names ?? []), ...(order.gateway ? [order.gateway] : [])];
  return names.find((n) => n.trim() && foldName(n) !== GIFT_CARD) ?? names.find((n) => n.trim());
}

export function paymentMethod(
  gateway: string | undefined,
  settings: MappingSettings,
): { method: PaymentMethod; known: boolean } {
  if (!gateway) return { method: "other", known: false };
  const folded = foldName(gateway);
  if (folded === GIFT_CARD) return { method: "other", known: true };
  // Stryker disable next-line Regex,MethodExpression: splitting on single separators only adds empty words, and an empty word starts with no pattern (empty patterns are skipped below), so neither the + nor the filter changes a match.
  const words = gateway
    .split(/[^\p{L}\p{N}]+/u)
    .map(foldName)
    .filter(Boolean);
  const patterns = foldAll(settings.paymentMethodMap, (e) => e.match);
  for (const [i, entry] of settings.paymentMethodMap.entries()) {
    const pattern = patterns[i];
    if (!pattern) continue;
    // Short patterns ("cod", "eft", "card") must start a word, else "cod" would match "barcode".
    const hit = pattern.length <= 4 ? words.some((w) => w.startsWith(pattern)) : folded.includes(pattern);
    if (hit) return { method: entry.method, known: true };
  }
  return { method: "other", known: false };
}
