// Which currency the invoice is in, and its rate to TRY, taken from the order's own amounts.
import { Decimal, dec } from "../invoicing-service/money";
import type { ShopifyMoneySet, ShopifyOrder } from "./order";
import type { MappingSettings } from "../settings/schema";

export type AmountSide = "shop_money" | "presentment_money";

export type CurrencyChoice =
  { ok: true; currency: string; rate: Decimal; side: AmountSide } | { ok: false; currency: string };

/**
 * Shop currency by default. In the customer's (presentment) currency, the rate to TRY is the order's
 * shop total over its presentment total: exactly what Shopify converted at. Either way the rate must lead
 * to TRY, so a non-TRY shop currency without a TRY side cannot be invoiced automatically.
 */
export function chooseCurrency(order: ShopifyOrder, settings: MappingSettings): CurrencyChoice {
  const shop = order.currency.toUpperCase();
  const presentment = (order.presentment_currency ?? shop).toUpperCase();
  if (settings.invoiceCurrency === "presentment" && presentment !== shop) {
    if (shop !== "TRY") return { ok: false, currency: presentment };
    const set = order.total_price_set;
    const shopTotal = dec(set?.shop_money.amount);
    const presentmentTotal = dec(set?.presentment_money.amount);
    if (!set || shopTotal.lte(0) || presentmentTotal.lte(0)) return { ok: false, currency: presentment };
    return {
      ok: true,
      currency: presentment,
      rate: shopTotal.div(presentmentTotal).toDecimalPlaces(6, Decimal.ROUND_HALF_UP),
      side: "presentment_money",
    };
  }
  if (shop !== "TRY") return { ok: false, currency: shop };
  return { ok: true, currency: shop, rate: new Decimal(1), side: "shop_money" };
}

/** The amount on the chosen side; null when the presentment side is asked for and the order lacks it. */
export function pick(plain: string, set: ShopifyMoneySet | null | undefined, side: AmountSide): Decimal | null {
  if (side === "shop_money") return dec(plain);
  return set ? dec(set.presentment_money.amount) : null;
}
