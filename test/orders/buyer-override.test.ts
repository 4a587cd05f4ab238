// The buyer the merchant sets on the invoice page (app/orders/buyer-override.ts): the form's check and the stored
// value read back. The rules are the service's customer object (a company has a tax number, a title and a tax
// office; a person a name and a surname; 11111111111 is the anonymous consumer), the tax-id check digits
// (test/orders/tax-id.test.ts works the numbers used here by hand) and the cart block's limits for a company's
// title and tax office (ATTRIBUTE_LIMITS), which the form shares.
import { describe, expect, it } from "vitest";
import { ANONYMOUS_TAX_NUMBER } from "../../app/invoicing-service/schemas";
import { buyerOverrideFrom, checkBuyerOverride } from "../../app/orders/buyer-override";
import { ATTRIBUTE_LIMITS } from "../../app/orders/customer";

const at = new Date("2026-11-22T10:00:00Z");
const company = {
  kind: "company",
  taxNumber: "0720039666",
  title: "Anadolu Tekstil A.Ş.",
  taxOffice: "Nilüfer",
  reason: "Firma faturası istendi",
};
const person = {
  kind: "person",
  taxNumber: "10000000146",
  name: "Ayşe",
  surname: "Yılmaz",
  reason: "Müşteri T.C. numarasını verdi",
};
const errorsOf = (input: Record<string, unknown>) => {
  const r = checkBuyerOverride(input, at);
  return r.ok ? {} : r.errors;
};

describe("checkBuyerOverride", () => {
  it("a company: its VKN, title and tax office, the reason and when, and nothing of a person", () => {
    expect(checkBuyerOverride(company, at)).toEqual({
      ok: true,
      override: {
        kind: "company",
        taxNumber: "0720039666",
        title: "Anadolu Tekstil A.Ş.",
        taxOffice: "Nilüfer",
        reason: "Firma faturası istendi",
        at: "2026-11-22T10:00:00.000Z",
      },
    });
  });

  it("a company may be a sole trader, whose T.C. number is their tax number; the number is kept as digits only", () => {
    const r = checkBuyerOverride({ ...company, taxNumber: "100 000 001 46" }, at);
    expect(r.ok && r.override.taxNumber).toBe("10000000146");
    expect(checkBuyerOverride({ ...company, taxNumber: "072.003.9666" }, at)).toMatchObject({
      ok: true,
      override: { taxNumber: "0720039666" },
    });
  });

  it("a company without a valid tax number, a title or a tax office is refused, every field's reason at once", () => {
    expect(errorsOf({ kind: "company", reason: "x" })).toEqual({
      taxNumber: "empty",
      title: "required",
      taxOffice: "required",
    });
    expect(errorsOf({ ...company, taxNumber: "9860008926" })).toEqual({ taxNumber: "checksum" });
    expect(errorsOf({ ...company, taxNumber: "11111111111" })).toEqual({ taxNumber: "repeated" });
    expect(errorsOf({ ...company, title: "   " })).toEqual({ title: "required" });
    expect(errorsOf({ ...company, taxOffice: "" })).toEqual({ taxOffice: "required" });
  });

  it("a person: T.C. number, name and surname, and nothing of a company", () => {
    expect(checkBuyerOverride(person, at)).toEqual({
      ok: true,
      override: {
        kind: "person",
        taxNumber: "10000000146",
        name: "Ayşe",
        surname: "Yılmaz",
        reason: "Müşteri T.C. numarasını verdi",
        at: "2026-11-22T10:00:00.000Z",
      },
    });
  });

  it("a person without a T.C. number is the anonymous consumer; one given must be a valid T.C. number, not a VKN", () => {
    const anonymous = checkBuyerOverride({ ...person, taxNumber: "" }, at);
    expect(anonymous.ok && anonymous.override.taxNumber).toBe(ANONYMOUS_TAX_NUMBER);
    expect(ANONYMOUS_TAX_NUMBER).toBe("11111111111");
    expect(errorsOf({ ...person, taxNumber: "0720039666" })).toEqual({ taxNumber: "length" });
    expect(errorsOf({ ...person, taxNumber: "10000000147" })).toEqual({ taxNumber: "checksum" });
    expect(errorsOf({ ...person, taxNumber: "01234567890" })).toEqual({ taxNumber: "leading_zero" });
  });

  it("a person needs a name and a surname", () => {
    expect(errorsOf({ kind: "person", reason: "x" })).toEqual({ name: "required", surname: "required" });
    expect(errorsOf({ ...person, surname: " " })).toEqual({ surname: "required" });
  });

  it("the reason is required: it goes into the invoice's history", () => {
    expect(errorsOf({ ...company, reason: "" })).toEqual({ reason: "required" });
    expect(errorsOf({ ...person, reason: "  \n " })).toEqual({ reason: "required" });
  });

  it("a kind that is neither person nor company is refused alone, before anything else is looked at", () => {
    for (const kind of ["", "Company", "sole_trader", undefined, 1])
      expect(errorsOf({ ...company, kind, title: "" }), String(kind)).toEqual({ kind: "kind" });
  });

  it("texts are trimmed with their inner runs of spaces made one; what is not text counts as empty", () => {
    const r = checkBuyerOverride(
      { ...company, title: "  Anadolu   Tekstil\tA.Ş. ", taxOffice: " Nilüfer ", reason: " istek " },
      at,
    );
    expect(r.ok && [r.override.title, r.override.taxOffice, r.override.reason]).toEqual([
      "Anadolu Tekstil A.Ş.",
      "Nilüfer",
      "istek",
    ]);
    expect(errorsOf({ ...company, title: 42, taxOffice: ["Nilüfer"], taxNumber: 720039666 })).toEqual({
      taxNumber: "empty",
      title: "required",
      taxOffice: "required",
    });
  });

  it("holds the cart block's limits for a company's title and tax office, and the form's for names (100) and the reason (500)", () => {
    expect([ATTRIBUTE_LIMITS.companyTitle, ATTRIBUTE_LIMITS.taxOffice]).toEqual([255, 100]);
    const atLimits = checkBuyerOverride(
      { ...company, title: "Ş".repeat(255), taxOffice: "K".repeat(100), reason: "r".repeat(500) },
      at,
    );
    expect(atLimits.ok).toBe(true);
    expect(
      errorsOf({ ...company, title: "Ş".repeat(256), taxOffice: "K".repeat(101), reason: "r".repeat(501) }),
    ).toEqual({ title: "too_long", taxOffice: "too_long", reason: "too_long" });
    expect(checkBuyerOverride({ ...person, name: "A".repeat(100), surname: "Y".repeat(100) }, at).ok).toBe(true);
    expect(errorsOf({ ...person, name: "A".repeat(101), surname: "Y".repeat(101) })).toEqual({
      name: "too_long",
      surname: "too_long",
    });
  });
});

describe("buyerOverrideFrom (the stored JSON column)", () => {
  it("reads back what the check stored", () => {
    for (const input of [company, person, { ...person, taxNumber: "" }]) {
      const checked = checkBuyerOverride(input, at);
      if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
      expect(buyerOverrideFrom(JSON.parse(JSON.stringify(checked.override)))).toEqual(checked.override);
    }
  });

  it("anything else is no override: nothing stored, another kind, a number that is not 10 or 11 digits, no reason or time", () => {
    const stored = {
      kind: "company",
      taxNumber: "0720039666",
      title: "Anadolu Tekstil A.Ş.",
      taxOffice: "Nilüfer",
      reason: "r",
      at: "2026-11-22T10:00:00.000Z",
    };
    expect(buyerOverrideFrom(stored)).toEqual(stored);
    for (const bad of [
      null,
      undefined,
      "company",
      { ...stored, kind: "anonymous" },
      { ...stored, taxNumber: "072003966" },
      { ...stored, taxNumber: "072003966612" },
      { ...stored, taxNumber: "07200396x6" },
      { ...stored, taxNumber: " 0720039666" },
      { ...stored, reason: undefined },
      { ...stored, at: 0 },
      { ...stored, title: 5 },
    ]) {
      expect(buyerOverrideFrom(bad), JSON.stringify(bad)).toBeNull();
    }
  });
});
