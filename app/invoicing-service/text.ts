// Text that reaches a legal document is cleaned of characters a reader cannot see: control characters, every format
// control and every default-ignorable code point (bidirectional overrides and isolates, zero-width characters, fillers, tags...) that
// make text display in another order or hide parts of it ("Trojan Source" style spoofing of a name, an address or
// an amount in words). Turkish letters, every other script and emoji stay as they are: a zero-width joiner inside an
// emoji sequence (👨‍👩‍👧) and an emoji's presentation selector (❤️) are kept.
// Pure: used by the order mapping (so the stored and previewed body is the one sent) and by the client for
// every body it posts.

// C0 and C1 controls except tab, line feed and carriage return (those, and the line and paragraph separators,
// become a space).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const WHITESPACE_CONTROLS = /[\t\n\r\u2028\u2029]/g;
// Every default-ignorable code point: Unicode's own list of what is drawn as nothing (soft hyphen, combining grapheme
// joiner, Hangul fillers, Mongolian vowel separator, zero-width characters, bidirectional controls, variation
// selectors, tag characters, ...), so a new one needs no change here. Tag characters go even after 🏴 (a subdivision
// flag then shows as a black flag): they can carry a whole hidden ASCII text. The joiner and the two presentation
// selectors are left to the emoji rules below.
// Format controls (\p{Cf}) that Unicode does not list as ignorable are invisible all the same: the interlinear
// annotation marks U+FFF9-U+FFFB (they hide the text between them), the Egyptian hieroglyph format controls
// U+13430-U+1343F; and the Braille pattern blank U+2800 draws nothing although it is a symbol.
const IGNORABLE = /(?!\u200D|\uFE0E|\uFE0F)[\p{Default_Ignorable_Code_Point}\p{Cf}\u2800]/gu;
// A text or emoji presentation selector is kept only right after a character that has both forms (❤️, ©️, 1️⃣).
const STRAY_SELECTOR = /(?<!\p{Emoji})[\uFE0E\uFE0F]/gu;
// A zero-width joiner is kept only between two parts of an emoji (optionally after a variation selector or skin tone).
const STRAY_JOINER =
  /(?<!\p{Extended_Pictographic}|\uFE0F|\p{Emoji_Modifier})\u200D|\u200D(?!\p{Extended_Pictographic})/gu;

// Any character the patterns above look at: most strings have none, and one test is cheaper than the replacements.
// One character class with the property inside (an alternation, or a written-out list of the property's ranges
// with surrogates in it, measured 1.5-3x slower on Turkish text).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ANY_TO_CLEAN = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u2800\p{Default_Ignorable_Code_Point}\p{Cf}]/u;

/** One string, cleaned. */
export function cleanText(value: string): string {
  if (!ANY_TO_CLEAN.test(value)) return value;
  return value
    .replace(WHITESPACE_CONTROLS, " ")
    .replace(CONTROLS, "")
    .replace(IGNORABLE, "")
    .replace(STRAY_SELECTOR, "")
    .replace(STRAY_JOINER, "");
}

/** Every string anywhere in `value` (objects and arrays, at any depth), cleaned; other values unchanged. */
export function cleanDocumentText<T>(value: T): T {
  if (typeof value === "string") return cleanText(value) as T;
  if (Array.isArray(value)) return value.map((item) => cleanDocumentText(item)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cleanDocumentText(item)])) as T;
  }
  return value;
}
