// npm run theme:assets [-- --check]
// Writes the VKN/TCKN checks of app/orders/tax-id.ts into the cart block's script
// (extensions/invoice-details/assets/invoice-details.js). With --check it only says whether the asset is current.
import { readFileSync, writeFileSync } from "node:fs";
import { BLOCK_SCRIPT, withTaxIdCode } from "./lib/theme-assets";

const current = readFileSync(BLOCK_SCRIPT, "utf8");
const next = withTaxIdCode(current);
if (process.argv.includes("--check")) {
  if (next !== current) {
    console.error("The cart block's script is out of date: run npm run theme:assets");
    process.exit(1);
  }
  console.log("The cart block's script carries the current tax-id checks.");
} else if (next !== current) {
  writeFileSync(BLOCK_SCRIPT, next);
  console.log(`Updated ${BLOCK_SCRIPT}`);
} else {
  console.log("Already current.");
}
