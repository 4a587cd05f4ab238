// The invoice page's after-sale view: each refund (what, how much, when, what the app did with it), the path that
// applies to the formalised invoice, and the money reconciliation with its known reasons.
import { Banner, BlockStack, Box, Button, InlineStack, List, Text } from "@shopify/polaris";
import type { AfterSaleView, Reconciliation as ReconciliationData } from "./rules";
import { useT } from "../i18n/react";
import { formatDate, formatDateTime, formatMoney } from "../ui/format";
import { SectionCard } from "../ui/SectionCard";

interface CardProps {
  afterSale: AfterSaleView;
  cancelledInShop: boolean;
  currency: string;
  timezone: string;
  panelUrl: string | null;
  busy: boolean;
  onConfirm: () => void;
}

export function AfterSaleCard({
  afterSale,
  cancelledInShop,
  currency,
  timezone,
  panelUrl,
  busy,
  onConfirm,
}: CardProps) {
  const t = useT();
  const locale = t.locale;
  const money = (amount: string) => formatMoney(amount, currency, locale);
  const path = afterSale.path;
  const day = (ymd: string) => formatDate(`${ymd}T12:00:00Z`, locale, "UTC");
  return (
    <SectionCard title={t("afterSale.title")}>
      {cancelledInShop && <Text as="p">{t("afterSale.cancelledInShop")}</Text>}
      {path?.kind === "cancel" && (
        <Banner tone="warning" title={t("afterSale.path.cancel.title", { deadline: day(path.deadline) })}>
          <BlockStack gap="200">
            <Text as="p">{t("afterSale.path.cancel.panel")}</Text>
            <InlineStack gap="200">
              {panelUrl && (
                <Button url={panelUrl} external target="_blank">
                  {t("detail.openPanel")}
                </Button>
              )}
              {/* The page's primary action is the same: one primary button per page. */}
              <Button onClick={onConfirm} loading={busy} id="confirm-panel-cancel">
                {t("afterSale.path.cancel.confirm")}
              </Button>
            </InlineStack>
          </BlockStack>
        </Banner>
      )}
      {path?.kind === "cancelled_confirmed" && (
        <Banner tone="success">
          {t("afterSale.path.cancelled_confirmed", { date: formatDateTime(path.at, locale, timezone) })}
        </Banner>
      )}
      {path?.kind === "consumer_return" && (
        <Banner tone="info" title={t("afterSale.path.consumer_return.title")}>
          <Text as="p">{t("afterSale.path.consumer_return")}</Text>
        </Banner>
      )}
      {path?.kind === "buyer_return_invoice" && (
        <Banner tone="info" title={t("afterSale.path.buyer_return_invoice.title")}>
          <Text as="p">{t("afterSale.path.buyer_return_invoice")}</Text>
        </Banner>
      )}
      {path?.kind === "unknown_document" && <Banner tone="warning">{t("afterSale.path.unknown_document")}</Banner>}
      {afterSale.refunds.map((refund) => (
        <Box key={refund.refundId} padding="300" background="bg-surface-secondary" borderRadius="200">
          <BlockStack gap="150">
            <InlineStack align="space-between" gap="200">
              <Text as="h3" variant="headingSm">
                {t("afterSale.refund", { date: formatDateTime(refund.refundedAt, locale, timezone) })}
              </Text>
              <Text as="span" numeric fontWeight="semibold">
                {t("afterSale.amount")}: {money(refund.amount)}
              </Text>
            </InlineStack>
            {refund.lines.length > 0 ? (
              <List>
                {refund.lines.map((line) => (
                  <List.Item key={line.lineItemId}>
                    {line.quantity} × {line.name}
                    {line.sku ? ` (${line.sku})` : ""} · {money(line.subtotal)} · KDV {money(line.tax)}
                  </List.Item>
                ))}
              </List>
            ) : (
              !refund.hasLineItems && Number(refund.shipping) === 0 && <Text as="p">{t("afterSale.amountOnly")}</Text>
            )}
            {Number(refund.shipping) > 0 && (
              <Text as="p">
                {t("afterSale.shipping")}: {money(refund.shipping)}
              </Text>
            )}
            {Number(refund.giftCardAmount) > 0 && (
              <Text as="p">{t("afterSale.giftCardPart", { amount: money(refund.giftCardAmount) })}</Text>
            )}
            {refund.restock && (
              <Text as="p" tone="subdued">
                {t("afterSale.restocked")}
              </Text>
            )}
            <Text as="p" tone="subdued">
              {t.dyn(`afterSale.handling.${refund.handling ?? "pending"}`, refund.handling ?? "")}
            </Text>
          </BlockStack>
        </Box>
      ))}
    </SectionCard>
  );
}

export function Reconciliation({ reconciliation, currency }: { reconciliation: ReconciliationData; currency: string }) {
  const t = useT();
  const money = (amount: string) => formatMoney(amount, currency, t.locale);
  return (
    <BlockStack gap="200">
      {reconciliation.reasons.length > 0 && (
        <BlockStack gap="100">
          <Text as="p" fontWeight="semibold">
            {t("recon.reasons")}
          </Text>
          <List>
            {reconciliation.reasons.map((reason) => (
              <List.Item key={reason.kind}>
                {t.dyn(`recon.${reason.kind}`, reason.kind)}: {money(reason.amount)}
              </List.Item>
            ))}
          </List>
        </BlockStack>
      )}
      {reconciliation.reconciled ? (
        <Text as="p" tone="success" id="reconciliation">
          {t("recon.explained", { difference: money(reconciliation.difference) })}
        </Text>
      ) : (
        <Text as="p" tone="critical" id="reconciliation">
          {t("recon.unexplained", {
            difference: money(reconciliation.difference),
            unexplained: money(reconciliation.unexplained),
          })}
        </Text>
      )}
    </BlockStack>
  );
}
