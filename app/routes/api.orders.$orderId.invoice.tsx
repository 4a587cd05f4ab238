// Read by the order page's admin block (extensions/order-invoice-block): the session token it sends is
// verified by authenticate.admin, and the answer carries the CORS headers the admin needs.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { orderInvoice } from "../invoices/order-invoice.server";

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session, cors } = await authenticate.admin(request);
  const invoice = await orderInvoice(session.shop, params.orderId ?? "");
  return cors(json({ invoice }));
};
