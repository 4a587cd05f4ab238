// Returns (İadeler): every refund of the shop's orders with its invoice and what applies to it, and the CSV export.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Button,
  Card,
  EmptyState,
  IndexTable,
  InlineStack,
  Link,
  Page,
  Text,
} from "@shopify/polaris";
import { authenticate } from "../shopify.server";
import { listReturns } from "../after-sale/returns.server";
import { returnPathText } from "../after-sale/returns-csv";
import { shopTimezone } from "../invoices/list.server";
import { useT } from "../i18n/react";
import { formatDateTime, formatMoney } from "../ui/format";
import { useFileDownload } from "../ui/useFileDownload";
import type { TitleHandle } from "../i18n/page-title";
import { formatDayWithWeekday } from "../ui/format";

export const handle: TitleHandle = { title: "nav.returns" };

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const timezone = await shopTimezone(session.shop);
  return json({ rows: await listReturns(session.shop, timezone), timezone });
};

export default function ReturnsPage() {
  const { rows, timezone } = useLoaderData<typeof loader>();
  const t = useT();
  const locale = t.locale;
  const csv = useFileDownload();
  // A deadline with its weekday: "28 Kasım 2026 Cumartesi", never cut (the path cell wraps).
  const day = (ymd: string) => formatDayWithWeekday(ymd, locale);

  const exportCsv = (decimal: "point" | "comma") =>
    csv.download(decimal, `/app/returns/csv?decimal=${decimal}&locale=${locale}`, "returns.csv");

  return (
    <Page title={t("returns.title")} subtitle={t("returns.subtitle")}>
      <BlockStack gap="400">
        {rows.length > 0 && (
          <InlineStack gap="200" align="end">
            <Button onClick={() => void exportCsv("point")} loading={csv.busy === "point"} id="export-csv">
              {t("returns.export")}
            </Button>
            <Button
              variant="primary"
              onClick={() => void exportCsv("comma")}
              loading={csv.busy === "comma"}
              id="export-csv-commas"
            >
              {t("returns.exportCommas")}
            </Button>
          </InlineStack>
        )}
        <Card padding="0">
          {rows.length === 0 ? (
            <EmptyState heading={t("returns.empty")} image="">
              <Text as="p">{t("returns.subtitle")}</Text>
            </EmptyState>
          ) : (
            <IndexTable
              // Lower-case already: Polaris lower-cases these with the runtime's locale, which differs between
              // the server and a Turkish browser for "İ" (a hydration mismatch).
              resourceName={{ singular: t("returns.resourceSingular"), plural: t("returns.resourcePlural") }}
              itemCount={rows.length}
              selectable={false}
              headings={[
                { title: t("returns.date") },
                { title: t("returns.order") },
                { title: t("returns.invoice") },
                { title: t("returns.buyer") },
                { title: t("returns.items") },
                { title: t("returns.amount"), alignment: "end" },
                { title: t("returns.path") },
              ]}
            >
              {rows.map((row, index) => (
                <IndexTable.Row id={row.refundId} key={row.refundId} position={index}>
                  <IndexTable.Cell>{formatDateTime(row.refundedAt, locale, timezone)}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <Link url={`shopify:admin/orders/${row.orderId}`} removeUnderline>
                      {row.orderName}
                    </Link>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <InlineStack gap="100" blockAlign="center">
                      {row.invoiceId && row.serialNumber ? (
                        <Link url={`/app/invoices/${row.invoiceId}`} dataPrimaryLink>
                          {row.serialNumber}
                        </Link>
                      ) : row.invoiceId ? (
                        <Link url={`/app/invoices/${row.invoiceId}`}>{t("list.details")}</Link>
                      ) : (
                        <Text as="span">—</Text>
                      )}
                      {row.documentKind && <Badge>{row.documentKind === "e_invoice" ? "e-Fatura" : "e-Arşiv"}</Badge>}
                    </InlineStack>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{row.buyerName ?? "—"}</IndexTable.Cell>
                  <IndexTable.Cell>
                    {/* Product names wrap, so the table fits a 1280 px admin without scrolling sideways. */}
                    <div style={{ whiteSpace: "normal", minWidth: 140, maxWidth: 220 }}>
                      <BlockStack gap="050">
                        {row.lines.map((line) => (
                          <Text as="span" key={line.lineItemId}>
                            {line.quantity} × {line.name}
                          </Text>
                        ))}
                        {Number(row.shipping) > 0 && (
                          <Text as="span">
                            {t("afterSale.shipping")}: {formatMoney(row.shipping, row.currency, locale)}
                          </Text>
                        )}
                        {row.lines.length === 0 && Number(row.shipping) === 0 && (
                          <Text as="span" tone="subdued">
                            {t("afterSale.amountOnly")}
                          </Text>
                        )}
                      </BlockStack>
                    </div>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <Text as="span" numeric alignment="end">
                      {formatMoney(row.amount, row.currency, locale)}
                    </Text>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    {/* Table cells do not wrap; this sentence may, so the table fits the page. */}
                    <div style={{ whiteSpace: "normal", minWidth: 160, maxWidth: 260 }}>
                      <Text as="span" tone={row.path ? undefined : "subdued"}>
                        {returnPathText(row, locale, day)}
                      </Text>
                    </div>
                  </IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
          )}
        </Card>
      </BlockStack>
    </Page>
  );
}
