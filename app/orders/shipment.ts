// The carrier and delivery date that an internet sale of shipped goods must carry on an e-archive invoice.
import type { ShopifyOrder } from "./order";
import { problem, type Problem } from "../problems";
import type { Carrier, MappingSettings } from "../settings/schema";
import { clean, foldName } from "./text";

const foldedTables = new WeakMap<object, Array<readonly [string, Carrier]>>();
import { dateIn } from "./dates";

export interface InvoiceShipment {
  company_title: string;
  company_tax_number: string;
  delivery_date: string;
}

/** The carrier of a tracking-company name: exact folded name first, then a table name contained in it. */
export function findCarrier(trackingCompany: string, table: Record<string, Carrier>): Carrier | undefined {
  const folded = foldName(trackingCompany);
  if (!folded) return undefined;
  let entries = foldedTables.get(table);
  if (!entries) {
    entries = Object.entries(table).map(([name, carrier]) => [foldName(name), carrier] as const);
    foldedTables.set(table, entries);
  }
  const exact = entries.find(([name]) => name === folded);
  if (exact) return exact[1];
  // The longest contained name wins, so "DHL eCommerce" beats a plain "DHL".
  const contained = entries
    .filter(([name]) => name.length >= 3 && folded.includes(name))
    .sort((a, b) => b[0].length - a[0].length);
  return contained[0]?.[1];
}

export function mapShipment(
  order: ShopifyOrder,
  settings: MappingSettings,
  zone: string,
  issueDate: string,
): { shipment?: InvoiceShipment; errors: Problem[]; warnings: Problem[] } {
  const fulfillments = (order.fulfillments ?? []).filter(
    (f) => !["cancelled", "error", "failure"].includes(f.status ?? ""),
  );
  const tracked = fulfillments.find((f) => clean(f.tracking_company));
  const trackingCompany = clean(tracked?.tracking_company);
  const fulfilledOn = dateIn((tracked ?? fulfillments[0])?.created_at, zone);
  // Delivered (handed to the carrier) when fulfilled; not yet fulfilled: the invoicing date.
  const deliveryDate = fulfilledOn && fulfilledOn <= issueDate ? fulfilledOn : issueDate;

  let carrier = trackingCompany ? findCarrier(trackingCompany, settings.carriers) : undefined;
  const warnings: Problem[] = [];
  if (!carrier && settings.defaultCarrier) {
    carrier = settings.defaultCarrier;
    if (trackingCompany)
      warnings.push(problem("shipment.unknown_carrier", { trackingCompany, carrier: carrier.title }, "warning"));
  }
  if (!carrier)
    return { errors: [problem("shipment.no_carrier", { trackingCompany: trackingCompany ?? "-" })], warnings };
  return {
    shipment: {
      company_title: carrier.title.slice(0, 255),
      company_tax_number: carrier.taxNumber,
      delivery_date: deliveryDate,
    },
    errors: [],
    warnings,
  };
}
