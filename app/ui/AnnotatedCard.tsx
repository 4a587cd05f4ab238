// A section of the Settings page, in the annotated layout merchants know from Shopify's own settings: the title and
// description beside (above, on a phone) a Card of stacked fields. The title is the section's heading (Polaris's
// Layout.AnnotatedSection renders it), so the card itself has none.
import type { ReactNode } from "react";
import { BlockStack, Card, Layout } from "@shopify/polaris";

export interface AnnotatedCardProps {
  /** The section's id: the page's anchors and the browser tests find sections by it. */
  id: string;
  title: ReactNode;
  description?: ReactNode;
  /** The space between fields: 400 by default, 300 for a list of rows (payment methods, carriers). */
  gap?: "300" | "400";
  /** The id of the stack of fields, for an error message to point at (InlineError's fieldID). */
  contentId?: string;
  children: ReactNode;
}

export function AnnotatedCard({ id, title, description, gap = "400", contentId, children }: AnnotatedCardProps) {
  return (
    <Layout.AnnotatedSection id={id} title={title} description={description}>
      <Card>
        <BlockStack gap={gap} id={contentId}>
          {children}
        </BlockStack>
      </Card>
    </Layout.AnnotatedSection>
  );
}
