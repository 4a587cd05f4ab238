// The customer-name search, folded the same way on both sides: the name when an invoice is written
// (Invoice.customerSearch) and what the merchant types. Case and Turkish letters fold to plain ASCII-like
// letters (İ/I/ı/i → i, ş → s, ğ → g, ü → u, ö → o, ç → c; other accents drop their marks), and everything that is
// not a letter or a digit becomes one space. So "AYŞE", "ayse" and "Ayşe" find the same rows on SQLite and
// PostgreSQL alike (neither folds Turkish letters by itself), and LIKE's wildcards `%` and `_` never reach the
// database: they are not letters, so they are gone before the query is built.

const DOTLESS = /ı/g;

/** "Ayşe YILMAZ-Öztürk" → "ayse yilmaz ozturk"; null or nothing searchable → "". */
export function foldForSearch(text: string | null | undefined): string {
  if (!text) return "";
  return text
    .toLocaleLowerCase("tr")
    .replace(DOTLESS, "i")
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}
