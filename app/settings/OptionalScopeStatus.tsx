// Settings: whether an optional scope (shopify.app.toml `optional_scopes`) is granted, and a button that asks for
// it through App Bridge's scopes API (Shopify shows its own grant dialog); the page then reads the scopes again.
import { Badge, Banner, BlockStack, Button, InlineStack } from "@shopify/polaris";
import { useAppBridge } from "@shopify/app-bridge-react";
import { useRevalidator } from "@remix-run/react";

interface Props {
  scope: string;
  granted: boolean;
  grantedText: string;
  missingTitle: string;
  missingText: string;
  grantLabel: string;
  buttonId: string;
}

export function OptionalScopeStatus({
  scope,
  granted,
  grantedText,
  missingTitle,
  missingText,
  grantLabel,
  buttonId,
}: Props) {
  const shopify = useAppBridge();
  const revalidator = useRevalidator();
  const grant = async () => {
    await (shopify as unknown as { scopes?: { request(scopes: string[]): Promise<unknown> } }).scopes
      ?.request([scope])
      .catch(() => undefined);
    revalidator.revalidate();
  };
  if (granted) {
    return (
      <InlineStack gap="200" blockAlign="center">
        <Badge tone="success">{grantedText}</Badge>
      </InlineStack>
    );
  }
  return (
    <Banner tone="info" title={missingTitle}>
      <BlockStack gap="200">
        <p>{missingText}</p>
        <InlineStack>
          <Button id={buttonId} onClick={grant}>
            {grantLabel}
          </Button>
        </InlineStack>
      </BlockStack>
    </Banner>
  );
}
