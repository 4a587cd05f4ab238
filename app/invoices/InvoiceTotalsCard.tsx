// An invoice's totals: the amount paid against the service's own totals, and whether they agree (to the kuruş),
// with the after-sale reconciliation where they differ because of a refund.
import { Box, Text } from "@shopify/polaris";
import { useT } from "../i18n/react";
import { formatMoney } from "../ui/format";
import { SectionCard } from "../ui/SectionCard";
import { Details, Row } from "../ui/DetailRows";
import { Reconciliation } from "../after-sale/AfterSaleCard";
import type { Reconciliation as ReconciliationData } from "../after-sale/rules";
import type { TotalsView } from "./detail.server";

export function InvoiceTotalsCard({
  totals,
  reconciliation,
  waybill,
}: {
  totals: TotalsView;
  reconciliation: ReconciliationData | null;
  waybill: boolean;
}) {
  const t = useT();
  const money = (amount: string | null) => (amount === null ? "—" : formatMoney(amount, totals.currency, t.locale));
  return (
    <SectionCard title={t("detail.totals")}>
      <Box as="div">
        <Details>
          <Row label={waybill ? t("detail.waybillTotal") : t("detail.orderTotal")}>
            <Text as="span" numeric fontWeight="semibold">
              {money(totals.orderTotal)}
            </Text>
          </Row>
          {totals.remote && (
            <>
              <Row label={t("detail.linesTotal")}>{money(totals.remote.linesTotal)}</Row>
              <Row label={t("detail.discountTotal")}>{money(totals.remote.discountTotal)}</Row>
              <Row label={t("detail.taxTotal")}>{money(totals.remote.taxTotal)}</Row>
              {totals.remote.extraTaxTotal && totals.remote.extraTaxTotal !== "0" && (
                <Row label={t("detail.extraTaxTotal")}>{money(totals.remote.extraTaxTotal)}</Row>
              )}
              <Row label={t("detail.grandTotal")}>
                <Text as="span" numeric fontWeight="semibold">
                  {money(totals.remote.grandTotal)}
                </Text>
              </Row>
            </>
          )}
        </Details>
      </Box>
      {totals.matches === null ? (
        <Text as="p" tone="subdued">
          {t("detail.totalsPending")}
        </Text>
      ) : totals.matches ? (
        <Text as="p" tone="success">
          {waybill ? t("detail.totalsMatchWaybill") : t("detail.totalsMatch")}
        </Text>
      ) : reconciliation ? (
        <Reconciliation reconciliation={reconciliation} currency={totals.currency} />
      ) : (
        <Text as="p" tone="critical">
          {t("detail.totalsDiffer", { difference: money(totals.difference) })}
        </Text>
      )}
    </SectionCard>
  );
}
