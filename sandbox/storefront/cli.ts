// `npm run --silent storefront -- --port 4020`: serves the cart block on a minimal local cart page (no Shopify
// store needed). The first line on stdout is {"tr","en"} with the page addresses; cart updates and orders go to
// stderr. Stop with Ctrl+C.
import { parseArgs } from "node:util";
import { startStorefront } from "./server";

const { values } = parseArgs({
  options: { port: { type: "string", default: "4020" }, host: { type: "string", default: "127.0.0.1" } },
});
if (!/^\d+$/.test(values.port!)) {
  console.error("--port must be a number (0 picks a free port)");
  process.exit(2);
}
const storefront = await startStorefront({ port: Number(values.port), host: values.host });
console.log(JSON.stringify({ tr: `${storefront.url}/cart`, en: `${storefront.url}/en/cart` }));
let seen = 0;
const timer = setInterval(() => {
  for (const order of storefront.orders.slice(seen))
    console.error(`order ${order.name}: ${JSON.stringify(order.note_attributes)}`);
  seen = storefront.orders.length;
}, 500);
let lastCart = "";
const cartTimer = setInterval(() => {
  const cart = JSON.stringify(storefront.cart().attributes);
  if (cart !== lastCart) console.error(`cart attributes: ${cart}`);
  lastCart = cart;
}, 500);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    clearInterval(timer);
    clearInterval(cartTimer);
    void storefront.stop().then(() => process.exit(0));
  });
}
