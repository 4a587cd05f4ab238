// Invoice from a waybill ("İrsaliyeden fatura"): the merchant enters a waybill id, the app reads the waybill
// and shows the invoice prefilled from it (recipient, lines, waybill number and date), the merchant completes
// and corrects it, and the app records it as an invoice the worker issues like any other.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import {
  useFetcher,
  useLoaderData,
  useNavigate,
  useSearchParams,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { Banner, BlockStack, Button, Card, Layout, Link, Page, Text, TextField } from "@shopify/polaris";
import { useAppBridge } from "@shopify/app-bridge-react";
import { useEffect, useState } from "react";
import { authenticate } from "../shopify.server";
import { readWaybill, submitWaybillInvoice, type WaybillRefusal } from "../waybills/waybills.server";
import type { FormErrors, WaybillInvoiceForm } from "../waybills/waybill-invoice";
import { useT, type T } from "../i18n/react";
import { WaybillInvoiceSections } from "../waybills/WaybillInvoiceForm";
import { useFreshValue } from "../ui/useFreshValue";
import { BODY_LIMITS, readTextLimited } from "../http/body-limit.server";
import type { TitleHandle } from "../i18n/page-title";

export const handle: TitleHandle = { title: "nav.waybills" };

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const id = new URL(request.url).searchParams.get("id");
  if (!id) return json({ requested: null, read: null });
  return json({ requested: id.slice(0, 20), read: await readWaybill(session.shop, id) });
};

// Submitting does not re-read the waybill: a fresh read would replace the merchant's corrections.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod && formMethod.toUpperCase() !== "GET" ? false : defaultShouldRevalidate;

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  let input: { waybillId?: unknown; form?: unknown };
  try {
    input = JSON.parse(await readTextLimited(request, BODY_LIMITS.adminAction)) as typeof input;
  } catch {
    return json({ ok: false as const, errors: { form: { code: "invalid" } } as FormErrors }, { status: 400 });
  }
  const result = await submitWaybillInvoice(session.shop, input?.waybillId, input?.form);
  if (result.ok) return json(result);
  return json(result, { status: "errors" in result ? 422 : 409 });
};

function refusalText(t: T, refusal: WaybillRefusal): string {
  switch (refusal.reason) {
    case "not_configured":
      return t("waybill.refusal.not_configured");
    case "invalid_id":
      return t("waybill.refusal.invalid_id");
    case "not_found":
      return t("waybill.refusal.not_found", { id: refusal.waybillId });
    case "incoming":
      return t("waybill.refusal.incoming", { number: refusal.number });
    case "not_completed":
      // The service's status word, in the merchant's language (an unknown one as "not completed").
      return t("waybill.refusal.not_completed", {
        number: refusal.number,
        status: t.dyn(`waybill.status.${refusal.status}`, t("waybill.status.other")),
      });
    case "already_invoiced":
      return t("waybill.refusal.already_invoiced", { number: refusal.number, invoiceId: refusal.invoiceId });
    case "in_app":
      return t("waybill.refusal.in_app");
    case "api_key_rejected":
      return t("waybill.refusal.api_key_rejected");
    case "address_not_allowed":
      return t("waybill.refusal.address_not_allowed");
    case "service":
      return t("waybill.refusal.service", { detail: refusal.detail });
  }
}

export default function WaybillInvoicePage() {
  const data = useLoaderData<typeof loader>();
  const t = useT();
  const shopify = useAppBridge();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const fetcher = useFetcher<typeof action>();
  const read = data.read;
  const [waybillId, setWaybillId] = useState(data.requested ?? "");
  const [form, setForm] = useState<WaybillInvoiceForm | null>(read?.ok ? read.form : null);
  const [errors, setErrors] = useState<FormErrors>({});
  const [refusal, setRefusal] = useState<WaybillRefusal | null>(read && !read.ok ? read.refusal : null);

  // A new waybill read by the loader replaces the form (while rendering).
  const freshRead = useFreshValue(read);
  if (freshRead !== undefined) {
    setForm(freshRead?.ok ? freshRead.form : null);
    setRefusal(freshRead && !freshRead.ok ? freshRead.refusal : null);
    setErrors({});
  }

  // A refused answer shows its errors or refusal (while rendering); a queued one is left by an effect.
  const answer = useFreshValue(fetcher.state === "idle" ? fetcher.data : undefined);
  if (answer && !answer.ok) {
    if ("errors" in answer) setErrors(answer.errors);
    else setRefusal(answer.refusal);
  }
  useEffect(() => {
    const result = fetcher.data;
    if (!result?.ok || fetcher.state !== "idle") return;
    shopify.toast.show(t("waybill.queued"));
    navigate(`/app/invoices/${result.invoiceId}`);
  }, [fetcher.data, fetcher.state, shopify, t, navigate]);

  const readIt = () => {
    const next = new URLSearchParams(searchParams);
    next.set("id", waybillId.trim());
    setSearchParams(next);
  };
  const submit = () => {
    if (!read?.ok || !form) return;
    fetcher.submit({ waybillId: read.waybill.id, form } as never, { method: "post", encType: "application/json" });
  };
  const failed = Object.keys(errors).length > 0;

  return (
    <Page
      title={t("waybill.title")}
      subtitle={t("waybill.subtitle")}
      backAction={{ content: t("nav.invoices"), url: "/app" }}
      primaryAction={
        read?.ok && form
          ? {
              content: t("waybill.create"),
              onAction: submit,
              loading: fetcher.state !== "idle",
              id: "create-waybill-invoice",
            }
          : undefined
      }
    >
      <Layout>
        <Layout.Section>
          <Card>
            <form
              onSubmit={(event) => {
                event.preventDefault();
                readIt();
              }}
            >
              <div style={{ maxWidth: 480 }}>
                <TextField
                  id="waybillId"
                  label={t("waybill.id")}
                  helpText={t("waybill.id.help")}
                  autoComplete="off"
                  inputMode="numeric"
                  value={waybillId}
                  onChange={setWaybillId}
                  connectedRight={
                    <Button submit id="read-waybill" disabled={!waybillId.trim()}>
                      {t("waybill.read")}
                    </Button>
                  }
                />
              </div>
            </form>
          </Card>
        </Layout.Section>

        {refusal && (
          <Layout.Section>
            <Banner tone="critical" title={t("waybill.refused")}>
              <BlockStack gap="200">
                <p id="waybill-refusal">{refusalText(t, refusal)}</p>
                {refusal.reason === "in_app" && (
                  <Link url={`/app/invoices/${refusal.invoiceRowId}`}>{t("waybill.openInvoice")}</Link>
                )}
                {refusal.reason === "not_configured" && <Link url="/app/settings">{t("onboarding.openSettings")}</Link>}
              </BlockStack>
            </Banner>
          </Layout.Section>
        )}

        {read?.ok && form && (
          <>
            <Layout.Section>
              <BlockStack gap="300">
                <Banner
                  tone="info"
                  title={t("waybill.found", { number: read.waybill.documentNumber, date: read.waybill.issueDate })}
                >
                  <p>{read.waybill.retryOf ? t("waybill.foundRetry") : t("waybill.foundHelp")}</p>
                </Banner>
                {read.waybill.testMode && <Banner tone="warning">{t("waybill.testMode")}</Banner>}
                {read.waybill.late && (
                  <Banner tone="warning">{t("waybill.late", { date: read.waybill.issueDate })}</Banner>
                )}
                {failed && (
                  <Banner tone="critical" title={t("waybill.notSent")}>
                    {errors.form && (
                      <p>{t.dyn(`waybill.error.${errors.form.code}`, errors.form.code, errors.form.params)}</p>
                    )}
                  </Banner>
                )}
              </BlockStack>
            </Layout.Section>
            <WaybillInvoiceSections form={form} setForm={setForm} errors={errors} currency={read.waybill.currency} />
          </>
        )}

        {!read && (
          <Layout.Section>
            <Text as="p" tone="subdued">
              {t("waybill.empty")}
            </Text>
          </Layout.Section>
        )}
      </Layout>
    </Page>
  );
}
