// The cart block (extensions/invoice-details) as the settings page shows it: where to add it in the theme editor,
// and whether it is at work: how many of the shop's recent orders carry invoice details as note attributes.
import prisma from "../db.server";
import { zoneOrTurkey } from "../orders/dates";
import { env } from "../env.server";
import type { MappingSettings } from "../settings/schema";
import { foldName } from "../orders/text";

/** How many of the newest real (not test) invoices the page looks at. */
export const RECENT_ORDERS = 30;
/** The block's handle: its file name under extensions/invoice-details/blocks. */
export const BLOCK_HANDLE = "invoice-details";

export interface CartBlockUsage {
  /** Recent orders looked at. */
  recent: number;
  /** Of those, orders with a tax number, citizen number, tax office or company title attribute. */
  withDetails: number;
  /** When the newest of those was placed (ISO), or null. */
  latestAt: string | null;
}

/** Shopify's theme editor on the cart template, opened to add the block to the cart's main section. */
export function themeEditorUrl(shop: string, appClientId: string): string {
  const query = new URLSearchParams({
    template: "cart",
    addAppBlockId: `${appClientId}/${BLOCK_HANDLE}`,
    target: "mainSection",
  });
  return `https://${shop}/admin/themes/current/editor?${query}`;
}

export async function cartBlockUsage(shop: string, mapping: MappingSettings): Promise<CartBlockUsage> {
  const rows = await prisma.invoice.findMany({
    where: { shopDomain: shop, isTest: false },
    orderBy: { createdAt: "desc" },
    take: RECENT_ORDERS,
    select: { orderSnapshot: true, orderCreatedAt: true },
  });
  const names = new Set(
    [
      ...mapping.taxNumberAttributes,
      ...mapping.citizenNumberAttributes,
      ...mapping.taxOfficeAttributes,
      ...mapping.companyTitleAttributes,
    ].map(foldName),
  );
  let withDetails = 0;
  let latestAt: string | null = null;
  for (const row of rows) {
    const attributes = (row.orderSnapshot as { note_attributes?: unknown } | null)?.note_attributes;
    const carries =
      Array.isArray(attributes) &&
      attributes.some(
        (attribute: { name?: unknown; value?: unknown } | null) =>
          typeof attribute?.name === "string" &&
          names.has(foldName(attribute.name)) &&
          String(attribute.value ?? "").trim() !== "",
      );
    if (!carries) continue;
    withDetails += 1;
    latestAt ??= row.orderCreatedAt.toISOString();
  }
  return { recent: rows.length, withDetails, latestAt };
}

/** Everything the settings page's cart block section shows. */
export async function loadCartBlock(shop: string, mapping: MappingSettings) {
  const [usage, row] = await Promise.all([
    cartBlockUsage(shop, mapping),
    prisma.shop.findUnique({ where: { domain: shop }, select: { timezone: true } }),
  ]);
  return {
    usage,
    editorUrl: themeEditorUrl(shop, env().SHOPIFY_API_KEY),
    timezone: zoneOrTurkey(row?.timezone),
    names: [
      mapping.citizenNumberAttributes[0],
      mapping.taxNumberAttributes[0],
      mapping.taxOfficeAttributes[0],
      mapping.companyTitleAttributes[0],
    ].filter((name): name is string => Boolean(name)),
  };
}
