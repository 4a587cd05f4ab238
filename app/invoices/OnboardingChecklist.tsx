import { Badge, BlockStack, Box, Button, Card, InlineStack, ProgressBar, Text } from "@shopify/polaris";
import type { Onboarding } from "./list.server";
import type { MessageKey } from "../i18n/i18n";
import { useT } from "../i18n/react";
import { STATE } from "../invoice-state/transitions";

interface Props {
  steps: Onboarding;
  sending: boolean;
  onSendTest: () => void;
}

export function OnboardingChecklist({ steps, sending, onSendTest }: Props) {
  const t = useT();
  const testDone = steps.testInvoice === STATE.completed;
  const list: Array<{ id: string; title: MessageKey; help: MessageKey; done: boolean; action: "settings" | "test" }> = [
    {
      id: "apiKey",
      title: "onboarding.apiKey",
      help: "onboarding.apiKey.help",
      done: steps.apiKey,
      action: "settings",
    },
    {
      id: "integration",
      title: "onboarding.integration",
      help: "onboarding.integration.help",
      done: steps.integration,
      action: "settings",
    },
    {
      id: "saleChannel",
      title: "onboarding.saleChannel",
      help: "onboarding.saleChannel.help",
      done: steps.saleChannel,
      action: "settings",
    },
    {
      id: "testInvoice",
      title: "onboarding.testInvoice",
      help: "onboarding.testInvoice.help",
      done: testDone,
      action: "test",
    },
  ];
  const done = list.filter((step) => step.done).length;
  const canSendTest = steps.apiKey && steps.saleChannel && steps.dummyIntegration;
  const firstOpen = list.find((step) => !step.done)?.id;

  return (
    <Card>
      <BlockStack gap="400">
        <BlockStack gap="200">
          <Text as="h2" variant="headingMd">
            {t("onboarding.title")}
          </Text>
          <Text as="p" tone="subdued">
            {t("onboarding.body")}
          </Text>
          <InlineStack gap="300" blockAlign="center" align="start" wrap={false}>
            <Text as="span" variant="bodySm" tone="subdued">
              {t("onboarding.progress", { done, total: list.length })}
            </Text>
            <Box width="200px">
              <ProgressBar progress={(done / list.length) * 100} size="small" tone="primary" />
            </Box>
          </InlineStack>
        </BlockStack>
        <BlockStack gap="300">
          {list.map((step, index) => (
            <Box
              key={step.id}
              padding="300"
              background={step.id === firstOpen ? "bg-surface-secondary" : undefined}
              borderRadius="200"
              id={`step-${step.id}`}
            >
              <InlineStack align="space-between" blockAlign="center" gap="400">
                <BlockStack gap="100">
                  <InlineStack gap="200" blockAlign="center" align="start">
                    {step.done ? (
                      <Badge tone="success" progress="complete">
                        {t("onboarding.done")}
                      </Badge>
                    ) : (
                      <Badge progress="incomplete">{String(index + 1)}</Badge>
                    )}
                    <Text as="h3" variant="headingSm">
                      {t(step.title)}
                    </Text>
                  </InlineStack>
                  <Text as="p" tone="subdued">
                    {t(step.help)}
                  </Text>
                  {step.action === "test" && steps.testInvoice && !testDone && (
                    <Text as="p" variant="bodySm">
                      {t("onboarding.testInvoice.state", {
                        state: t.dyn(`state.${steps.testInvoice}`, steps.testInvoice),
                      })}
                    </Text>
                  )}
                </BlockStack>
                {!step.done &&
                  (step.action === "settings" ? (
                    <Button url="/app/settings" variant={step.id === firstOpen ? "primary" : undefined}>
                      {t("onboarding.openSettings")}
                    </Button>
                  ) : (
                    <Button
                      onClick={onSendTest}
                      loading={sending}
                      disabled={!canSendTest}
                      variant={step.id === firstOpen ? "primary" : undefined}
                    >
                      {t("onboarding.sendTest")}
                    </Button>
                  ))}
              </InlineStack>
            </Box>
          ))}
        </BlockStack>
      </BlockStack>
    </Card>
  );
}
