// POST from the settings page: select the invoicing account's sales channel for this shop, creating it when
// the account has none (app/settings/sale-channel.server.ts).
import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { ensureSaleChannel } from "../settings/sale-channel.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const result = await ensureSaleChannel(session.shop);
  return json(result, { status: result.ok ? 200 : 422 });
};
