// The app's home: the shop's invoices (newest first, filters, search, keyset pages), a dashboard strip,
// a banner when anything needs the merchant, and the onboarding checklist until the settings work.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useFetcher, useLoaderData, useSearchParams } from "@remix-run/react";
import { Banner, BlockStack, Modal, Page, Text } from "@shopify/polaris";
import { useAppBridge } from "@shopify/app-bridge-react";
import { useEffect, useState } from "react";
import { authenticate } from "../shopify.server";
import { loadInvoicesPage } from "../invoices/list.server";
import { issueTestInvoicesForReal, sendTestInvoice } from "../invoices/actions.server";
import { IN_FLIGHT_STATES } from "../invoice-state/transitions";
import { useT } from "../i18n/react";
import { BODY_LIMITS, bufferedRequest } from "../http/body-limit.server";
import { DashboardStrip } from "../invoices/DashboardStrip";
import { OnboardingChecklist } from "../invoices/OnboardingChecklist";
import { InvoiceTable } from "../invoices/InvoiceTable";
import { useRevalidateWhile } from "../ui/useRevalidateWhile";
import { useFreshValue } from "../ui/useFreshValue";
import { problemText } from "../problems";
import type { TitleHandle } from "../i18n/page-title";
import { STATE } from "../invoice-state/transitions";
import { shopifyConnectionOf } from "../shops/connection.server";
import { ConnectionBanner } from "../shops/ConnectionBanner";

export const handle: TitleHandle = { title: "home.title" };

/** How often the page re-reads its data while an invoice on it is still in progress. */

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const [data, connection] = await Promise.all([
    loadInvoicesPage(session.shop, new URL(request.url).searchParams),
    shopifyConnectionOf(session.shop),
  ]);
  return json({ shop: session.shop, connection, ...data });
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const form = await (await bufferedRequest(request, BODY_LIMITS.adminAction)).formData();
  if (form.get("intent") === "send_test") {
    const result = await sendTestInvoice(session.shop);
    return json(
      { ...result, intent: "send_test" as const },
      { status: result.ok ? 200 : "reason" in result && result.reason === "throttled" ? 429 : 409 },
    );
  }
  if (form.get("intent") === "issue_for_real") {
    const result = await issueTestInvoicesForReal(session.shop);
    return json({ ...result, intent: "issue_for_real" as const }, { status: result.ok ? 200 : 409 });
  }
  return json({ ok: false as const, reason: "unknown_intent" }, { status: 400 });
};

export default function Invoices() {
  const data = useLoaderData<typeof loader>();
  const t = useT();
  const [, setSearchParams] = useSearchParams();
  const shopify = useAppBridge();
  const testFetcher = useFetcher<typeof action>();
  const issueFetcher = useFetcher<typeof action>();
  const [confirmingIssue, setConfirmingIssue] = useState(false);

  const inFlight = data.page.rows.some((row) => (IN_FLIGHT_STATES as string[]).includes(row.state));
  useRevalidateWhile(inFlight);

  useEffect(() => {
    const result = testFetcher.data;
    if (!result || testFetcher.state !== "idle") return;
    if (result.ok) shopify.toast.show(t("onboarding.testSent"));
    else
      shopify.toast.show(
        t(
          "reason" in result && result.reason === "throttled" ? "onboarding.testThrottled" : "onboarding.notConfigured",
        ),
        { isError: true },
      );
  }, [testFetcher.data, testFetcher.state, shopify, t]);

  // An answer to "issue for real" closes its confirmation (while rendering); its toast is an effect.
  const issueAnswer = useFreshValue(issueFetcher.state === "idle" ? issueFetcher.data : undefined);
  if (issueAnswer) setConfirmingIssue(false);
  useEffect(() => {
    const result = issueFetcher.data;
    if (!result || issueFetcher.state !== "idle") return;
    if (result.ok) shopify.toast.show(t("issueForReal.done", { count: "count" in result ? (result.count ?? 0) : 0 }));
    else shopify.toast.show(t("issueForReal.failed"), { isError: true });
  }, [issueFetcher.data, issueFetcher.state, shopify, t]);
  const toIssue = data.testInvoicesToIssue;

  const showAttention = () => setSearchParams(new URLSearchParams({ state: STATE.needs_attention }));

  return (
    <Page title={t("home.title")} secondaryActions={[{ content: t("nav.settings"), url: "/app/settings" }]}>
      <BlockStack gap="400">
        <ConnectionBanner connection={data.connection} timezone={data.timezone} />
        {data.accountProblem && (
          <Banner
            tone="critical"
            title={t("banner.accountProblem.title")}
            action={{ content: t("nav.settings"), url: "/app/settings" }}
          >
            <p id="account-problem">{problemText({ code: `settings.${data.accountProblem}` }, t.locale)}</p>
          </Banner>
        )}
        {data.counts.needsAttention > 0 && (
          <Banner
            tone="warning"
            title={t("banner.attention.title", { count: data.counts.needsAttention })}
            action={{ content: t("banner.attention.action"), onAction: showAttention }}
          >
            <p>{t("banner.attention.body")}</p>
          </Banner>
        )}
        {data.nearDeadline > 0 && (
          <Banner
            tone="critical"
            title={t("banner.deadline.title", { count: data.nearDeadline })}
            action={{
              content: t("banner.deadline.action"),
              onAction: () => setSearchParams(new URLSearchParams({ deadline: "near" })),
            }}
          >
            <p id="deadline-banner">{t("banner.deadline.body")}</p>
          </Banner>
        )}
        {data.counts.failed > 0 && data.counts.needsAttention === 0 && (
          <Banner
            tone="critical"
            title={t("banner.failed.title", { count: data.counts.failed })}
            action={{
              content: t("banner.attention.action"),
              onAction: () => setSearchParams(new URLSearchParams({ state: STATE.failed })),
            }}
          />
        )}
        {data.onboarding.complete && data.onboarding.testMode && (
          <Banner tone="info" action={{ content: t("nav.settings"), url: "/app/settings" }}>
            <p>
              <strong>{t("banner.testMode.title")}.</strong> {t("banner.testMode.body")}
            </p>
          </Banner>
        )}
        {toIssue > 0 && (
          <Banner
            tone="warning"
            title={t("banner.issueForReal.title", { count: toIssue })}
            action={{
              content: t("banner.issueForReal.action", { count: toIssue }),
              onAction: () => setConfirmingIssue(true),
            }}
          >
            <p>{t("banner.issueForReal.body")}</p>
          </Banner>
        )}
        <Modal
          open={confirmingIssue}
          onClose={() => setConfirmingIssue(false)}
          title={t("issueForReal.title", { count: toIssue })}
          primaryAction={{
            content: t("issueForReal.confirm", { count: toIssue }),
            loading: issueFetcher.state !== "idle",
            onAction: () => issueFetcher.submit({ intent: "issue_for_real" }, { method: "post" }),
          }}
          secondaryActions={[{ content: t("issueForReal.cancel"), onAction: () => setConfirmingIssue(false) }]}
        >
          <Modal.Section>
            <Text as="p">{t("issueForReal.body", { count: toIssue })}</Text>
          </Modal.Section>
        </Modal>
        {!data.onboarding.complete && (
          <OnboardingChecklist
            steps={data.onboarding}
            sending={testFetcher.state !== "idle"}
            onSendTest={() => testFetcher.submit({ intent: "send_test" }, { method: "post" })}
          />
        )}
        <DashboardStrip counts={data.counts} />
        {(data.hasInvoices || data.onboarding.complete) && (
          <InvoiceTable page={data.page} filters={data.filters} timezone={data.timezone} />
        )}
        {inFlight && (
          <Text as="p" variant="bodySm" tone="subdued">
            {t("list.live")}
          </Text>
        )}
      </BlockStack>
    </Page>
  );
}
