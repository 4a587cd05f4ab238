// Text that reaches a legal document is cleaned of characters a reader cannot see: control characters and the
// bidirectional overrides, isolates and zero-width characters that make text display in another order or hide
// parts of it ("Trojan Source" style spoofing of a name, an address or an amount in words). Turkish letters, every
// other script and emoji stay as they are: a zero-width joiner inside an emoji sequence (👨‍👩‍👧) is kept.
// Pure: used by the order mapping (so the stored and previewed body is the one sent) and by the client for
// every body it posts.

// C0 and C1 controls except tab, line feed and carriage return (those become a space).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const WHITESPACE_CONTROLS = /[\t\n\r]/g;
// Arabic letter mark, zero-width space/non-joiner, LRM/RLM, embeddings and overrides (202A-202E), word joiner and
// invisible operators (2060-2064), isolates (2066-2069), deprecated format characters (206A-206F), BOM/ZWNBSP.
const INVISIBLE = /[\u061C\u200B\u200C\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/g;
// A zero-width joiner is kept only between two parts of an emoji (optionally after a variation selector or skin tone).
const STRAY_JOINER = /(?<!\p{Extended_Pictographic}|\uFE0F|\p{Emoji_Modifier})\u200D|\u200D(?!\p{Extended_Pictographic})/gu;

// Any character one of the four patterns above looks at: most strings have none, and one test is cheaper than four
// replacements (the joiner's is a Unicode lookbehind).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ANY_TO_CLEAN = /[\u0000-\u001F\u007F-\u009F\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/;

/** One string, cleaned. */
export function cleanText(value: string): string {
  if (!ANY_TO_CLEAN.test(value)) return value;
  return value.replace(WHITESPACE_CONTROLS, " ").replace(CONTROLS, "").replace(INVISIBLE, "").replace(STRAY_JOINER, "");
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
