// The tax identifier rules of app/orders/tax-id.ts on worked examples: each number below was checked by hand
// against the rule as the tax authority states it (the working is in the comments), not taken from the code's
// output. test/orders/tax-id.property.test.ts holds the property tests against the sandbox's independent implementation.
import { describe, expect, it } from "vitest";
import { checkTaxId, isValidTckn, isValidVkn, normalizeTaxId, TAX_ID_LENGTH } from "../../app/orders/tax-id";

const otherCheckDigits = (value: string) =>
  [..."0123456789"].filter((d) => d !== value.at(-1)).map((d) => value.slice(0, -1) + d);

describe("VKN check digit, worked by hand", () => {
  it("1112223339: both special cases of the rule (a term of 0, and a non-zero term whose remainder is 0 counting 9)", () => {
    // Digit i (1-9): t = (d + 10 - i) mod 10, v = t * 2^(10 - i) mod 9, v = 9 when t ≠ 0 and v = 0.
    // 1: t=(1+9)%10=0 → v=0 (stays 0)     2: t=9, 9*256=2304, 2304%9=0 → v=9     3: t=8, 8*128=1024 → 7
    // 4: t=8, 8*64=512 → 8                 5: t=7, 7*32=224 → 8                     6: t=6, 6*16=96 → 6
    // 7: t=6, 6*8=48 → 3                   8: t=5, 5*4=20 → 2                       9: t=4, 4*2=8 → 8
    // sum 51, check digit (10 - 1) % 10 = 9. Without the "9 instead of 0" rule the sum is 42 and the digit 8.
    expect(isValidVkn("1112223339")).toBe(true);
    for (const wrong of otherCheckDigits("1112223339")) expect(isValidVkn(wrong), wrong).toBe(false);
    expect(isValidVkn("1112223338")).toBe(false);
  });

  it("0720039666 (Aras Kargo): a leading 0 is a VKN like any other", () => {
    // The weights 2^(10 - i) for i = 1..9 are 512, 256, 128, 64, 32, 16, 8, 4, 2.
    // 1: t=(0+9)=9, 9*512 % 9 = 0 → 9    2: t=(7+8)%10=5, 1280 % 9 = 2    3: t=(2+7)=9 → 0 → 9
    // 4: t=(0+6)=6, 384 % 9 = 6           5: t=(0+5)=5, 160 % 9 = 7         6: t=(3+4)=7, 112 % 9 = 4
    // 7: t=(9+3)%10=2, 16 % 9 = 7         8: t=(6+2)=8, 32 % 9 = 5          9: t=(6+1)=7, 14 % 9 = 5
    // sum 54, check digit (10 - 4) % 10 = 6: the last digit.
    expect(isValidVkn("0720039666")).toBe(true);
    expect(checkTaxId("0720039666")).toEqual({ valid: true, kind: "vkn", value: "0720039666" });
    for (const wrong of otherCheckDigits("0720039666")) expect(isValidVkn(wrong), wrong).toBe(false);
  });

  it("takes exactly ten digits: not the first ten of eleven, not eleven with a valid tail", () => {
    expect(isValidVkn("11122233390")).toBe(false);
    expect(isValidVkn("01112223339")).toBe(false);
    expect(isValidVkn("111222333")).toBe(false);
    expect(isValidVkn("111222333 9")).toBe(false);
  });
});

describe("TCKN check digits, worked by hand", () => {
  it("12345678950: tenth = (7 × odd places − even places) mod 10, eleventh = sum of the first ten mod 10", () => {
    // odd places 1+3+5+7+9 = 25, even places 2+4+6+8 = 20: 25*7 - 20 = 155 → 5 (the tenth digit)
    // 1+2+…+9 + 5 = 50 → 0 (the eleventh digit)
    expect(isValidTckn("12345678950")).toBe(true);
    for (const wrong of otherCheckDigits("12345678950")) expect(isValidTckn(wrong), wrong).toBe(false);
    for (const d of "012346789") expect(isValidTckn(`123456789${d}0`), `tenth ${d}`).toBe(false);
  });

  it("10000000146, and 19090909018 where 7 × odd − even is negative and still gives a digit", () => {
    // 10000000146: odd places 1+0+0+0+1 = 2, even places 0: 14 → 4 ✓; 1+1+4 = 6 ✓.
    expect(isValidTckn("10000000146")).toBe(true);
    // 19090909018: odd 1+0+0+0+0 = 1, even 9+9+9+9 = 36: 7 - 36 = -29, and -29 mod 10 is 1 (not -9) ✓;
    // 1+9+0+9+0+9+0+9+0+1 = 38 → 8 ✓.
    expect(isValidTckn("19090909018")).toBe(true);
    expect(checkTaxId("19090909018")).toEqual({ valid: true, kind: "tckn", value: "19090909018" });
    for (const wrong of otherCheckDigits("19090909018")) expect(isValidTckn(wrong), wrong).toBe(false);
  });

  it("takes exactly eleven digits: not the first eleven of twelve, nor a leading 0", () => {
    expect(isValidTckn("123456789501")).toBe(false);
    expect(isValidTckn("112345678950")).toBe(false);
    expect(isValidTckn("1234567895")).toBe(false);
    expect(isValidTckn("02345678950")).toBe(false);
  });
});

describe("normalizeTaxId: what people type between digits", () => {
  it.each([
    ["a space", "986 000 8925"],
    ["a non-breaking space", "986\u00a0000\u00a08925"],
    ["a tab or a line break", "986\t000\n8925"],
    ["dots", "986.000.89.25"],
    ["dashes", "986-000-89-25"],
    ["slashes", "986/000/89/25"],
  ])("%s is removed", (_what, typed) => {
    expect(normalizeTaxId(typed)).toBe("9860008925");
    expect(checkTaxId(typed)).toEqual({ valid: true, kind: "vkn", value: "9860008925" });
  });

  it("other characters stay, so the check can say the value is not digits", () => {
    expect(normalizeTaxId("TR 986.000.8925")).toBe("TR9860008925");
    expect(normalizeTaxId("+90_986,0008925")).toBe("+90_986,0008925");
    expect(checkTaxId("TR9860008925")).toEqual({
      valid: false,
      kind: null,
      value: "TR9860008925",
      problem: "not_digits",
    });
  });
});

describe("checkTaxId: which rule failed", () => {
  it("the lengths are the VKN's 10 and the TCKN's 11", () => {
    expect(TAX_ID_LENGTH).toEqual({ vkn: 10, tckn: 11 });
  });

  it("guesses the kind from the length only when none is given", () => {
    expect(checkTaxId("1112223339")).toEqual({ valid: true, kind: "vkn", value: "1112223339" });
    expect(checkTaxId("12345678950")).toEqual({ valid: true, kind: "tckn", value: "12345678950" });
    expect(checkTaxId("1112223339", "vkn")).toEqual({ valid: true, kind: "vkn", value: "1112223339" });
    expect(checkTaxId("12345678950", "tckn")).toEqual({ valid: true, kind: "tckn", value: "12345678950" });
    expect(checkTaxId("1112223339", "tckn")).toEqual({
      valid: false,
      kind: "tckn",
      value: "1112223339",
      problem: "length",
    });
    expect(checkTaxId("123456789012")).toEqual({ valid: false, kind: null, value: "123456789012", problem: "length" });
    expect(checkTaxId("123456789")).toEqual({ valid: false, kind: null, value: "123456789", problem: "length" });
  });

  it("empty (also after removing separators) before anything else", () => {
    expect(checkTaxId("")).toEqual({ valid: false, kind: null, value: "", problem: "empty" });
    expect(checkTaxId(" - / . ", "vkn")).toEqual({ valid: false, kind: "vkn", value: "", problem: "empty" });
  });

  it("not digits, wherever the stray character is", () => {
    for (const typed of ["x112223339", "111222333x", "1112x23339"]) {
      expect(checkTaxId(typed), typed).toEqual({ valid: false, kind: "vkn", value: typed, problem: "not_digits" });
    }
  });

  it("a leading 0 is a length-correct TCKN's own problem, and no problem for a VKN", () => {
    expect(checkTaxId("01234567890")).toEqual({
      valid: false,
      kind: "tckn",
      value: "01234567890",
      problem: "leading_zero",
    });
    expect(checkTaxId("0720039666")).toMatchObject({ valid: true, kind: "vkn" });
  });

  it("repeated digits only when every digit is the same: a run at the start or the end is fine", () => {
    expect(checkTaxId("1112223339")).toMatchObject({ valid: true });
    expect(checkTaxId("0720039666")).toMatchObject({ valid: true });
    expect(checkTaxId("22222222222")).toEqual({
      valid: false,
      kind: "tckn",
      value: "22222222222",
      problem: "repeated",
    });
    expect(checkTaxId("4444444444")).toEqual({ valid: false, kind: "vkn", value: "4444444444", problem: "repeated" });
  });

  it("a wrong check digit is the checksum's problem, for each kind", () => {
    expect(checkTaxId("1112223338")).toEqual({ valid: false, kind: "vkn", value: "1112223338", problem: "checksum" });
    expect(checkTaxId("12345678951")).toEqual({
      valid: false,
      kind: "tckn",
      value: "12345678951",
      problem: "checksum",
    });
  });
});
