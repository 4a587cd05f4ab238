// A titled section of a page: Polaris Card › BlockStack › heading › content, the shape every page's sections share
// (issue 25, point 7). The heading is an h2 in Polaris's headingMd, or an h3 in headingSm for a card that sits under
// a heading of the page (the accountant's packages), so the page's outline stays what it was.
import type { ReactNode } from "react";
import { BlockStack, Card, InlineStack, Text } from "@shopify/polaris";

export interface SectionCardProps {
  title: ReactNode;
  /** 2 (default): a section of the page; 3: a card listed under a heading of the page. */
  level?: 2 | 3;
  /** The heading's id, for a test or a label to point at. */
  titleId?: string;
  /** A badge (a state, a count) on the heading's line: right after the title, or at the card's far end. */
  badge?: ReactNode;
  badgeAtEnd?: boolean;
  /** The space between the heading and each piece of content: 300 by default, 200 for a compact card. */
  gap?: "200" | "300";
  children?: ReactNode;
}

export function SectionCard({
  title,
  level = 2,
  titleId,
  badge,
  badgeAtEnd = false,
  gap = "300",
  children,
}: SectionCardProps) {
  const heading = (
    <Text as={level === 2 ? "h2" : "h3"} variant={level === 2 ? "headingMd" : "headingSm"} id={titleId}>
      {title}
    </Text>
  );
  return (
    <Card>
      <BlockStack gap={gap}>
        {badge ? (
          <InlineStack gap="200" align={badgeAtEnd ? "space-between" : undefined} blockAlign="center">
            {heading}
            {badge}
          </InlineStack>
        ) : (
          heading
        )}
        {children}
      </BlockStack>
    </Card>
  );
}
