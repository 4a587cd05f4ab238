// The invoice page's "Shopify order" card: whether the invoice was written to its order (tags, metafields,
// Flow), is waiting, failed (with a retry), or cannot be written without the write_orders scope (granting it resumes).
import { Badge, Button, InlineStack, Text } from "@shopify/polaris";
import { useT } from "../i18n/react";
import { STATE } from "../invoice-state/transitions";
import { SectionCard } from "../ui/SectionCard";

export interface WriteBackStatus {
  status: "pending" | "written" | "failed" | "no_scope" | "none";
  lastError: string | null;
  /** The invoice state the order carries, as last written. */
  writtenState?: string | null;
}

export function WriteBackCard({
  writeBack,
  invoiceState,
  onRetry,
  busy,
}: {
  writeBack: WriteBackStatus;
  invoiceState: string;
  onRetry: () => void;
  busy: boolean;
}) {
  const t = useT();
  // A green tick says "all is well": only for a completed invoice. Otherwise the card says which state the order
  // carries (what was written, which may be older than the invoice's state now).
  const problemWritten = writeBack.status === "written" && invoiceState !== STATE.completed;
  const shown = writeBack.writtenState ?? invoiceState;
  const tone = problemWritten
    ? undefined
    : writeBack.status === "written"
      ? "success"
      : writeBack.status === "failed"
        ? "critical"
        : writeBack.status === "no_scope"
          ? "attention"
          : undefined;
  return (
    <SectionCard title={t("writeBack.status.title")} gap="200">
      {writeBack.status === "none" ? (
        <Text as="p" tone="subdued">
          {t("writeBack.status.none")}
        </Text>
      ) : writeBack.status === "no_scope" ? (
        <Text as="p" id="write-back-status">
          {t("writeBack.status.no_scope")}
        </Text>
      ) : (
        <InlineStack>
          <span id="write-back-status">
            <Badge tone={tone}>
              {problemWritten
                ? t("writeBack.status.writtenState", { state: t.dyn(`state.${shown}`, shown) })
                : t(`writeBack.status.${writeBack.status}`)}
            </Badge>
          </span>
        </InlineStack>
      )}
      {writeBack.status === "failed" && writeBack.lastError && (
        <Text as="p" tone="subdued" breakWord>
          {t("writeBack.lastError", { error: writeBack.lastError })}
        </Text>
      )}
      {/* Without the scope there is nothing to retry: granting it in Settings resumes every parked write. */}
      {writeBack.status === "failed" && (
        <InlineStack>
          <Button id="retry-write-back" onClick={onRetry} loading={busy}>
            {t("writeBack.retry")}
          </Button>
        </InlineStack>
      )}
    </SectionCard>
  );
}
