// A shop's permanent domain, NAME.myshopify.com: the only form the app accepts where a shop is named by an
// outside input (an address, a command-line flag) rather than by a verified session.
export const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

export function isShopDomain(value: string): boolean {
  return SHOP_DOMAIN.test(value);
}
