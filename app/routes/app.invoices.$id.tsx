// One invoice: the order, what was sent, the service's totals against the amount paid, the problems in
// plain words, the audit trail, and the merchant's actions (retry, invoice now, PDF, invoicing panel).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { isRouteErrorResponse, useFetcher, useLoaderData, useRouteError } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, InlineStack, Layout, Link, List, Page, Text } from "@shopify/polaris";
import { useAppBridge } from "@shopify/app-bridge-react";
import { useEffect } from "react";
import { authenticate } from "../shopify.server";
import { getInvoiceDetail } from "../invoices/detail.server";
import { confirmPanelCancel } from "../after-sale/invoice-view.server";
import { AfterSaleCard } from "../after-sale/AfterSaleCard";
import { shopTimezone } from "../invoices/list.server";
import { invoiceNow, retryInvoice } from "../invoices/actions.server";
import { closeInvoice, removeBuyerOverride, reopenInvoice, setBuyerOverride } from "../invoices/fixes.server";
import { InvoiceFixes } from "../invoices/InvoiceFixes";
import { retryCanFix } from "../invoices/problem-fixes";
import { useT } from "../i18n/react";
import { BODY_LIMITS, bufferedRequest } from "../http/body-limit.server";
import { formatDate, formatDateTime, formatDay } from "../ui/format";
import { problemText, reasonText } from "../problems";
import { KindBadge, shownState, StateBadge } from "../invoices/StateBadge";
import { useRevalidateWhile } from "../ui/useRevalidateWhile";
import { usePdfDownload } from "../pdf/usePdfDownload";
import { WriteBackCard } from "../write-back/WriteBackCard";
import { retryWriteBack, writeBackOf } from "../write-back/run.server";
import { refreshScopes } from "../shops/scopes.server";
import { translate } from "../i18n/i18n";
import type { TitleHandle } from "../i18n/page-title";
import { STATE } from "../invoice-state/transitions";
import { SectionCard } from "../ui/SectionCard";
import { Details, Row } from "../ui/DetailRows";
import { InvoiceTotalsCard } from "../invoices/InvoiceTotalsCard";
import { InvoiceHistoryCard } from "../invoices/InvoiceHistoryCard";

export const handle: TitleHandle = {
  title: (data, locale) => {
    const invoice = (data as { invoice?: { orderName: string; waybillId: number | null } } | undefined)?.invoice;
    if (!invoice) return translate(locale, "detail.notFound");
    return invoice.waybillId !== null
      ? translate(locale, "detail.titleWaybill", { number: invoice.orderName })
      : translate(locale, "detail.title", { order: invoice.orderName });
  },
};

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session, scopes } = await authenticate.admin(request);
  const timezone = await shopTimezone(session.shop);
  const invoice = await getInvoiceDetail(session.shop, params.id ?? "", timezone);
  if (!invoice) throw new Response("Not Found", { status: 404 });
  // Only invoices of Shopify orders are written back (not test invoices of the settings page, not waybills).
  const ownsOrder = !invoice.isTest && invoice.waybillId === null;
  const [writeBack, canWrite] = await Promise.all([
    ownsOrder ? writeBackOf(session.shop, invoice.id) : null,
    ownsOrder ? refreshScopes(session.shop, scopes).then((granted) => granted.canWrite) : false,
  ]);
  const writeBackStatus = !ownsOrder
    ? null
    : !canWrite
      ? { status: "no_scope" as const, lastError: null }
      : writeBack
        ? { status: writeBack.status, lastError: writeBack.lastError, writtenState: writeBack.writtenState }
        : { status: "none" as const, lastError: null };
  return json({ invoice, timezone, writeBack: writeBackStatus });
};

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const form = await (await bufferedRequest(request, BODY_LIMITS.adminAction)).formData();
  const intent = form.get("intent");
  const id = params.id ?? "";
  // The fixes by hand (app/invoices/fixes.server.ts): a refused form answers 422 with its field errors.
  if (intent === "override_buyer" || intent === "remove_buyer_override" || intent === "close" || intent === "reopen") {
    const fields = Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === "string"));
    const fixed =
      intent === "override_buyer"
        ? await setBuyerOverride(session.shop, id, fields)
        : intent === "remove_buyer_override"
          ? await removeBuyerOverride(session.shop, id)
          : intent === "close"
            ? await closeInvoice(session.shop, id, fields)
            : await reopenInvoice(session.shop, id);
    const status = fixed.ok ? 200 : fixed.reason === "not_found" ? 404 : fixed.reason === "invalid" ? 422 : 409;
    return json({ ...fixed, intent }, { status });
  }
  if (intent === "retry_write_back") {
    const retried = await retryWriteBack(session.shop, id);
    return json(
      retried
        ? { ok: true as const, intent: "retry_write_back" }
        : { ok: false as const, reason: "not_allowed" as const, intent: "retry_write_back" },
      { status: retried ? 200 : 409 },
    );
  }
  const result =
    intent === "retry"
      ? await retryInvoice(session.shop, id)
      : intent === "invoice_now"
        ? await invoiceNow(session.shop, id)
        : intent === "confirm_panel_cancel"
          ? await confirmPanelCancel(session.shop, id, await shopTimezone(session.shop))
          : null;
  if (!result)
    return json({ ok: false as const, reason: "unknown_intent" as const, intent: String(intent) }, { status: 400 });
  const status = result.ok ? 200 : result.reason === "not_found" ? 404 : 409;
  return json({ ...result, intent: String(intent) }, { status });
};

export default function InvoiceDetailPage() {
  const { invoice, timezone, writeBack } = useLoaderData<typeof loader>();
  const t = useT();
  const fetcher = useFetcher<typeof action>();
  const shopify = useAppBridge();
  const pdf = usePdfDownload();
  const locale = t.locale;

  useRevalidateWhile(invoice.inFlight || writeBack?.status === "pending");

  useEffect(() => {
    const result = fetcher.data;
    if (!result || fetcher.state !== "idle") return;
    if (result.ok)
      shopify.toast.show(
        result.intent === "retry"
          ? "from" in result && result.from === "shopify"
            ? t("detail.retriedFromShopify")
            : "from" in result && result.from === "later"
              ? t("detail.retriedLater")
              : t("detail.retried")
          : result.intent === "retry_write_back"
            ? t("writeBack.retried")
            : result.intent === "confirm_panel_cancel"
              ? t("afterSale.path.cancel.confirmed")
              : t("detail.invoicedNow"),
      );
    else
      shopify.toast.show(result.reason === "not_found" ? t("detail.notFound") : t("detail.notAllowed"), {
        isError: true,
      });
  }, [fetcher.data, fetcher.state, shopify, t]);

  const act = (intent: string) => fetcher.submit({ intent }, { method: "post" });
  const busy = fetcher.state !== "idle";
  const { errors, warnings } = invoice;
  const history = { locale, timezone, currency: invoice.totals.currency, waybill: invoice.waybillId !== null };

  // The formal PDF through the app works with the shop's key, whether or not the service gave a pdf_url.
  const secondaryActions = [
    ...(invoice.state === STATE.completed && invoice.remoteId !== null
      ? [
          {
            content: t("detail.downloadPdf"),
            onAction: () => void pdf.download(invoice.id),
            loading: pdf.busy === invoice.id,
            id: "download-pdf",
          },
        ]
      : []),
    ...(invoice.pdfUrl
      ? [{ content: t("detail.openPdf"), url: invoice.pdfUrl, external: true, target: "_blank" as const }]
      : []),
    ...(invoice.panelUrl
      ? [{ content: t("detail.openPanel"), url: invoice.panelUrl, external: true, target: "_blank" as const }]
      : []),
  ];
  // An invoice formalised for an order cancelled since: the merchant's task is the cancellation in the panel, then
  // saying it is done; retrying could only read its status again, so it is not offered beside that.
  const panelTask = invoice.afterSale.path?.kind === "cancel";
  const primaryAction = panelTask
    ? { content: t("afterSale.path.cancel.confirm"), onAction: () => act("confirm_panel_cancel"), loading: busy }
    : invoice.canRetry && retryCanFix(errors.map((p) => p.code))
      ? { content: t("detail.retry"), onAction: () => act("retry"), loading: busy }
      : invoice.canInvoiceNow
        ? { content: t("detail.invoiceNow"), onAction: () => act("invoice_now"), loading: busy }
        : undefined;

  return (
    <Page
      backAction={{ content: t("detail.back"), url: "/app" }}
      title={
        invoice.waybillId !== null
          ? t("detail.titleWaybill", { number: invoice.orderName })
          : t("detail.title", { order: invoice.orderName })
      }
      titleMetadata={
        <InlineStack gap="200">
          <StateBadge
            state={shownState({
              state: invoice.state,
              retrying: Boolean(invoice.retrying),
              issuedInPanel: invoice.closure?.as === "panel",
              giftCardSale: invoice.giftCardSale,
            })}
          />
          <KindBadge kind={invoice.documentKind} />
          {(invoice.isTest || invoice.postedInTestMode) && <Badge tone="attention">{t("badge.test")}</Badge>}
        </InlineStack>
      }
      primaryAction={primaryAction}
      secondaryActions={secondaryActions}
    >
      <Layout>
        {(invoice.isTest || invoice.postedInTestMode) && (
          <Layout.Section>
            <Banner tone="info">
              {invoice.isTest
                ? t("detail.test")
                : invoice.waybillId !== null
                  ? t("detail.testModeWaybill")
                  : t("detail.testMode")}
            </Banner>
          </Layout.Section>
        )}
        {invoice.retrying && (
          <Layout.Section>
            <Banner tone="info" title={t("detail.retrying.title")}>
              <p id="retrying">
                {reasonText(invoice.retrying.reason, locale)
                  ? t("detail.retrying.body", {
                      reason: reasonText(invoice.retrying.reason, locale)!,
                      at: formatDateTime(invoice.retrying.nextAttemptAt, locale, timezone),
                      attempt: invoice.retrying.attempt,
                      max: invoice.retrying.max,
                    })
                  : t("detail.retrying.bodyNoReason", {
                      at: formatDateTime(invoice.retrying.nextAttemptAt, locale, timezone),
                      attempt: invoice.retrying.attempt,
                      max: invoice.retrying.max,
                    })}
              </p>
            </Banner>
          </Layout.Section>
        )}
        {invoice.deadline && invoice.deadline.status !== "running" && (
          <Layout.Section>
            <Banner
              tone="critical"
              title={t(invoice.deadline.status === "passed" ? "detail.deadline.passed" : "detail.deadline.near", {
                at: formatDateTime(invoice.deadline.at, locale, timezone),
              })}
            >
              <p id="deadline-banner">{t("detail.deadline.body")}</p>
            </Banner>
          </Layout.Section>
        )}
        {warnings.length > 0 && (
          <Layout.Section>
            <Banner tone="info" title={t("detail.warnings")}>
              <List>
                {warnings.map((p, index) => (
                  <List.Item key={index}>{problemText(p, locale)}</List.Item>
                ))}
              </List>
            </Banner>
          </Layout.Section>
        )}
        {/* Always mounted: a fix that retries the invoice removes the card, and its answer must still be told. The
            problems, each with its fix, are its own; a closed invoice's are no longer the merchant's (its banner says
            how it was closed instead). */}
        <InvoiceFixes
          state={invoice.state}
          canClose={invoice.canClose}
          canOverrideBuyer={invoice.canOverrideBuyer}
          closure={invoice.closure}
          buyerOverride={invoice.buyerOverride}
          timezone={timezone}
          errors={invoice.state === STATE.closed ? [] : errors}
          failed={invoice.state === STATE.failed}
          orderId={invoice.waybillId === null ? invoice.orderId : null}
          buyerDraft={invoice.buyerDraft}
          retry={{ allowed: invoice.canRetry, busy, run: () => act("retry") }}
        />
        <Layout.Section>
          <BlockStack gap="400">
            {(invoice.afterSale.refunds.length > 0 || invoice.afterSale.path !== null) && (
              <AfterSaleCard
                afterSale={invoice.afterSale}
                cancelledInShop={invoice.afterSale.path !== null && invoice.afterSale.wholeUndo}
                currency={invoice.totals.currency}
                timezone={timezone}
                panelUrl={invoice.panelUrl}
                busy={busy}
                onConfirm={() => act("confirm_panel_cancel")}
              />
            )}
            <InvoiceTotalsCard
              totals={invoice.totals}
              reconciliation={invoice.reconciliation}
              waybill={invoice.waybillId !== null}
            />
            <SectionCard title={t("detail.body")}>
              {invoice.requestBody ? (
                <BlockStack gap="200">
                  <Text as="p" tone="subdued">
                    {t("detail.bodyHelp")}
                  </Text>
                  <Box background="bg-surface-secondary" padding="300" borderRadius="200">
                    {/* Scrolls by itself: focusable, so that a keyboard can scroll it too. */}
                    <pre
                      style={{ margin: 0, fontSize: 12, lineHeight: "18px", maxHeight: 420, overflow: "auto" }}
                      id="request-body"
                      tabIndex={0}
                      aria-label={t("detail.body")}
                    >
                      {JSON.stringify(invoice.requestBody, null, 2)}
                    </pre>
                  </Box>
                </BlockStack>
              ) : (
                <Text as="p" tone="subdued">
                  {t("detail.bodyNone")}
                </Text>
              )}
            </SectionCard>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            {writeBack && (
              <WriteBackCard
                writeBack={writeBack}
                invoiceState={invoice.state}
                onRetry={() => act("retry_write_back")}
                busy={busy}
              />
            )}
            <SectionCard title={invoice.waybillId !== null ? t("detail.waybill") : t("detail.order")} gap="200">
              {invoice.waybillId !== null && (
                <Details>
                  <Row label={t("detail.waybillNumber")}>{invoice.orderName}</Row>
                  <Row label={t("detail.waybillId")}>{String(invoice.waybillId)}</Row>
                </Details>
              )}
              {!invoice.isTest && invoice.waybillId === null && (
                <Text as="p">
                  <Link url={`shopify:admin/orders/${invoice.orderId}`}>{t("detail.openOrder")}</Link>
                </Text>
              )}
              <Details>
                <Row label={t("detail.customer")}>{invoice.customerName ?? t("list.guest")}</Row>
                {invoice.waybillId !== null ? (
                  // A waybill has a date, no time (recorded as midnight in Turkey).
                  <Row label={t("waybill.date")}>{formatDate(invoice.orderCreatedAt, locale, "Europe/Istanbul")}</Row>
                ) : (
                  <Row label={t("detail.orderDate")}>{formatDateTime(invoice.orderCreatedAt, locale, timezone)}</Row>
                )}
                {invoice.invoiceDate && (
                  <Row label={t("detail.invoiceDate")}>
                    <InlineStack gap="200" blockAlign="center">
                      <span>{formatDay(invoice.invoiceDate, locale)}</span>
                      {invoice.daysLate > 0 && (
                        <Text as="span" id="issued-late" tone="critical">
                          {t(invoice.daysLate === 1 ? "detail.issuedLateOne" : "detail.issuedLate", {
                            days: invoice.daysLate,
                          })}
                        </Text>
                      )}
                    </InlineStack>
                  </Row>
                )}
                {invoice.deadline && (
                  <Row label={t("detail.deadline")}>
                    <Text as="span" id="deadline" tone={invoice.deadline.status === "running" ? undefined : "critical"}>
                      {formatDateTime(invoice.deadline.at, locale, timezone)}
                    </Text>
                  </Row>
                )}
                <Row label={t("detail.received")}>{formatDateTime(invoice.createdAt, locale, timezone)}</Row>
                <Row label={t("detail.serial")}>
                  <InlineStack gap="200" blockAlign="center">
                    <Text as="span" id="serial-number">
                      {invoice.serialNumber ?? "—"}
                    </Text>
                    {invoice.closure?.as === "panel" && invoice.serialNumber && (
                      <Text as="span" tone="subdued">
                        {t("detail.serialFromPanel")}
                      </Text>
                    )}
                  </InlineStack>
                </Row>
                {invoice.ettn && (
                  <Row label={t("detail.ettn")}>
                    <Text as="span" breakWord>
                      {invoice.ettn}
                    </Text>
                  </Row>
                )}
                {invoice.remoteId !== null && <Row label={t("detail.remoteId")}>{String(invoice.remoteId)}</Row>}
                <Row label={t("detail.attempts")}>{String(invoice.attempts)}</Row>
                {invoice.nextAttemptAt && (
                  <Row label={t("detail.nextAttempt")}>{formatDateTime(invoice.nextAttemptAt, locale, timezone)}</Row>
                )}
              </Details>
            </SectionCard>
            <InvoiceHistoryCard events={invoice.events} history={history} />
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const t = useT();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <Page backAction={{ content: t("detail.back"), url: "/app" }} title={t("detail.notFound")}>
        <Banner tone="warning">{t("detail.notFound")}</Banner>
      </Page>
    );
  }
  throw error;
}
