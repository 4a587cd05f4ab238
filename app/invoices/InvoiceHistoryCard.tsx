// An invoice's history, newest first, in the merchant's words (app/invoices/history.ts), each event's problems in full.
import { BlockStack, InlineStack, Text } from "@shopify/polaris";
import { useT } from "../i18n/react";
import { formatDateTime } from "../ui/format";
import { SectionCard } from "../ui/SectionCard";
import { problemText } from "../problems";
import { historyDetail, historyTitle, type HistoryContext } from "./history";
import type { InvoiceDetail } from "./detail.server";

export function InvoiceHistoryCard({ events, history }: { events: InvoiceDetail["events"]; history: HistoryContext }) {
  const t = useT();
  return (
    <SectionCard title={t("detail.events")}>
      {events.length === 0 ? (
        <Text as="p" tone="subdued">
          {t("detail.noEvents")}
        </Text>
      ) : (
        <BlockStack gap="200">
          {[...events].reverse().map((event) => (
            <BlockStack gap="050" key={event.id}>
              <InlineStack align="space-between" gap="200" wrap={false}>
                <Text as="span" fontWeight="semibold">
                  {historyTitle(event, history)}
                </Text>
                <Text as="span" tone="subdued" variant="bodySm">
                  {formatDateTime(event.at, history.locale, history.timezone)}
                </Text>
              </InlineStack>
              {event.problems.length > 0
                ? event.problems.map((p, index) => (
                    <Text as="p" tone="subdued" variant="bodySm" breakWord key={index}>
                      {problemText(p, history.locale)}
                    </Text>
                  ))
                : historyDetail(event, history) && (
                    <Text as="p" tone="subdued" variant="bodySm" breakWord>
                      {historyDetail(event, history)}
                    </Text>
                  )}
            </BlockStack>
          ))}
        </BlockStack>
      )}
    </SectionCard>
  );
}
