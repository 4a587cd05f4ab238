// GET /app/returns/csv?decimal=comma|point&locale=tr|en (decimal: the language's own by default): the Returns list as CSV for the accountant (the session's
// shop only). A resource route: authenticated like the pages, fetched by the page with the session token.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { listReturns } from "../after-sale/returns.server";
import { csvDate, defaultDecimal, returnPathText, returnsCsv } from "../after-sale/returns-csv";
import { shopTimezone } from "../invoices/list.server";
import { requestLocale } from "../i18n/i18n";
import { todayIn } from "../after-sale/invoice-view.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const url = new URL(request.url);
  const locale = requestLocale(request);
  const asked = url.searchParams.get("decimal");
  const decimal = asked === "comma" || asked === "point" ? asked : defaultDecimal(locale);
  const zone = await shopTimezone(session.shop);
  const rows = await listReturns(session.shop, zone);
  const csv = returnsCsv(rows, { locale, decimal, zone }, (row) =>
    returnPathText(row, locale, (day) => csvDate(day, locale)),
  );
  // The shop's day, as the rows' dates (from 21:00 UTC Istanbul's is the next one).
  const name = `${locale === "tr" ? "iadeler" : "returns"}-${todayIn(zone)}.csv`;
  return new Response(csv, {
    status: 200,
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "no-store",
    },
  });
};
