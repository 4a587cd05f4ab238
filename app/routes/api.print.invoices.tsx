// Asked by the print actions (extensions/order-invoice-print) with the admin's session token: which selected orders
// have an invoice to print, and a short-lived signed address of their PDFs for the print preview.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { env } from "../env.server";
import { orderIdOf, printableOrders, PRINT_MAX_ORDERS, signPrintToken } from "../pdf/print.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session, cors } = await authenticate.admin(request);
  const given = (new URL(request.url).searchParams.get("orders") ?? "").split(",").filter(Boolean);
  const ids = given.map(orderIdOf);
  if (ids.length === 0 || ids.length > PRINT_MAX_ORDERS || ids.some((id) => id === null)) {
    return cors(json({ ok: false, error: `orders: 1 to ${PRINT_MAX_ORDERS} order ids` }, { status: 400 }));
  }
  const orders = await printableOrders(session.shop, ids as string[]);
  const ready = orders.filter((order) => order.invoiceId !== null).map((order) => order.invoiceId!);
  const url = ready.length
    ? `${env().SHOPIFY_APP_URL.replace(/\/+$/, "")}/print/invoices/${signPrintToken(session.shop, ready)}`
    : null;
  return cors(
    json({
      ok: true,
      url,
      orders: orders.map(({ orderId, orderName, status, serialNumber }) => ({
        orderId,
        orderName,
        status,
        serialNumber,
      })),
    }),
  );
};
