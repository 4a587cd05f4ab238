// Settings: the connection to the invoicing service (write-only API key checked on save, accounts and
// sales channels chosen from the service's own lists, test mode, trigger) and the mapping choices (VAT,
// exemption, buyer fields, payment methods, carriers, unit). The whole form is validated and then saved
// in one write; a field error or a key the service rejects saves nothing.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { Banner, BlockStack, Layout, Page } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { authenticate } from "../shopify.server";
import { getSettings } from "../settings/settings.server";
import { loadServiceLists, saveSettingsForm } from "../admin/settings.server";
import { loadCartBlock } from "../admin/cart-block.server";
import type { SaleChannelResult } from "../admin/sale-channel.server";
import { accountWebhookRegisteredAt } from "../settings/account-webhook.server";
import { formFromSettings, type SettingsForm } from "../settings/schema";
import { useT } from "../i18n/react";
import { BODY_LIMITS, readTextLimited } from "../http/body-limit.server";
import { ConnectionSection, MappingSections } from "../components/SettingsSections";
import { CartBlockSection } from "../components/CartBlockSection";
import { SaleChannelOffer } from "../components/SaleChannelOffer";
import { OrderWriteBackSection } from "../components/OrderWriteBackSection";
import { refreshWriteScope } from "../writeback/scope.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session, scopes } = await authenticate.admin(request);
  const settings = await getSettings(session.shop);
  const [lists, cartBlock, webhookRegisteredAt, canWrite] = await Promise.all([
    loadServiceLists(session.shop, settings),
    loadCartBlock(session.shop, settings.mapping),
    accountWebhookRegisteredAt(session.shop),
    refreshWriteScope(session.shop, scopes),
  ]);
  const form = formFromSettings(settings);
  // The account already has a channel for this shop's domain: proposed, and saved with the form.
  if (form.saleChannelId === null && lists?.channelForShop) form.saleChannelId = lists.channelForShop;
  return json({ form, hasApiKey: settings.hasApiKey, lists, shop: session.shop, cartBlock, webhookRegisteredAt, canWrite });
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const text = await readTextLimited(request, BODY_LIMITS.adminAction);
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    return json({ ok: false as const, errors: { form: "invalid" } as Record<string, string>, detail: undefined as string | undefined }, { status: 400 });
  }
  const result = await saveSettingsForm(session.shop, input && typeof input === "object" ? input : {});
  if (result.ok) return json({ ok: true as const, keyChecked: result.keyChecked, webhook: result.webhook });
  return json({ ok: false as const, errors: result.errors, detail: result.detail }, { status: 422 });
};

export default function Settings() {
  const data = useLoaderData<typeof loader>();
  const t = useT();
  const shopify = useAppBridge();
  const fetcher = useFetcher<typeof action>();
  const [form, setForm] = useState<SettingsForm>(data.form);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [detail, setDetail] = useState<string | undefined>();
  const channel = useFetcher<SaleChannelResult>();
  const [channelError, setChannelError] = useState<string | undefined>();

  useEffect(() => {
    const result = fetcher.data;
    if (!result || fetcher.state !== "idle") return;
    if (result.ok) {
      setErrors({});
      setForm((current) => ({ ...current, apiKey: "" }));
      shopify.toast.show(result.keyChecked ? t("settings.savedKeyChecked") : t("settings.saved"));
      if (result.webhook.state === "failed") shopify.toast.show(t("settings.webhookFailed", { detail: result.webhook.detail }), { isError: true, duration: 10_000 });
    } else {
      setErrors(result.errors);
      setDetail(result.detail);
    }
  }, [fetcher.data, fetcher.state, shopify, t]);

  useEffect(() => {
    const result = channel.data;
    if (!result || channel.state !== "idle") return;
    if (result.ok) {
      setChannelError(undefined);
      setForm((current) => ({ ...current, saleChannelId: result.id }));
      shopify.toast.show(result.created ? t("settings.saleChannel.created") : t("settings.saleChannel.selected"));
    } else {
      setChannelError(t.dyn(`settings.saleChannel.error.${result.code}`, result.code, { detail: result.detail ?? "-" }));
    }
  }, [channel.data, channel.state, shopify, t]);
  const offerChannel = data.lists !== null && data.lists.error === null && data.lists.channelForShop === null && form.saleChannelId === null;

  const set = <K extends keyof SettingsForm>(key: K, value: SettingsForm[K]) => setForm((current) => ({ ...current, [key]: value }));
  const error = (field: string) => (errors[field] ? t.dyn(`settings.error.${errors[field]}`, errors[field], { detail: detail ?? "-" }) : undefined);
  const save = () => fetcher.submit(form as unknown as Record<string, string>, { method: "post", encType: "application/json" });
  const saving = fetcher.state !== "idle";
  const failed = Object.keys(errors).length > 0;

  return (
    <Page
      title={t("settings.title")}
      backAction={{ content: t("nav.invoices"), url: "/app" }}
      primaryAction={{ content: t("settings.save"), onAction: save, loading: saving, id: "save-settings" }}
    >
      <BlockStack gap="400">
        {failed && (
          <Banner tone="critical" title={t("settings.notSaved")}>
            {Object.keys(errors).some((field) => field === "apiKey" || field === "baseUrl") && <p>{error("apiKey") ?? error("baseUrl")}</p>}
          </Banner>
        )}
        {/* A form, so that Enter in any field saves, as in Shopify's own settings. */}
        <form
          onSubmit={(event) => {
            event.preventDefault();
            save();
          }}
        >
          <Layout>
            <ConnectionSection
              form={form}
              set={set}
              error={error}
              hasApiKey={data.hasApiKey}
              lists={data.lists}
              webhookRegisteredAt={data.webhookRegisteredAt}
              saleChannelExtra={
                offerChannel && (
                  <SaleChannelOffer
                    domain={data.shop}
                    creating={channel.state !== "idle"}
                    error={channelError}
                    onCreate={() => channel.submit({}, { method: "post", action: "/app/sale-channel", encType: "application/json" })}
                  />
                )
              }
            />
            <MappingSections form={form} set={set} error={error} />
            <OrderWriteBackSection form={form} set={set} error={error} canWrite={data.canWrite} />
            <CartBlockSection {...data.cartBlock} />
          </Layout>
          <button type="submit" hidden aria-hidden tabIndex={-1} />
        </form>
      </BlockStack>
    </Page>
  );
}
