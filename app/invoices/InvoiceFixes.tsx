// The invoice page's way out when the app cannot finish an invoice by itself (issue 22, point 1): each problem with
// what fixes it and its actions (./problem-fixes.ts, issue 36 point 4); set the buyer by hand (the form starts from
// the order's buyer), or close the invoice as issued in the invoicing panel or as needing no invoice; a closed invoice
// says how and can be reopened. The forms post to the page's own action (app/routes/app.invoices.$id.tsx).
import {
  Banner,
  BlockStack,
  Button,
  ChoiceList,
  FormLayout,
  InlineStack,
  Layout,
  List,
  Modal,
  Text,
  TextField,
} from "@shopify/polaris";
import { useFetcher } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { useEffect, useState } from "react";
import { useT } from "../i18n/react";
import { useFreshValue } from "../ui/useFreshValue";
import type { BuyerOverride } from "../orders/buyer-override";
import { formatDateTime } from "../ui/format";
import { SectionCard } from "../ui/SectionCard";
import { STATE } from "../invoice-state/transitions";
import { problemText, type Problem } from "../problems";
import type { BuyerDraft } from "../orders/customer";
import { fixOf, needsBuyer, type FixAction } from "./problem-fixes";

/** The buyer override as the page receives it (its time is shown from the history). */
type Override = Omit<BuyerOverride, "at">;

interface Closure {
  as: "panel" | "not_needed";
  serial?: string;
  reason?: string;
  at: string;
}

interface Props {
  state: string;
  canClose: boolean;
  canOverrideBuyer: boolean;
  closure: Closure | null;
  buyerOverride: Override | null;
  timezone: string;
  /** What stops the invoice, each shown with its fix. */
  errors: Problem[];
  /** The failed state shows them as critical. */
  failed: boolean;
  /** The Shopify order (none for a waybill's invoice). */
  orderId: string | null;
  /** The buyer as the order has it: where the buyer form starts. */
  buyerDraft: BuyerDraft | null;
  /** Retry is the page's own action (its answer is the page's too). */
  retry: { allowed: boolean; busy: boolean; run: () => void };
}

type Answer =
  | { ok: true; intent: string; retried?: boolean }
  | {
      ok: false;
      intent: string;
      reason: string;
      errors?: Record<string, string>;
    };
type Dialog = null | "buyer" | "panel" | "not_needed";

export function InvoiceFixes({
  state,
  canClose,
  canOverrideBuyer,
  closure,
  buyerOverride,
  timezone,
  errors: problems,
  failed,
  orderId,
  buyerDraft,
  retry,
}: Props) {
  const t = useT();
  const shopify = useAppBridge();
  const fetcher = useFetcher<Answer>();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const busy = fetcher.state !== "idle";
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;
  const errors = answer && !answer.ok ? (answer.errors ?? {}) : {};

  // A successful answer closes the dialog (while rendering); its toast is an effect.
  const freshAnswer = useFreshValue(answer);
  if (freshAnswer?.ok) setDialog(null);
  useEffect(() => {
    if (!answer) return;
    if (answer.ok) {
      const done: Record<string, string> = {
        override_buyer: answer.retried ? t("fix.done.buyerRetry") : t("fix.done.buyer"),
        remove_buyer_override: t("fix.done.buyerRemoved"),
        close: t("fix.done.closed"),
        reopen: t("fix.done.reopened"),
      };
      shopify.toast.show(done[answer.intent] ?? t("fix.done.closed"));
    } else if (answer.reason !== "invalid") {
      shopify.toast.show(answer.reason === "not_found" ? t("detail.notFound") : t("detail.notAllowed"), {
        isError: true,
      });
    }
  }, [answer, shopify, t]);

  const open = (which: Dialog) => {
    setFields(
      which === "buyer" && buyerOverride
        ? ({ ...buyerOverride, reason: "" } as Record<string, string>)
        : which === "buyer"
          ? { ...(buyerDraft ?? { kind: "company" }) }
          : {},
    );
    setDialog(which);
  };
  const field = (name: string) => ({
    id: `fix-${name}`,
    value: fields[name] ?? "",
    onChange: (value: string) => setFields((current) => ({ ...current, [name]: value })),
    error: errors[name] ? t.dyn(`fix.error.${errors[name]}`, errors[name]) : undefined,
    autoComplete: "off",
  });
  const submit = (intent: string, extra: Record<string, string> = {}) =>
    fetcher.submit({ intent, ...fields, ...extra }, { method: "post" });

  if (closure) {
    return (
      <Layout.Section>
        <Banner
          tone="info"
          title={
            closure.as === "panel"
              ? t("fix.closed.panel", { serial: closure.serial ?? "—" })
              : t("fix.closed.not_needed")
          }
        >
          <BlockStack gap="200">
            <Text as="p" id="closure">
              {t("fix.closed.body", {
                date: formatDateTime(closure.at, t.locale, timezone),
              })}
            </Text>
            {closure.reason && <Text as="p">{t("fix.buyer.reason", { reason: closure.reason })}</Text>}
            <InlineStack>
              <Button
                id="reopen"
                onClick={() => fetcher.submit({ intent: "reopen" }, { method: "post" })}
                loading={busy}
              >
                {t("fix.reopen")}
              </Button>
            </InlineStack>
          </BlockStack>
        </Banner>
      </Layout.Section>
    );
  }
  // The buyer form is offered where a buyer problem stops the invoice, where one was set, or ahead of a waiting one.
  const offerBuyer =
    canOverrideBuyer && (needsBuyer(problems.map((p) => p.code)) || Boolean(buyerOverride) || state === STATE.waiting);
  const action = (what: FixAction, key: string) => {
    if (what === "buyer")
      return canOverrideBuyer ? (
        <Button key={key} onClick={() => open("buyer")}>
          {buyerOverride ? t("fix.buyer.change") : t("fix.buyer")}
        </Button>
      ) : null;
    if (what === "order")
      return orderId ? (
        <Button key={key} url={`shopify:admin/orders/${orderId}`} target="_top">
          {t("fix.action.order")}
        </Button>
      ) : null;
    if (what === "settings")
      return (
        <Button key={key} url="/app/settings">
          {t("fix.action.settings")}
        </Button>
      );
    if (what === "retry")
      return retry.allowed ? (
        <Button key={key} onClick={retry.run} loading={retry.busy}>
          {t("detail.retry")}
        </Button>
      ) : null;
    if (what === "panel")
      return canClose ? (
        <Button key={key} onClick={() => open("panel")}>
          {t("fix.closePanel")}
        </Button>
      ) : null;
    return canClose ? (
      <Button key={key} onClick={() => open("not_needed")}>
        {t("fix.closeNotNeeded")}
      </Button>
    ) : null;
  };
  const problemList =
    problems.length > 0 ? (
      <Layout.Section>
        <Banner tone={failed ? "critical" : "warning"} title={t("detail.problems")}>
          <List>
            {problems.map((p, index) => {
              const fix = fixOf(p.code);
              const how = fix.how === "none" ? "" : t.dyn(`fix.how.${fix.how}`, "");
              const buttons = fix.actions.map((what) => action(what, what)).filter(Boolean);
              return (
                <List.Item key={index}>
                  <BlockStack gap="200">
                    <span data-problem={p.code}>{problemText(p, t.locale)}</span>
                    {how && (
                      <Text as="span" tone="subdued">
                        {how}
                      </Text>
                    )}
                    {buttons.length > 0 && <InlineStack gap="200">{buttons}</InlineStack>}
                  </BlockStack>
                </List.Item>
              );
            })}
          </List>
        </Banner>
      </Layout.Section>
    ) : null;
  if (!canClose && !canOverrideBuyer) return problemList;
  const company = (fields.kind ?? "company") === "company";
  return (
    <>
      {problemList}
      <Layout.Section>
        <SectionCard title={t("fix.title")}>
          <Text as="p" tone="subdued">
            {offerBuyer ? t("fix.body") : t("fix.bodyClose")}
          </Text>
          {buyerOverride && (
            <BlockStack gap="100">
              <Text as="p" id="buyer-override">
                {t("fix.buyer.current", {
                  who:
                    buyerOverride.kind === "company"
                      ? (buyerOverride.title ?? "")
                      : [buyerOverride.name, buyerOverride.surname].filter(Boolean).join(" "),
                  number: buyerOverride.taxNumber,
                })}
              </Text>
              <Text as="p" tone="subdued">
                {t("fix.buyer.reason", { reason: buyerOverride.reason })}
              </Text>
            </BlockStack>
          )}
          <InlineStack gap="200">
            {offerBuyer && (
              <Button id="fix-buyer" onClick={() => open("buyer")}>
                {buyerOverride ? t("fix.buyer.change") : t("fix.buyer")}
              </Button>
            )}
            {canOverrideBuyer && buyerOverride && (
              <Button
                id="fix-buyer-remove"
                variant="plain"
                onClick={() => fetcher.submit({ intent: "remove_buyer_override" }, { method: "post" })}
                loading={busy}
              >
                {t("fix.buyer.remove")}
              </Button>
            )}
            {canClose && (
              <Button id="fix-close-panel" onClick={() => open("panel")}>
                {t("fix.closePanel")}
              </Button>
            )}
            {canClose && (
              <Button id="fix-close-not-needed" onClick={() => open("not_needed")}>
                {t("fix.closeNotNeeded")}
              </Button>
            )}
          </InlineStack>
        </SectionCard>
        {/* The dialogs open over the page (a portal), whichever element holds them. */}
        <Modal
          open={dialog === "buyer"}
          onClose={() => setDialog(null)}
          title={t("fix.buyer.title")}
          primaryAction={{
            content: state === STATE.waiting ? t("fix.buyer.save") : t("fix.buyer.saveRetry"),
            onAction: () => submit("override_buyer"),
            loading: busy,
            id: "fix-buyer-save",
          }}
          secondaryActions={[{ content: t("fix.cancel"), onAction: () => setDialog(null) }]}
        >
          <Modal.Section>
            <FormLayout>
              <Text as="p" tone="subdued">
                {t("fix.buyer.help")}
              </Text>
              <ChoiceList
                title={t("fix.buyer.kind")}
                choices={[
                  { label: t("fix.buyer.company"), value: "company" },
                  { label: t("fix.buyer.person"), value: "person" },
                ]}
                selected={[fields.kind ?? "company"]}
                onChange={([kind]) => setFields((current) => ({ ...current, kind }))}
                error={errors.kind ? t("fix.error.kind") : undefined}
              />
              <TextField
                {...field("taxNumber")}
                label={company ? t("fix.buyer.taxNumberCompany") : t("fix.buyer.taxNumberPerson")}
                inputMode="numeric"
              />
              {/* Each field its own FormLayout item (a fragment would be one item, its fields without a gap). */}
              {company ? (
                <TextField {...field("title")} label={t("fix.buyer.titleField")} />
              ) : (
                <FormLayout.Group>
                  <TextField {...field("name")} label={t("fix.buyer.name")} />
                  <TextField {...field("surname")} label={t("fix.buyer.surname")} />
                </FormLayout.Group>
              )}
              {company ? <TextField {...field("taxOffice")} label={t("fix.buyer.taxOffice")} /> : null}
              <TextField {...field("reason")} label={t("fix.buyer.reasonField")} multiline={2} />
            </FormLayout>
          </Modal.Section>
        </Modal>
        <Modal
          open={dialog === "panel"}
          onClose={() => setDialog(null)}
          title={t("fix.closePanel.title")}
          primaryAction={{
            content: t("fix.closePanel.confirm"),
            onAction: () => submit("close", { as: "panel" }),
            loading: busy,
            id: "fix-close-panel-confirm",
          }}
          secondaryActions={[{ content: t("fix.cancel"), onAction: () => setDialog(null) }]}
        >
          <Modal.Section>
            <FormLayout>
              <Text as="p">{t("fix.closePanel.body")}</Text>
              <TextField {...field("serial")} label={t("fix.closePanel.serial")} placeholder="ABC2026000000001" />
              <TextField {...field("reason")} label={t("fix.closePanel.note")} />
            </FormLayout>
          </Modal.Section>
        </Modal>
        <Modal
          open={dialog === "not_needed"}
          onClose={() => setDialog(null)}
          title={t("fix.closeNotNeeded.title")}
          primaryAction={{
            content: t("fix.closeNotNeeded.confirm"),
            onAction: () => submit("close", { as: "not_needed" }),
            loading: busy,
            id: "fix-close-not-needed-confirm",
          }}
          secondaryActions={[{ content: t("fix.cancel"), onAction: () => setDialog(null) }]}
        >
          <Modal.Section>
            <FormLayout>
              <Text as="p">{t("fix.closeNotNeeded.body")}</Text>
              <TextField {...field("reason")} label={t("fix.closeNotNeeded.reason")} multiline={2} />
            </FormLayout>
          </Modal.Section>
        </Modal>
      </Layout.Section>
    </>
  );
}
