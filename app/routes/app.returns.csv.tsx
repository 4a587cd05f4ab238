// GET /app/returns/csv?decimal=comma|point&locale=tr|en: the Returns list as CSV for the accountant (the session's
// shop only). A resource route: authenticated like the pages, fetched by the page with the session token.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { listReturns } from "../after-sale/returns.server";
import { returnPathText, returnsCsv } from "../after-sale/returns-csv";
import { shopTimezone } from "../invoices/list.server";
import { requestLocale } from "../i18n/i18n";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const url = new URL(request.url);
  const locale = requestLocale(request);
  const decimal = url.searchParams.get("decimal") === "comma" ? "comma" : "point";
  const rows = await listReturns(session.shop, await shopTimezone(session.shop));
  const csv = returnsCsv(rows, { locale, decimal }, (row) => returnPathText(row, locale));
  const name = `${locale === "tr" ? "iadeler" : "returns"}-${new Date().toISOString().slice(0, 10)}.csv`;
  return new Response(csv, {
    status: 200,
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "no-store",
    },
  });
};
