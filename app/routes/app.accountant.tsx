// "Muhasebeci paketi" / "Accountant package": pick a month or a date range; the worker builds one ZIP of the period's
// invoice PDFs, a workbook and CSV files in the background, with a progress bar that survives reloads and restarts, and
// a short-lived signed download link once ready. Thin: app/accountant/page.server.ts does the work.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  ChoiceList,
  InlineStack,
  Layout,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { authenticate } from "../shopify.server";
import { accountantAction, accountantPage, type AccountantActionResult } from "../accountant/page.server";
import type { PackageView } from "../accountant/packages.server";
import { BODY_LIMITS, readTextLimited } from "../http/body-limit.server";
import { requestLocale } from "../i18n/i18n";
import { useT, type T } from "../i18n/react";
import { useRevalidateWhile } from "../ui/useRevalidateWhile";
import type { TitleHandle } from "../i18n/page-title";
import { SectionCard } from "../ui/SectionCard";
import { WorkProgress } from "../ui/WorkProgress";
import { formatBytes, formatDateTime, formatDay, formatMonth } from "../ui/format";

export const handle: TitleHandle = { title: "nav.accountant" };

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return json(await accountantPage(session.shop));
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  let input: unknown;
  try {
    input = JSON.parse(await readTextLimited(request, BODY_LIMITS.adminAction));
  } catch {
    return json({ ok: false, reason: "invalid" } satisfies AccountantActionResult, { status: 400 });
  }
  const result = await accountantAction(session.shop, input, requestLocale(request));
  return json(result, { status: result.ok || result.reason !== "invalid" ? 200 : 400 });
};

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

const day = (ymd: string, t: T) => formatDay(ymd, t.locale);
const monthName = (month: string, t: T) => formatMonth(month, t.locale);
const size = (bytes: number, t: T) => formatBytes(bytes, t.locale);

function PeriodForm({
  data,
  t,
  busy,
  onSubmit,
}: {
  data: Data;
  t: T;
  busy: boolean;
  onSubmit: (body: Record<string, string>) => void;
}) {
  const [kind, setKind] = useState<"month" | "range">("month");
  const [month, setMonth] = useState(data.defaultMonth);
  const [from, setFrom] = useState(data.defaultFrom);
  const [to, setTo] = useState(data.today);
  // The CSV files' decimal separator: the language's own unless the accountant's Excel wants the other.
  const [decimal, setDecimal] = useState<"comma" | "point">(t.locale === "tr" ? "comma" : "point");
  return (
    <SectionCard title={t("accountant.form.title")}>
      <ChoiceList
        title={t("accountant.form.kind")}
        titleHidden
        choices={[
          { label: t("accountant.form.month"), value: "month" },
          { label: t("accountant.form.range"), value: "range" },
        ]}
        selected={[kind]}
        onChange={(selected) => setKind(selected[0] === "range" ? "range" : "month")}
      />
      <InlineStack gap="300" blockAlign="end">
        {kind === "month" ? (
          <Select
            id="accountant-month"
            label={t("accountant.form.monthLabel")}
            options={data.months.map((m) => ({ label: monthName(m, t), value: m }))}
            value={month}
            onChange={setMonth}
          />
        ) : (
          <>
            <TextField
              id="accountant-from"
              label={t("accountant.form.from")}
              type="date"
              value={from}
              onChange={setFrom}
              autoComplete="off"
              max={data.today}
            />
            <TextField
              id="accountant-to"
              label={t("accountant.form.to")}
              type="date"
              value={to}
              onChange={setTo}
              autoComplete="off"
              max={data.today}
            />
          </>
        )}
        <Select
          id="accountant-decimal"
          label={t("accountant.form.decimal")}
          options={[
            { label: t("accountant.form.decimal.comma"), value: "comma" },
            { label: t("accountant.form.decimal.point"), value: "point" },
          ]}
          value={decimal}
          onChange={(value) => setDecimal(value === "point" ? "point" : "comma")}
        />
        <Button
          id="accountant-build"
          variant="primary"
          loading={busy}
          onClick={() => onSubmit(kind === "month" ? { kind, month, decimal } : { kind, from, to, decimal })}
        >
          {t("accountant.form.submit")}
        </Button>
      </InlineStack>
      <Text as="p" tone="subdued">
        {t("accountant.form.help", { zone: data.zone })}
      </Text>
      <Text as="p" tone="subdued">
        {t("accountant.form.contents")}
      </Text>
    </SectionCard>
  );
}

const BADGE_TONE: Record<string, "info" | "success" | "critical" | "attention" | undefined> = {
  queued: "info",
  building: "attention",
  ready: "success",
  failed: "critical",
  expired: undefined,
};

function PackageCard({ pack, t, zone }: { pack: PackageView; t: T; zone: string }) {
  const active = pack.state === "queued" || pack.state === "building";
  return (
    <SectionCard
      title={t("accountant.period", { from: day(pack.from, t), to: day(pack.to, t) })}
      level={3}
      badge={<Badge tone={BADGE_TONE[pack.state]}>{t.dyn(`accountant.state.${pack.state}`, pack.state)}</Badge>}
      gap="200"
    >
      {active && (
        <>
          <WorkProgress
            settled={pack.pdfDone + pack.pdfFailed}
            total={pack.total}
            animated={pack.total === 0}
            id={`accountant-progress-${pack.id}`}
          >
            {pack.total === 0 && pack.state === "queued"
              ? t("accountant.listing")
              : t("accountant.progress", { done: pack.pdfDone, total: pack.total })}
            {pack.pdfFailed > 0 ? ` · ${t("accountant.progressFailed", { count: pack.pdfFailed })}` : ""}
          </WorkProgress>
          {pack.lastError && (
            <Text as="p" tone="caution">
              {t("accountant.retrying", { error: pack.lastError })}
            </Text>
          )}
        </>
      )}
      {pack.state === "ready" && pack.downloadPath && (
        <BlockStack gap="200">
          <Text as="p" id={`accountant-ready-${pack.id}`}>
            {t("accountant.ready", { total: pack.total, size: size(pack.fileSize ?? 0, t) })}
          </Text>
          {pack.total === 0 && (
            <Text as="p" tone="subdued">
              {t("accountant.none")}
            </Text>
          )}
          {pack.builtBeforeEnd && (
            <Text as="p" tone="caution" id={`accountant-not-over-${pack.id}`}>
              {t("accountant.notOver", { to: day(pack.to, t) })}
            </Text>
          )}
          {pack.pdfFailed > 0 && (
            <Banner tone="warning">
              <p>{t("accountant.missing", { count: pack.pdfFailed })}</p>
            </Banner>
          )}
          <InlineStack gap="200" blockAlign="center">
            {/* A plain navigation of the frame to the signed link: the browser saves the ZIP straight from the server
                (Content-Disposition: attachment), never through the page's memory, and the page stays. */}
            <Button
              id={`accountant-download-${pack.id}`}
              variant="primary"
              onClick={() => window.location.assign(pack.downloadPath!)}
            >
              {t("accountant.download")}
            </Button>
            <Text as="span" tone="subdued">
              {t("accountant.expires", {
                date: formatDateTime(pack.expiresAt!, t.locale, zone),
              })}
            </Text>
          </InlineStack>
          <Text as="p" tone="subdued" variant="bodySm">
            {t("accountant.linkHelp")}
          </Text>
        </BlockStack>
      )}
      {pack.state === "failed" && (
        <Banner tone="critical">{t("accountant.failed", { error: pack.lastError ?? "" })}</Banner>
      )}
      {pack.state === "expired" && (
        <Text as="p" tone="subdued">
          {t("accountant.expired")}
        </Text>
      )}
    </SectionCard>
  );
}

export default function AccountantPage() {
  const data = useLoaderData<typeof loader>();
  const t = useT();
  const fetcher = useFetcher<typeof action>();
  const busy = fetcher.state !== "idle";
  const building = data.packages.some((p) => p.state === "queued" || p.state === "building");
  const ready = data.packages.some((p) => p.state === "ready");
  // While a package builds, every few seconds; while one is ready, every 5 minutes (its 15-minute link stays fresh).
  useRevalidateWhile(building);
  useRevalidateWhile(!building && ready, 5 * 60_000);
  const result = fetcher.data as AccountantActionResult | undefined;
  return (
    <Page
      title={t("accountant.title")}
      subtitle={t("accountant.subtitle")}
      backAction={{ content: t("nav.invoices"), url: "/app" }}
    >
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {result && !result.ok && (
              <Banner tone="critical">
                <p id="accountant-error">{t.dyn(`accountant.error.${result.reason}`, String(result.reason))}</p>
              </Banner>
            )}
            <PeriodForm
              data={data}
              t={t}
              busy={busy}
              onSubmit={(body) => fetcher.submit(body, { method: "post", encType: "application/json" })}
            />
            <Text as="h2" variant="headingMd">
              {t("accountant.list.title")}
            </Text>
            {data.packages.length === 0 ? (
              <Card>
                <Text as="p" tone="subdued">
                  {t("accountant.list.empty")}
                </Text>
              </Card>
            ) : (
              data.packages.map((pack) => <PackageCard key={pack.id} pack={pack} t={t} zone={data.zone} />)
            )}
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
