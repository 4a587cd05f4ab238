// The demo's problem column: cut at a word boundary with an ellipsis (scripts/lib/shorten.ts).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { shorten } from "../../scripts/lib/shorten";

describe("shorten", () => {
  it("keeps text that fits and cuts longer text after a whole word", () => {
    expect(shorten("Add a 'Vergi Dairesi' note attribute.", 80)).toBe("Add a 'Vergi Dairesi' note attribute.");
    expect(shorten("The buyer is a company but no tax office is given", 24)).toBe("The buyer is a company…");
    expect(shorten("The buyer is a company, but no tax office", 24)).toBe("The buyer is a company…");
    expect(shorten("one  two\nthree", 20)).toBe("one two three");
  });

  it("cuts a single word longer than the column", () => {
    expect(shorten("Donaudampfschifffahrtsgesellschaft", 10)).toBe("Donaudamp…");
  });

  it("is never longer than asked, and ends a cut on a whole word of the text (property)", () => {
    const word = fc.stringMatching(/^[a-zA-ZçğıöşüİÇĞÖŞÜ'%0-9]{1,12}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 30 }), fc.integer({ min: 8, max: 60 }), (words, max) => {
        const text = words.join(" ");
        const short = shorten(text, max);
        expect(short.length).toBeLessThanOrEqual(max);
        if (short === text) return;
        expect(short.endsWith("…")).toBe(true);
        const kept = short.slice(0, -1).split(" ");
        // Every kept word is whole, except when the first word alone is longer than the column.
        if (words[0].length < max) expect(kept).toEqual(words.slice(0, kept.length));
      }),
    );
  });
});
