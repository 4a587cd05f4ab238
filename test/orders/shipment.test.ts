// The carrier and delivery date of a shipped internet sale (app/orders/shipment.ts). The invoicing service
// (shared spec, "shipment object") needs the carrier's title (at most 255 characters) and tax number, and the
// delivery date as Y-m-d; the e-archive rules want the carrier that took the goods. Shopify's fulfillments carry
// `tracking_company`, `status` (pending, open, success, cancelled, error, failure) and `created_at` with an offset.
import { describe, expect, it } from "vitest";
import { ShopifyOrderSchema } from "../../app/orders/order";
import { findCarrier, mapShipment } from "../../app/orders/shipment";
import { defaultCarriers, defaultMappingSettings, type Carrier, type MappingSettings } from "../../app/settings/schema";

type Fulfillment = { status?: string | null; created_at?: string | null; tracking_company?: string | null };

const order = (fulfillments?: Fulfillment[] | null) =>
  ShopifyOrderSchema.parse({
    id: 1001,
    name: "#1001",
    created_at: "2026-11-18T10:00:00+03:00",
    currency: "TRY",
    total_price: "100.00",
    line_items: [],
    ...(fulfillments === undefined ? {} : { fulfillments }),
  });

const yurtici = { title: "Yurtiçi Kargo Servisi A.Ş.", taxNumber: "9860008925" };
const aras = { title: "Aras Kargo Yurtiçi Yurtdışı Taşımacılık A.Ş.", taxNumber: "0720039666" };
const mng = { title: "MNG Kargo Yurtiçi ve Yurtdışı Taşımacılık A.Ş.", taxNumber: "6080712084" };
/** A merchant's own default carrier (Settings > Default carrier). */
const fallback: Carrier = { title: "Sürat Kargo Lojistik ve Dağıtım Hizmetleri A.Ş.", taxNumber: "7870233582" };

const withDefault: MappingSettings = { ...defaultMappingSettings(), defaultCarrier: fallback };
const withoutDefault: MappingSettings = defaultMappingSettings();

const ISTANBUL = "Europe/Istanbul";
const ISSUE = "2026-11-22";

describe("the delivery date", () => {
  it("not fulfilled yet: the invoicing date, with the default carrier", () => {
    for (const fulfillments of [undefined, null, []]) {
      expect(mapShipment(order(fulfillments), withDefault, ISTANBUL, ISSUE), String(fulfillments)).toEqual({
        shipment: { company_title: fallback.title, company_tax_number: fallback.taxNumber, delivery_date: ISSUE },
        errors: [],
        warnings: [],
      });
    }
  });

  it("fulfilled: the day it was handed to the carrier, as seen in the shop's zone", () => {
    const shipped = order([
      { status: "success", created_at: "2026-11-20T22:30:00Z", tracking_company: "Yurtiçi Kargo" },
    ]);
    // 22:30 UTC is 01:30 the next day in Istanbul (UTC+3), still the 20th in New York.
    expect(mapShipment(shipped, withDefault, ISTANBUL, ISSUE).shipment?.delivery_date).toBe("2026-11-21");
    expect(mapShipment(shipped, withDefault, "America/New_York", ISSUE).shipment?.delivery_date).toBe("2026-11-20");
  });

  it("fulfilled on the invoicing day: that day", () => {
    const shipped = order([
      { status: "success", created_at: "2026-11-22T08:00:00+03:00", tracking_company: "Aras Kargo" },
    ]);
    expect(mapShipment(shipped, withDefault, ISTANBUL, ISSUE).shipment?.delivery_date).toBe(ISSUE);
  });

  it("never after the invoicing date: a fulfillment dated later gives the invoicing date", () => {
    // The issue date is Turkey's today at most; a shop east of Turkey can fulfil on what is already tomorrow there.
    const ahead = order([
      { status: "success", created_at: "2026-11-23T01:00:00+04:00", tracking_company: "Aras Kargo" },
    ]);
    expect(mapShipment(ahead, withDefault, "Asia/Dubai", ISSUE).shipment?.delivery_date).toBe(ISSUE);
  });

  it("a fulfillment without a tracking company still dates the delivery (the default carrier took it)", () => {
    const untracked = order([{ status: "success", created_at: "2026-11-19T12:00:00+03:00", tracking_company: null }]);
    expect(mapShipment(untracked, withDefault, ISTANBUL, ISSUE)).toEqual({
      shipment: { company_title: fallback.title, company_tax_number: fallback.taxNumber, delivery_date: "2026-11-19" },
      errors: [],
      warnings: [],
    });
  });

  it("a fulfillment whose date cannot be read: the invoicing date", () => {
    const undated = order([{ status: "success", created_at: null, tracking_company: "Aras Kargo" }]);
    expect(mapShipment(undated, withDefault, ISTANBUL, ISSUE).shipment).toEqual({
      company_title: aras.title,
      company_tax_number: aras.taxNumber,
      delivery_date: ISSUE,
    });
  });
});

describe("which fulfillment counts", () => {
  it("the first one with a tracking company names the carrier, and its date is the delivery date", () => {
    const two = order([
      { status: "success", created_at: "2026-11-18T12:00:00+03:00", tracking_company: "   " },
      { status: "success", created_at: "2026-11-20T12:00:00+03:00", tracking_company: "Aras Kargo" },
      { status: "success", created_at: "2026-11-21T12:00:00+03:00", tracking_company: "Yurtiçi Kargo" },
    ]);
    expect(mapShipment(two, withDefault, ISTANBUL, ISSUE)).toEqual({
      shipment: { company_title: aras.title, company_tax_number: aras.taxNumber, delivery_date: "2026-11-20" },
      errors: [],
      warnings: [],
    });
  });

  it.each(["cancelled", "error", "failure"])("a %s fulfillment took nothing: it is skipped", (status) => {
    const redone = order([
      { status, created_at: "2026-11-18T12:00:00+03:00", tracking_company: "Aras Kargo" },
      { status: "success", created_at: "2026-11-20T12:00:00+03:00", tracking_company: "Yurtiçi Kargo" },
    ]);
    expect(mapShipment(redone, withDefault, ISTANBUL, ISSUE).shipment).toEqual({
      company_title: yurtici.title,
      company_tax_number: yurtici.taxNumber,
      delivery_date: "2026-11-20",
    });
    // Only that one: the order counts as not yet shipped, with no warning about its carrier.
    const only = order([{ status, created_at: "2026-11-18T12:00:00+03:00", tracking_company: "Bilinmeyen Lojistik" }]);
    expect(mapShipment(only, withDefault, ISTANBUL, ISSUE)).toEqual({
      shipment: { company_title: fallback.title, company_tax_number: fallback.taxNumber, delivery_date: ISSUE },
      errors: [],
      warnings: [],
    });
  });

  it.each(["success", "open", "pending", null])("a fulfillment with status %s counts", (status) => {
    const shipped = order([{ status, created_at: "2026-11-20T12:00:00+03:00", tracking_company: "Aras Kargo" }]);
    expect(mapShipment(shipped, withoutDefault, ISTANBUL, ISSUE).shipment).toEqual({
      company_title: aras.title,
      company_tax_number: aras.taxNumber,
      delivery_date: "2026-11-20",
    });
  });
});

describe("the carrier", () => {
  it("a carrier of the table wins over the default, without a warning", () => {
    const shipped = order([
      { status: "success", created_at: "2026-11-20T12:00:00+03:00", tracking_company: "MNG Kargo" },
    ]);
    expect(mapShipment(shipped, withDefault, ISTANBUL, ISSUE)).toEqual({
      shipment: { company_title: mng.title, company_tax_number: mng.taxNumber, delivery_date: "2026-11-20" },
      errors: [],
      warnings: [],
    });
  });

  it("an unknown tracking company: the default carrier, and a warning naming both", () => {
    const shipped = order([
      { status: "success", created_at: "2026-11-20T12:00:00+03:00", tracking_company: "  Kolay   Gelsin " },
    ]);
    expect(mapShipment(shipped, withDefault, ISTANBUL, ISSUE)).toEqual({
      shipment: { company_title: fallback.title, company_tax_number: fallback.taxNumber, delivery_date: "2026-11-20" },
      errors: [],
      warnings: [
        {
          code: "shipment.unknown_carrier",
          params: { trackingCompany: "Kolay Gelsin", carrier: fallback.title },
          severity: "warning",
        },
      ],
    });
  });

  it("an unknown tracking company and no default carrier: an error naming it, and no shipment", () => {
    const shipped = order([
      { status: "success", created_at: "2026-11-20T12:00:00+03:00", tracking_company: "Kolay Gelsin" },
    ]);
    expect(mapShipment(shipped, withoutDefault, ISTANBUL, ISSUE)).toEqual({
      errors: [{ code: "shipment.no_carrier", params: { trackingCompany: "Kolay Gelsin" }, severity: "error" }],
      warnings: [],
    });
  });

  it("not fulfilled and no default carrier: an error (no tracking company, shown as '-')", () => {
    expect(mapShipment(order([]), withoutDefault, ISTANBUL, ISSUE)).toEqual({
      errors: [{ code: "shipment.no_carrier", params: { trackingCompany: "-" }, severity: "error" }],
      warnings: [],
    });
  });

  it("a title longer than the service's 255 characters is cut to 255; the tax number is sent as set", () => {
    const long: Carrier = { title: `${"Uzun Unvanlı Lojistik ".repeat(15)}A.Ş.`, taxNumber: "1112223339" };
    expect(long.title.length).toBeGreaterThan(255);
    const shipment = mapShipment(order([]), { ...withoutDefault, defaultCarrier: long }, ISTANBUL, ISSUE).shipment;
    expect(shipment?.company_title).toBe(long.title.slice(0, 255));
    expect(shipment?.company_title).toHaveLength(255);
    expect(shipment?.company_tax_number).toBe("1112223339");
  });
});

describe("findCarrier: a tracking company's name against the carrier table", () => {
  it("matches a folded name exactly: case, Turkish letters and punctuation do not matter", () => {
    const table = defaultCarriers();
    expect(findCarrier("YURTİÇİ KARGO", table)).toEqual(yurtici);
    expect(findCarrier("aras-kargo", table)).toEqual(aras);
  });

  it("a name of one or two characters matches only exactly, never inside a longer name", () => {
    const table: Record<string, Carrier> = { DB: mng };
    expect(findCarrier("D.B.", table)).toEqual(mng);
    expect(findCarrier("DB Schenker", table)).toBeUndefined();
  });

  it("a name of three characters or more matches inside a longer one", () => {
    const table: Record<string, Carrier> = { UPS: aras };
    expect(findCarrier("UPS Express Türkiye", table)).toEqual(aras);
    expect(findCarrier("Kargo", table)).toBeUndefined();
  });

  it("the longest contained name wins, whatever the table's order", () => {
    const input = "DHL eCommerce Türkiye";
    expect(findCarrier(input, { DHL: aras, "DHL eCommerce": mng })).toEqual(mng);
    expect(findCarrier(input, { "DHL eCommerce": mng, DHL: aras })).toEqual(mng);
    expect(findCarrier(input, { DHL: aras, eCommerce: yurtici, "DHL eCommerce": mng, Com: fallback })).toEqual(mng);
  });

  it("a name with nothing to compare (empty, only punctuation) matches nothing, not even a table name that folds to nothing", () => {
    const table: Record<string, Carrier> = { "—": aras, ...defaultCarriers() };
    expect(findCarrier("", table)).toBeUndefined();
    expect(findCarrier("- / -", table)).toBeUndefined();
  });

  it("folds a table's names once, not for every order", () => {
    let reads = 0;
    const table = new Proxy(defaultCarriers(), {
      ownKeys(target) {
        reads++;
        return Reflect.ownKeys(target);
      },
    });
    expect(findCarrier("Aras Kargo", table)).toEqual(aras);
    expect(findCarrier("MNG", table)).toEqual(mng);
    expect(findCarrier("PTT Kargo", table)?.taxNumber).toBe("7320068060");
    expect(reads).toBe(1);
  });
});
