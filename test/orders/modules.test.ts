// The small modules of the order mapping, each on its own.
import { describe, expect, it } from "vitest";
import { Decimal } from "../../app/invoicing-service/money";
import { lineTotals } from "../../app/invoicing-service/totals";
import { isValidTckn, isValidVkn } from "../../app/orders/customer";
import { issueMoment } from "../../app/orders/dates";
import { paymentMethod } from "../../app/orders/payment";
import { PROBLEM_CODES, problemText } from "../../app/problems";
import { exactNet, priceLines, unitPriceFor } from "../../app/orders/rounding";
import { defaultCarriers, defaultMappingSettings, MappingSettingsSchema } from "../../app/settings/schema";
import { findCarrier } from "../../app/orders/shipment";
import { foldName } from "../../app/orders/text";

const settings = defaultMappingSettings();

describe("settings", () => {
  it("an empty document is valid and carries every default", () => {
    expect(settings).toMatchObject({
      unit: "C62",
      defaultTaxRate: "20",
      pricesIncludeVat: true,
      useBillingCompany: true,
      foreignBuyerTaxNumber: "2222222222",
      invoiceCurrency: "shop",
      invoiceType: "SATIS",
      taxNumberAttributes: ["Vergi Numarası", "Vergi No", "VKN"],
    });
  });

  it("rejects a rate outside the allowed set and a carrier number that is not digits", () => {
    expect(MappingSettingsSchema.safeParse({ defaultTaxRate: "5" }).success).toBe(false);
    expect(MappingSettingsSchema.safeParse({ defaultCarrier: { title: "X", taxNumber: "12-34" } }).success).toBe(false);
  });

  it("every default carrier number passes the VKN check digit; Yurtiçi is 9860008925", () => {
    for (const carrier of Object.values(defaultCarriers()))
      expect(isValidVkn(carrier.taxNumber), carrier.title).toBe(true);
    expect(defaultCarriers()["Yurtiçi Kargo"].taxNumber).toBe("9860008925");
  });
});

describe("names", () => {
  it("folds case, Turkish İ/ı, accents and punctuation", () => {
    expect(foldName("VERGİ NUMARASI")).toBe(foldName("vergi numarası"));
    expect(foldName("T.C. Kimlik No")).toBe(foldName("tc kimlik no"));
    expect(foldName("Yurtiçi Kargo")).toBe("yurticikargo");
  });

  it("finds carriers by exact or contained name", () => {
    const table = defaultCarriers();
    expect(findCarrier("YURTICI KARGO", table)?.taxNumber).toBe("9860008925");
    expect(findCarrier("Aras Kargo A.Ş.", table)?.taxNumber).toBe("0720039666");
    expect(findCarrier("DHL eCommerce Türkiye", table)?.taxNumber).toBe("6080712084");
    expect(findCarrier("Bilinmeyen Lojistik", table)).toBeUndefined();
  });
});

describe("payment methods", () => {
  it.each([
    ["shopify_payments", "credit_or_debit"],
    ["Stripe", "credit_or_debit"],
    ["Kredi Kartı", "credit_or_debit"],
    ["iyzico", "payment_agent"],
    ["PayTR Sanal POS", "payment_agent"],
    ["paypal", "payment_agent"],
    ["Param", "payment_agent"],
    ["Cash on Delivery (COD)", "cash_on_delivery"],
    ["Kapıda Ödeme", "cash_on_delivery"],
    ["Bank Deposit", "direct_transfer"],
    ["Havale / EFT", "direct_transfer"],
    ["manual", "other"],
  ])("%s → %s", (gateway, method) => {
    expect(paymentMethod(gateway, settings).method).toBe(method);
  });

  it("a short pattern must start a word: 'cod' does not match 'Barcode Pay'", () => {
    expect(paymentMethod("Barcode Pay", settings)).toEqual({ method: "other", known: false });
  });
});

describe("tax numbers", () => {
  it("checks VKN and TCKN check digits", () => {
    expect(isValidVkn("9860008925")).toBe(true);
    expect(isValidVkn("9860008926")).toBe(false);
    expect(isValidTckn("10000000146")).toBe(true);
    expect(isValidTckn("10000000147")).toBe(false);
    expect(isValidTckn("01234567890")).toBe(false);
  });
});

describe("dates", () => {
  it("uses the shop's zone, but never a date after today in Turkey", () => {
    expect(issueMoment(new Date("2026-11-22T21:30:00Z"), "Europe/Istanbul")).toEqual({
      date: "2026-11-23",
      time: "00:30",
      clamped: false,
    });
    expect(issueMoment(new Date("2026-11-22T20:30:00Z"), "Asia/Dubai")).toEqual({
      date: "2026-11-22",
      time: "23:30",
      clamped: true,
    });
    expect(issueMoment(new Date("2026-11-22T02:00:00Z"), "America/New_York")).toEqual({
      date: "2026-11-21",
      time: "21:00",
      clamped: false,
    });
  });
});

describe("rounding", () => {
  it("finds the net of a reachable total and reports an unreachable one", () => {
    expect(exactNet(new Decimal("100.00"), new Decimal(20))?.toFixed(2)).toBe("83.33");
    expect(exactNet(new Decimal("99.99"), new Decimal(20))).toBeNull();
  });

  it("finds the unit price with the fewest decimals for a gross amount", () => {
    expect(unitPriceFor(new Decimal("83.33"), new Decimal(3)).toFixed()).toBe("27.777");
    expect(unitPriceFor(new Decimal("100"), new Decimal(4)).toFixed()).toBe("25");
    const price = unitPriceFor(new Decimal("1000.01"), new Decimal(997));
    expect(new Decimal(997).mul(price).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2)).toBe("1000.01");
  });

  it("carries an unreachable cent to the next line instead of splitting", () => {
    const rate = new Decimal(20);
    const { parts, difference } = priceLines([
      { quantity: 1, rate, target: new Decimal("33.33"), discount: new Decimal(0) },
      { quantity: 1, rate, target: new Decimal("10.00"), discount: new Decimal(0) },
    ]);
    expect(difference.toFixed(2)).toBe("0.00");
    expect(parts.map((p) => p.length)).toEqual([1, 1]);
    const total = parts
      .flat()
      .reduce(
        (s, p) => s.add(lineTotals({ quantity: p.quantity, unit_price: p.unitPrice, tax_rate: 20 }).total),
        new Decimal(0),
      );
    expect(total.toFixed(2)).toBe("43.33");
  });

  it("a single one-unit line with an unreachable total is 0.01 off and says so", () => {
    const { difference } = priceLines([
      { quantity: 1, rate: new Decimal(20), target: new Decimal("33.33"), discount: new Decimal(0) },
    ]);
    expect(difference.abs().toFixed(2)).toBe("0.01");
  });
});

describe("problem catalogue (mapping and sending)", () => {
  it("every code has a Turkish and an English message with its placeholders filled", () => {
    for (const code of PROBLEM_CODES) {
      const params = {
        line: "L",
        rate: "5",
        part: "city",
        value: "1",
        source: "s",
        taxNumber: "1",
        trackingCompany: "X",
        carrier: "Y",
        gateway: "g",
        currency: "EUR",
        difference: "0.01",
        grandTotal: "1",
        paid: "1",
        invoiced: "1",
        orderTotal: "1",
        date: "2026-11-22",
        parts: "city",
        country: "DE",
        path: "p",
        message: "m",
        amount: "-1",
        taxId: "DE1",
        code: "301",
        details: "d",
        attempts: 3,
        remote: "1",
        waybillId: 7,
        invoiceId: 8,
        length: 300,
        max: 255,
        reason: "r",
        company: "Acme",
        location: "HQ",
        metafield: "custom.tax_office",
      };
      for (const locale of ["tr", "en"] as const) {
        const text = problemText({ code, params }, locale);
        expect(text.length, `${code} ${locale}`).toBeGreaterThan(30);
        expect(text, `${code} ${locale}`).not.toMatch(/\{\w+\}/);
      }
    }
  });
});

describe("dates across a daylight-saving change", () => {
  it("reads an instant in a zone with DST on both sides of the change", async () => {
    const { dateIn, localParts } = await import("../../app/orders/dates");
    // Berlin leaves summer time on 2026-10-25 at 01:00 UTC.
    expect(localParts(Date.parse("2026-10-25T00:59:00Z"), "Europe/Berlin")).toEqual({
      date: "2026-10-25",
      time: "02:59",
    });
    expect(localParts(Date.parse("2026-10-25T01:00:00Z"), "Europe/Berlin")).toEqual({
      date: "2026-10-25",
      time: "02:00",
    });
    expect(dateIn("2026-11-20T23:30:00-05:00", "Europe/Istanbul")).toBe("2026-11-21");
    expect(dateIn("not a date", "Europe/Istanbul")).toBeUndefined();
  });
});
