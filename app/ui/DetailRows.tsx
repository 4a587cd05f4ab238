// A description list for a card's facts: each Row is a term and its value, read by a screen reader as pairs.
import { InlineGrid, Text } from "@shopify/polaris";

export function Details({ children }: { children: React.ReactNode }) {
  return <dl style={{ margin: 0, display: "grid", gap: "var(--p-space-200)" }}>{children}</dl>;
}

export function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <InlineGrid columns={{ xs: 1, sm: ["oneThird", "twoThirds"] }} gap="200">
      <Text as="dt" tone="subdued">
        {label}
      </Text>
      <dd style={{ margin: 0 }}>{children}</dd>
    </InlineGrid>
  );
}
