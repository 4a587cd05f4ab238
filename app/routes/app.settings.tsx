// Settings: the connection to the invoicing service (write-only API key checked on save, accounts and
// sales channels chosen from the service's own lists, test mode, trigger) and the mapping choices (VAT,
// exemption, buyer fields, payment methods, carriers, unit). The whole form is validated and then saved
// in one write; a field error or a key the service rejects saves nothing.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useBeforeUnload, useBlocker, useFetcher, useLoaderData } from "@remix-run/react";
import { SaveBar, useAppBridge } from "@shopify/app-bridge-react";
import { Banner, BlockStack, Layout, Modal, Page, PageActions, Text } from "@shopify/polaris";
import { useCallback, useEffect, useState } from "react";
import { authenticate } from "../shopify.server";
import { getSettings } from "../settings/settings.server";
import { loadServiceLists, saveSettingsForm } from "../settings/page.server";
import { loadCartBlock } from "../cart-block/cart-block.server";
import type { SaleChannelResult } from "../settings/sale-channel.server";
import { accountWebhookRegisteredAt } from "../settings/account-webhook.server";
import { formFromSettings, type SettingsForm } from "../settings/schema";
import { useT } from "../i18n/react";
import { BODY_LIMITS, readTextLimited } from "../http/body-limit.server";
import { ConnectionSection, MappingSections } from "../settings/SettingsSections";
import { CartBlockSection } from "../cart-block/CartBlockSection";
import { SaleChannelOffer } from "../settings/SaleChannelOffer";
import { useFreshValue } from "../ui/useFreshValue";
import { OrderWriteBackSection } from "../settings/OrderWriteBackSection";
import { B2bCompaniesSection } from "../settings/B2bCompaniesSection";
import { refreshScopes } from "../shops/scopes.server";
import type { TitleHandle } from "../i18n/page-title";
import { shopZone } from "../shops/shops.server";

export const handle: TitleHandle = { title: "nav.settings" };

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session, scopes } = await authenticate.admin(request);
  const settings = await getSettings(session.shop);
  const [lists, cartBlock, webhookRegisteredAt, { canWrite, canReadCompanies }, zone] = await Promise.all([
    loadServiceLists(session.shop, settings),
    loadCartBlock(session.shop, settings.mapping),
    accountWebhookRegisteredAt(session.shop),
    refreshScopes(session.shop, scopes),
    shopZone(session.shop),
  ]);
  const form = formFromSettings(settings);
  // The account already has a channel for this shop's domain: proposed, and saved with the form.
  if (form.saleChannelId === null && lists?.channelForShop) form.saleChannelId = lists.channelForShop;
  return json({
    form,
    hasApiKey: settings.hasApiKey,
    lists,
    shop: session.shop,
    cartBlock,
    webhookRegisteredAt,
    zone,
    canWrite,
    canReadCompanies,
  });
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const text = await readTextLimited(request, BODY_LIMITS.adminAction);
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    return json(
      {
        ok: false as const,
        errors: { form: "invalid" } as Record<string, string>,
        detail: undefined as string | undefined,
      },
      { status: 400 },
    );
  }
  const result = await saveSettingsForm(session.shop, input && typeof input === "object" ? input : {});
  if (result.ok) return json({ ok: true as const, keyChecked: result.keyChecked, webhook: result.webhook });
  return json({ ok: false as const, errors: result.errors, detail: result.detail }, { status: 422 });
};

/** The first field with an error, in the page's order: scrolled to the middle of the screen and focused. */
function focusFirstError(fields: string[]) {
  // Errors of a whole table point at the table.
  const alias: Record<string, string> = { paymentMethodMap: "payment-methods" };
  const elements = fields.flatMap((field) => {
    const element = document.getElementById(alias[field] ?? field);
    return element ? [element] : [];
  });
  elements.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  const first = elements[0];
  if (!first) return;
  first.scrollIntoView({ block: "center" });
  first.focus({ preventScroll: true });
}

export default function Settings() {
  const data = useLoaderData<typeof loader>();
  const t = useT();
  const shopify = useAppBridge();
  const fetcher = useFetcher<typeof action>();
  const [form, setForm] = useState<SettingsForm>(data.form);
  // The form as last loaded or saved: anything else is an unsaved change (the save bar shows, leaving asks first).
  const [saved, setSaved] = useState<SettingsForm>(data.form);
  const [submitted, setSubmitted] = useState<SettingsForm | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [detail, setDetail] = useState<string | undefined>();
  const channel = useFetcher<SaleChannelResult>();
  const [channelError, setChannelError] = useState<string | undefined>();

  // A new answer adjusts the form while rendering; its toasts and the focus on the first error are effects.
  const saveAnswer = useFreshValue(fetcher.state === "idle" ? fetcher.data : undefined);
  if (saveAnswer?.ok) {
    setErrors({});
    setForm((current) => ({ ...current, apiKey: "" }));
    if (submitted) setSaved({ ...submitted, apiKey: "" });
  } else if (saveAnswer) {
    setErrors(saveAnswer.errors);
    setDetail(saveAnswer.detail);
  }
  useEffect(() => {
    const result = fetcher.data;
    if (!result || fetcher.state !== "idle") return;
    if (result.ok) {
      shopify.toast.show(result.keyChecked ? t("settings.savedKeyChecked") : t("settings.saved"));
      if (result.webhook.state === "failed")
        shopify.toast.show(t("settings.webhookFailed", { detail: result.webhook.detail }), {
          isError: true,
          duration: 10_000,
        });
    } else {
      focusFirstError(Object.keys(result.errors));
    }
  }, [fetcher.data, fetcher.state, shopify, t]);

  const channelAnswer = useFreshValue(channel.state === "idle" ? channel.data : undefined);
  if (channelAnswer?.ok) {
    setChannelError(undefined);
    setForm((current) => ({ ...current, saleChannelId: channelAnswer.id }));
    // The channel is stored by its own request: not an unsaved change.
    setSaved((current) => ({ ...current, saleChannelId: channelAnswer.id }));
  } else if (channelAnswer) {
    setChannelError(
      t.dyn(`settings.saleChannel.error.${channelAnswer.code}`, channelAnswer.code, {
        detail: channelAnswer.detail ?? "-",
      }),
    );
  }
  useEffect(() => {
    const result = channel.data;
    if (result?.ok && channel.state === "idle")
      shopify.toast.show(result.created ? t("settings.saleChannel.created") : t("settings.saleChannel.selected"));
  }, [channel.data, channel.state, shopify, t]);
  const offerChannel =
    data.lists !== null &&
    data.lists.error === null &&
    data.lists.channelForShop === null &&
    form.saleChannelId === null;

  const set = <K extends keyof SettingsForm>(key: K, value: SettingsForm[K]) =>
    setForm((current) => ({ ...current, [key]: value }));
  const error = (field: string) =>
    errors[field] ? t.dyn(`settings.error.${errors[field]}`, errors[field], { detail: detail ?? "-" }) : undefined;
  const save = () => {
    setSubmitted(form);
    fetcher.submit(form as unknown as Record<string, string>, { method: "post", encType: "application/json" });
  };
  const saving = fetcher.state !== "idle";
  const failed = Object.keys(errors).length > 0;
  // While a save is on its way, what it sends counts as saved (leaving then does not ask).
  const dirty = JSON.stringify(form) !== JSON.stringify(saving && submitted ? submitted : saved);
  const discard = () => {
    setForm(saved);
    setErrors({});
    setDetail(undefined);
  };

  // Leaving with unsaved changes asks first: a link inside the app (Remix's blocker), and a reload or a closed tab
  // (the browser's own prompt). In the Shopify admin the save bar also holds the admin's own navigation.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useBeforeUnload(
    useCallback(
      (event: BeforeUnloadEvent) => {
        if (!dirty) return;
        event.preventDefault();
        event.returnValue = "";
      },
      [dirty],
    ),
  );

  return (
    <Page title={t("settings.title")} backAction={{ content: t("nav.invoices"), url: "/app" }}>
      <SaveBar id="settings-save-bar" open={dirty || saving} discardConfirmation>
        <button variant="primary" id="save-settings" onClick={save} loading={saving ? "" : undefined} disabled={saving}>
          {t("settings.save")}
        </button>
        <button id="discard-settings" onClick={discard} disabled={saving}>
          {t("settings.discard")}
        </button>
      </SaveBar>
      <Modal
        open={blocker.state === "blocked"}
        onClose={() => blocker.reset?.()}
        title={t("settings.leave.title")}
        primaryAction={{
          content: t("settings.leave.confirm"),
          destructive: true,
          onAction: () => blocker.proceed?.(),
          id: "leave-settings",
        }}
        secondaryActions={[
          { content: t("settings.leave.stay"), onAction: () => blocker.reset?.(), id: "stay-on-settings" },
        ]}
      >
        <Modal.Section>
          <Text as="p">{t("settings.leave.body")}</Text>
        </Modal.Section>
      </Modal>
      <BlockStack gap="400">
        {failed && (
          <Banner tone="critical" title={t("settings.notSaved")}>
            {Object.keys(errors).some((field) => field === "apiKey" || field === "baseUrl") && (
              <p>{error("apiKey") ?? error("baseUrl")}</p>
            )}
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
              zone={data.zone}
              saleChannelExtra={
                offerChannel && (
                  <SaleChannelOffer
                    domain={data.shop}
                    creating={channel.state !== "idle"}
                    error={channelError}
                    onCreate={() =>
                      channel.submit({}, { method: "post", action: "/app/sale-channel", encType: "application/json" })
                    }
                  />
                )
              }
            />
            <MappingSections form={form} set={set} error={error} />
            <OrderWriteBackSection form={form} set={set} error={error} canWrite={data.canWrite} />
            <B2bCompaniesSection form={form} set={set} error={error} canReadCompanies={data.canReadCompanies} />
            <CartBlockSection {...data.cartBlock} />
          </Layout>
          <button type="submit" hidden aria-hidden tabIndex={-1} />
        </form>
        {/* At the end of a long page (7,000 px on a phone), a second way to save without scrolling back up. */}
        <PageActions
          primaryAction={{
            content: t("settings.save"),
            onAction: save,
            loading: saving,
            disabled: !dirty,
            id: "save-settings-bottom",
          }}
        />
      </BlockStack>
    </Page>
  );
}
