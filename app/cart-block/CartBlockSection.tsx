// Settings: the cart block "Fatura bilgileri / Invoice details": how to add it, and whether orders carry what
// buyers enter in it.
import { Badge, BlockStack, Button, InlineStack, List, Text } from "@shopify/polaris";
import type { CartBlockUsage } from "./cart-block.server";
import { formatDateTime } from "../ui/format";
import { useT } from "../i18n/react";
import { AnnotatedCard } from "../ui/AnnotatedCard";

interface Props {
  usage: CartBlockUsage;
  editorUrl: string;
  timezone: string;
  /** The note attribute names the block writes (the first of each setting). */
  names: string[];
}

export function CartBlockSection({ usage, editorUrl, timezone, names }: Props) {
  const t = useT();
  return (
    <AnnotatedCard id="cart-block" title={t("cartBlock.title")} description={t("cartBlock.description")}>
      <BlockStack gap="200">
        <Text as="h3" variant="headingSm">
          {t("cartBlock.how")}
        </Text>
        <List type="number">
          <List.Item>{t("cartBlock.step1")}</List.Item>
          <List.Item>{t("cartBlock.step2")}</List.Item>
          <List.Item>{t("cartBlock.step3")}</List.Item>
        </List>
        <InlineStack>
          <Button url={editorUrl} target="_top" id="open-theme-editor">
            {t("cartBlock.open")}
          </Button>
        </InlineStack>
      </BlockStack>
      <BlockStack gap="200" id="cart-block-usage">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h3" variant="headingSm">
            {t("cartBlock.usage")}
          </Text>
          {usage.recent === 0 ? (
            <Badge>{t("cartBlock.usage.noOrders")}</Badge>
          ) : usage.withDetails > 0 ? (
            <Badge tone="success">{t("cartBlock.usage.inUse")}</Badge>
          ) : (
            <Badge tone="attention">{t("cartBlock.usage.notSeen")}</Badge>
          )}
        </InlineStack>
        <Text as="p">
          {usage.recent === 0
            ? t("cartBlock.usage.noOrdersBody")
            : t("cartBlock.usage.count", { withDetails: usage.withDetails, recent: usage.recent })}
          {usage.latestAt
            ? ` ${t("cartBlock.usage.latest", { date: formatDateTime(usage.latestAt, t.locale, timezone) })}`
            : ""}
        </Text>
        {usage.recent > 0 && usage.withDetails === 0 && (
          <Text as="p" tone="subdued">
            {t("cartBlock.usage.notSeenBody")}
          </Text>
        )}
        <Text as="p" tone="subdued" variant="bodySm">
          {t("cartBlock.names", { names: names.map((name) => `“${name}”`).join(", ") })}
        </Text>
      </BlockStack>
    </AnnotatedCard>
  );
}
