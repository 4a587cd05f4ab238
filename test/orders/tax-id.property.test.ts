// The Turkish tax identifier checks shared by the server mapping and the cart block (app/orders/tax-id.ts).
// The sandbox's own implementation (sandbox/taxnumbers.ts, written separately from the rules as the tax
// authority states them) is the independent oracle for the property tests.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkTaxId, isValidTckn, isValidVkn, normalizeTaxId } from "../../app/orders/tax-id";
import { isValidTckn as oracleTckn, isValidVkn as oracleVkn } from "../../sandbox/taxnumbers";

const digits = (n: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(""));
const allSame = (value: string) => /^(\d)\1+$/.test(value);

describe("VKN (10 digits, companies)", () => {
  it("accepts real numbers, including those with a leading zero", () => {
    for (const vkn of ["9860008925", "0720039666", "6080712084", "7320068060", "1234567890", "9876543217"]) {
      expect(isValidVkn(vkn), vkn).toBe(true);
      expect(checkTaxId(vkn)).toEqual({ valid: true, kind: "vkn", value: vkn });
    }
  });

  it("refuses a wrong check digit, with the reason", () => {
    expect(isValidVkn("9860008926")).toBe(false);
    expect(isValidVkn("1234567891")).toBe(false);
    expect(checkTaxId("1234567891")).toEqual({ valid: false, kind: "vkn", value: "1234567891", problem: "checksum" });
  });

  it("refuses all-same digits even where the check digit happens to fit (4444444444)", () => {
    // The only repeated-digit VKN whose check digit works out: not a number the tax authority issues.
    expect(oracleVkn("4444444444")).toBe(true);
    expect(isValidVkn("4444444444")).toBe(false);
    expect(checkTaxId("4444444444")).toMatchObject({ valid: false, problem: "repeated" });
    for (let d = 0; d <= 9; d++) expect(isValidVkn(String(d).repeat(10))).toBe(false);
    expect(checkTaxId("0000000000")).toMatchObject({ valid: false, kind: "vkn", problem: "repeated" });
  });

  it("refuses other lengths and non-digits", () => {
    for (const value of ["986000892", "98600089250", "98600O8925", "", "986000892a"])
      expect(isValidVkn(value)).toBe(false);
    expect(checkTaxId("986000892", "vkn")).toMatchObject({ valid: false, kind: "vkn", problem: "length" });
    expect(checkTaxId("98600O8925")).toMatchObject({ valid: false, problem: "not_digits" });
  });

  it("agrees with the independent implementation on every number that is not all-same digits", () => {
    fc.assert(
      fc.property(digits(10), (vkn) => {
        expect(isValidVkn(vkn)).toBe(oracleVkn(vkn) && !allSame(vkn));
      }),
      { numRuns: 20_000 },
    );
  });

  it("exactly one check digit completes any nine digits", () => {
    fc.assert(
      fc.property(digits(9), (prefix) => {
        const completions = [..."0123456789"].filter((d) => oracleVkn(prefix + d));
        expect(completions).toHaveLength(1);
      }),
    );
  });
});

describe("TCKN (11 digits, citizens)", () => {
  it("accepts valid numbers", () => {
    for (const tckn of ["10000000146", "12345678950"]) {
      expect(isValidTckn(tckn), tckn).toBe(true);
      expect(checkTaxId(tckn)).toEqual({ valid: true, kind: "tckn", value: tckn });
    }
  });

  it("refuses wrong check digits (tenth and eleventh alike)", () => {
    expect(isValidTckn("10000000147")).toBe(false); // eleventh wrong
    expect(isValidTckn("10000000156")).toBe(false); // tenth wrong
    expect(isValidTckn("12345678901")).toBe(false);
    expect(checkTaxId("12345678901")).toMatchObject({ valid: false, kind: "tckn", problem: "checksum" });
  });

  it("never starts with 0, even when both check digits fit", () => {
    // 0 + the check digits computed for the rest: arithmetically consistent, still not a citizen number.
    const body = "0123456789";
    const d = [...body].map(Number);
    const tenth = ((((d[0] + d[2] + d[4] + d[6] + d[8]) * 7 - (d[1] + d[3] + d[5] + d[7])) % 10) + 10) % 10;
    const candidate = body.slice(0, 9) + tenth;
    const eleventh = [...candidate].map(Number).reduce((a, b) => a + b, 0) % 10;
    const withZero = candidate + eleventh;
    expect(oracleTckn(withZero)).toBe(false);
    expect(isValidTckn(withZero)).toBe(false);
    expect(checkTaxId(withZero)).toMatchObject({ valid: false, kind: "tckn", problem: "leading_zero" });
  });

  it("refuses all-same digits: the anonymous consumer's 11111111111 is no citizen number", () => {
    for (let d = 1; d <= 9; d++) expect(isValidTckn(String(d).repeat(11))).toBe(false);
    expect(checkTaxId("11111111111")).toMatchObject({ valid: false, kind: "tckn", problem: "repeated" });
  });

  it("agrees with the independent implementation on random numbers", () => {
    fc.assert(
      fc.property(digits(11), (tckn) => {
        expect(isValidTckn(tckn)).toBe(oracleTckn(tckn));
      }),
      { numRuns: 20_000 },
    );
  });
});

describe("checkTaxId and normalizeTaxId", () => {
  it("reads numbers as people type them", () => {
    expect(normalizeTaxId(" 986 000 8925 ")).toBe("9860008925");
    expect(normalizeTaxId("986.000.89-25")).toBe("9860008925");
    expect(normalizeTaxId("123\u00a045678950")).toBe("12345678950");
    expect(checkTaxId("123 456 789 50")).toEqual({ valid: true, kind: "tckn", value: "12345678950" });
  });

  it("checks against the expected kind when one is given", () => {
    expect(checkTaxId("12345678950", "vkn")).toMatchObject({ valid: false, kind: "vkn", problem: "length" });
    expect(checkTaxId("9860008925", "tckn")).toMatchObject({ valid: false, kind: "tckn", problem: "length" });
    expect(checkTaxId("", "tckn")).toMatchObject({ valid: false, problem: "empty" });
    expect(checkTaxId("12345")).toMatchObject({ valid: false, kind: null, problem: "length" });
  });
});
