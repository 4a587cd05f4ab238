import { Badge } from "@shopify/polaris";
import type { ComponentProps } from "react";
import { useT } from "../i18n/react";

type Tone = ComponentProps<typeof Badge>["tone"];
type Progress = ComponentProps<typeof Badge>["progress"];

const look: Record<string, { tone?: Tone; progress?: Progress }> = {
  waiting: { progress: "incomplete" },
  queued: { tone: "info", progress: "incomplete" },
  // Queued again after a failed try: the app repeats it by itself (the invoice page says when).
  retrying: { tone: "attention", progress: "incomplete" },
  sending: { tone: "info", progress: "partiallyComplete" },
  processing: { tone: "info", progress: "partiallyComplete" },
  completed: { tone: "success", progress: "complete" },
  failed: { tone: "critical", progress: "incomplete" },
  needs_attention: { tone: "warning", progress: "incomplete" },
  cancelled: {},
  closed: { progress: "complete" },
  // Closed by hand as issued in the invoicing panel: legal, issued outside the app.
  issued_in_panel: { tone: "success", progress: "complete" },
  // An order of gift cards only: nothing to invoice when sold, so no invoice is missing.
  gift_card_sale: { progress: "complete" },
};

/**
 * The state a badge shows: a failed try being repeated, an invoice issued in the panel, a gift card sale that needs no
 * invoice, or the row's state.
 */
export function shownState(row: {
  state: string;
  retrying: boolean;
  issuedInPanel: boolean;
  giftCardSale: boolean;
}): string {
  if (row.retrying) return "retrying";
  if (row.issuedInPanel) return "issued_in_panel";
  return row.giftCardSale ? "gift_card_sale" : row.state;
}

export function StateBadge({ state }: { state: string }) {
  const t = useT();
  const { tone, progress } = look[state] ?? {};
  return (
    // Polaris reads the tone and progress out ("Success Complete"), which says the state twice over: name it instead.
    <Badge tone={tone} progress={progress} toneAndProgressLabelOverride={t("badge.stateLabel")}>
      {t.dyn(`state.${state}`, state)}
    </Badge>
  );
}

export function KindBadge({ kind }: { kind: string | null }) {
  const t = useT();
  if (!kind) return null;
  return (
    <Badge tone={kind === "e_invoice" ? "magic" : "new"} toneAndProgressLabelOverride={t("badge.kindLabel")}>
      {t.dyn(`kind.${kind}`, kind)}
    </Badge>
  );
}
