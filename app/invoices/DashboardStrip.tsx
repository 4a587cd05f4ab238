import { BlockStack, Card, InlineGrid, Text } from "@shopify/polaris";
import type { DashboardCounts } from "./list.server";
import { useT } from "../i18n/react";
import type { MessageKey } from "../i18n/i18n";

const tiles: Array<{ key: keyof DashboardCounts; label: MessageKey; tone?: "critical" | "caution" }> = [
  { key: "today", label: "dashboard.today" },
  { key: "inFlight", label: "dashboard.inFlight" },
  { key: "needsAttention", label: "dashboard.needsAttention", tone: "caution" },
  { key: "failed", label: "dashboard.failed", tone: "critical" },
];

export function DashboardStrip({ counts }: { counts: DashboardCounts }) {
  const t = useT();
  const number = new Intl.NumberFormat(t.locale === "tr" ? "tr-TR" : "en-US");
  return (
    <InlineGrid columns={{ xs: 2, md: 4 }} gap="400">
      {tiles.map((tile) => (
        <Card key={tile.key}>
          <BlockStack gap="100">
            <Text as="h3" variant="headingSm" tone="subdued">
              {t(tile.label)}
            </Text>
            <Text
              as="p"
              variant="headingLg"
              tone={counts[tile.key] > 0 ? tile.tone : undefined}
              id={`count-${tile.key}`}
            >
              {number.format(counts[tile.key])}
            </Text>
          </BlockStack>
        </Card>
      ))}
    </InlineGrid>
  );
}
