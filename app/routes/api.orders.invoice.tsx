// Called by the admin extension's actions (extensions/invoice-orders-action): the order list's bulk action
// "Fatura kes / Create invoices" and the order page's action. The session token is verified by
// authenticate.admin; the shop comes from it, never from the body. POST {"orderIds": [...]} (at most 50 ids).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { authenticate } from "../shopify.server";
import { BODY_LIMITS, readTextLimited } from "../http/body-limit.server";
import { BULK_MAX, invoiceSelectedOrders, numericOrderId } from "../invoices/bulk-invoice.server";
import { interactiveOrders } from "../shopify/order-readers.server";

const Body = z.object({ orderIds: z.array(z.string().max(64)).min(1).max(BULK_MAX) });

// The admin's preflight for the extension's cross-origin POST.
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { cors } = await authenticate.admin(request);
  return cors(json({ ok: false, error: "POST only" }, { status: 405 }));
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, cors } = await authenticate.admin(request);
  let parsed: z.infer<typeof Body>;
  try {
    parsed = Body.parse(JSON.parse(await readTextLimited(request, BODY_LIMITS.adminAction)));
  } catch {
    return cors(
      json({ ok: false, error: `a JSON body {"orderIds": [...]} with 1 to ${BULK_MAX} order ids` }, { status: 400 }),
    );
  }
  const ids = parsed.orderIds.map(numericOrderId);
  if (ids.some((id) => id === null))
    return cors(json({ ok: false, error: "order ids are numbers or gid://shopify/Order/N" }, { status: 400 }));
  const summary = await invoiceSelectedOrders(session.shop, ids as string[], interactiveOrders);
  return cors(json({ ok: true, ...summary }));
};
