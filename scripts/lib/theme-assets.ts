// The cart block's script carries the server's VKN/TCKN checks (app/orders/tax-id.ts) as plain JavaScript, so
// Shopify serves it as is (no build step there) and the buyer's browser checks exactly what the server checks.
// The copy is generated here from the TypeScript source; a test fails when the asset holds anything else.
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
export const TAX_ID_SOURCE = path.join(root, "app/orders/tax-id.ts");
export const BLOCK_SCRIPT = path.join(root, "extensions/invoice-details/assets/invoice-details.js");

const BEGIN = "  // BEGIN tax-id (generated from app/orders/tax-id.ts by `npm run theme:assets`; do not edit here)\n";
const END = "  // END tax-id\n";

/**
 * app/orders/tax-id.ts as browser JavaScript (ES2017, no modules, no comments: Shopify's theme check holds an app
 * block's script under 10,000 bytes), indented for the block's function scope.
 */
export function generatedTaxIdCode(source = readFileSync(TAX_ID_SOURCE, "utf8")): string {
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { target: ts.ScriptTarget.ES2017, module: ts.ModuleKind.ESNext, removeComments: true },
  });
  const body = outputText
    .replace(/^export \{\};?\s*$/gm, "")
    .replace(/^export /gm, "")
    .trim();
  return body
    .split("\n")
    .map((line) => (line ? `  ${line}` : line))
    .join("\n")
    .concat("\n");
}

/** The block script with its generated part replaced by `code`. */
export function withTaxIdCode(script: string, code = generatedTaxIdCode()): string {
  const begin = script.indexOf(BEGIN);
  const end = script.indexOf(END);
  if (begin < 0 || end < begin)
    throw new Error(`${path.relative(root, BLOCK_SCRIPT)} has no "${BEGIN.trim()}" … "${END.trim()}" region`);
  return script.slice(0, begin + BEGIN.length) + code + script.slice(end);
}

/** The generated part as the asset holds it now. */
export function taxIdRegion(script: string): string {
  const begin = script.indexOf(BEGIN);
  const end = script.indexOf(END);
  if (begin < 0 || end < begin) throw new Error("no generated tax-id region");
  return script.slice(begin + BEGIN.length, end);
}
