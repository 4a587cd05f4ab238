// "Geçmiş siparişleri faturala" / "Invoice past orders": a date range, a dry run, then a run the worker carries
// out in the background (progress survives reloads and restarts; pause and resume). Also the reconciliation's
// last result and a button to check for missed orders now. Thin: app/past-orders/page.server.ts does the work.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  InlineStack,
  Layout,
  List,
  Page,
  ProgressBar,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { authenticate } from "../shopify.server";
import { env } from "../env.server";
import { pastOrdersAction, pastOrdersPage, type PastOrdersActionResult } from "../past-orders/page.server";
import { shopifyOrders } from "../shopify/order-readers.server";
import { BODY_LIMITS, readTextLimited } from "../http/body-limit.server";
import { useT, type T } from "../i18n/react";
import { problemText } from "../problems";
import { useRevalidateWhile } from "../ui/useRevalidateWhile";
import type { RunView } from "../past-orders/runs.server";
import type { TitleHandle } from "../i18n/page-title";
import { SectionCard } from "../ui/SectionCard";
import { WorkProgress } from "../ui/WorkProgress";
import { formatDate, formatDateTime } from "../ui/format";
import type { Locale } from "../i18n/i18n";

export const handle: TitleHandle = { title: "nav.pastOrders" };

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return json({ ...(await pastOrdersPage(session.shop)), intervalMinutes: env().RECONCILE_INTERVAL_MINUTES });
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  let input: unknown;
  try {
    input = JSON.parse(await readTextLimited(request, BODY_LIMITS.adminAction));
  } catch {
    return json({ intent: "invalid", result: { ok: false, reason: "invalid" } } satisfies PastOrdersActionResult, {
      status: 400,
    });
  }
  const outcome = await pastOrdersAction(session.shop, input, shopifyOrders, `admin-${process.pid}`);
  return json(outcome, { status: outcome.intent === "invalid" ? 400 : 200 });
};

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

function day(iso: string, zone: string, locale: Locale, endExclusive = false): string {
  return formatDate(new Date(new Date(iso).getTime() - (endExclusive ? 1 : 0)).toISOString(), locale, zone);
}

function ActionMessage({ outcome, t, days }: { outcome: PastOrdersActionResult | undefined; t: T; days: number }) {
  if (!outcome) return null;
  if (outcome.intent === "reconcile") {
    const result = outcome.result as Extract<PastOrdersActionResult, { intent: "reconcile" }>["result"];
    if (result.status === "done")
      return (
        <Banner tone="success">{t("past.reconcile.done", { read: result.read, recorded: result.recorded })}</Banner>
      );
    if (result.status === "busy") return <Banner tone="info">{t("past.reconcile.busy")}</Banner>;
    if (result.status === "throttled") return <Banner tone="warning">{t("past.reconcile.throttled")}</Banner>;
    if (result.status === "failed")
      return <Banner tone="critical">{t("past.reconcile.failed", { error: result.error })}</Banner>;
    return null;
  }
  const result = outcome.result as { ok: boolean; reason?: string };
  if (result.ok) return null;
  return (
    <Banner tone="critical">
      <p id="past-orders-error">{t.dyn(`past.error.${result.reason}`, String(result.reason), { days })}</p>
    </Banner>
  );
}

function Reconciliation({ data, t, busy, onCheck }: { data: Data; t: T; busy: boolean; onCheck: () => void }) {
  const status = data.reconciliation;
  return (
    <SectionCard title={t("past.reconcile.title")} gap="200">
      <Text as="p">
        {data.intervalMinutes > 0
          ? t("past.reconcile.body", { minutes: data.intervalMinutes })
          : t("past.reconcile.bodyOff")}
      </Text>
      <Text as="p" tone="subdued" id="reconcile-last">
        {status.lastRunAt
          ? t("past.reconcile.last", {
              when: formatDateTime(status.lastRunAt, t.locale, data.zone),
              read: status.lastResult?.read ?? 0,
              recorded: status.lastResult?.recorded ?? 0,
            })
          : t("past.reconcile.never")}
      </Text>
      {status.lastError && (
        <Text as="p" tone="critical">
          {t("past.reconcile.lastError", { error: status.lastError })}
        </Text>
      )}
      <InlineStack>
        <Button id="reconcile-now" onClick={onCheck} loading={busy}>
          {t("past.reconcile.button")}
        </Button>
      </InlineStack>
    </SectionCard>
  );
}

function RangeForm({
  data,
  t,
  busy,
  onDryRun,
}: {
  data: Data;
  t: T;
  busy: boolean;
  onDryRun: (from: string, to: string) => void;
}) {
  const [from, setFrom] = useState(data.defaultFrom);
  const [to, setTo] = useState(data.today);
  return (
    <SectionCard title={t("past.range.title")}>
      <InlineStack gap="300" blockAlign="end">
        <TextField
          id="past-from"
          label={t("past.range.from")}
          type="date"
          value={from}
          onChange={setFrom}
          autoComplete="off"
          min={data.earliest ?? undefined}
          max={data.today}
        />
        <TextField
          id="past-to"
          label={t("past.range.to")}
          type="date"
          value={to}
          onChange={setTo}
          autoComplete="off"
          min={data.earliest ?? undefined}
          max={data.today}
        />
        <Button
          id="past-dry-run"
          variant="primary"
          onClick={() => onDryRun(from, to)}
          loading={busy}
          disabled={!from || !to}
        >
          {t("past.range.dryRun")}
        </Button>
      </InlineStack>
      <Text as="p" tone="subdued">
        {t("past.range.help", { zone: data.zone })} {t("past.range.dryRunHelp")}
      </Text>
      {data.earliest && (
        <Banner tone="info">
          <p id="past-range-limit">
            {t("past.range.limit", { days: data.days, earliest: day(data.earliest, data.zone, t.locale) })}
          </p>
        </Banner>
      )}
    </SectionCard>
  );
}

/** How the orders are read (bulk or page by page), once the phase has chosen. */
function ReadMode({ run, t }: { run: RunView; t: T }) {
  if (!run.mode) return null;
  const building = run.mode === "bulk" && run.bulk && ["CREATED", "RUNNING"].includes(run.bulk.status);
  const text = building
    ? t("past.mode.bulkBuilding", { objects: run.bulk!.objectCount })
    : t(run.mode === "bulk" ? "past.mode.bulk" : "past.mode.paged");
  return (
    <Text as="p" tone="subdued" id="past-read-mode">
      {text}
    </Text>
  );
}

function Plan({
  run,
  data,
  t,
  busy,
  act,
}: {
  run: RunView;
  data: Data;
  t: T;
  busy: boolean;
  act: (intent: string) => void;
}) {
  const plan = run.plan;
  const range = { from: day(run.from, data.zone, t.locale), to: day(run.to, data.zone, t.locale, true) };
  if (run.state === "counting" || !plan) {
    return (
      <Card>
        <BlockStack gap="200">
          <Text as="p" id="past-counting">
            {t("past.counting", { ...range, orders: plan?.orders ?? 0 })}
          </Text>
          <ReadMode run={run} t={t} />
          <ProgressBar progress={0} size="small" animated />
        </BlockStack>
      </Card>
    );
  }
  // Orders the app has already, by what they mean: only issued ones are "already invoiced".
  const already: Array<[string, string | number]> = plan.already
    ? [
        [t("past.plan.alreadyIssued"), plan.already.issued],
        [t("past.plan.alreadyInProgress"), plan.already.inProgress],
        [t("past.plan.alreadyNeedsAttention"), plan.already.needsAttention],
        ...(plan.already.cancelled
          ? [[t("past.plan.alreadyCancelled"), plan.already.cancelled] as [string, number]]
          : []),
        ...(plan.already.closed ? [[t("past.plan.alreadyClosed"), plan.already.closed] as [string, number]] : []),
      ]
    : [[t("past.plan.alreadyRecorded"), plan.alreadyRecorded]];
  const rows: Array<[string, string | number]> = [
    [t("past.plan.orders"), plan.orders],
    ...already,
    [t("past.plan.toInvoice"), plan.toInvoice],
    ...(plan.giftCardSales ? [[t("past.plan.giftCardSales"), plan.giftCardSales] as [string, number]] : []),
    [t("past.plan.needsAttention"), plan.needsAttention],
    [t("past.plan.quota"), plan.testMode ? t("past.plan.quotaTest") : plan.quota],
    [t("past.plan.late"), plan.late],
  ];
  return (
    <SectionCard title={t("past.plan.title", range)} titleId="past-plan-title">
      <ReadMode run={run} t={t} />
      <Box>
        {rows.map(([label, value]) => (
          <InlineStack key={label} align="space-between">
            <Text as="span">{label}</Text>
            <Text as="span" fontWeight="semibold">
              {String(value)}
            </Text>
          </InlineStack>
        ))}
      </Box>
      {plan.needsAttention > 0 && (
        <Banner tone="warning" title={t("past.plan.reasons")}>
          <List>
            {Object.entries(plan.reasons).map(([code, count]) => (
              <List.Item key={code}>
                {t("past.plan.reason", {
                  count,
                  order: plan.reasonExamples[code]?.order ?? "",
                  text: problemText({ code, params: plan.reasonExamples[code]?.params }, t.locale),
                })}
              </List.Item>
            ))}
          </List>
        </Banner>
      )}
      {plan.late > 0 && (
        <Banner tone="warning">
          <p id="past-late">
            {t("past.plan.lateHelp", { orders: plan.lateOrders.join(", ") })}
            {plan.late > plan.lateOrders.length
              ? t("past.plan.lateMore", { count: plan.late - plan.lateOrders.length })
              : ""}
          </p>
        </Banner>
      )}
      {plan.toInvoice === 0 && <Text as="p">{t("past.plan.nothing")}</Text>}
      <InlineStack gap="200">
        {plan.toInvoice > 0 && (
          <Button id="past-start" variant="primary" onClick={() => act("start")} loading={busy}>
            {t("past.start", { count: plan.toInvoice })}
          </Button>
        )}
        <Button id="past-discard" onClick={() => act("discard")} disabled={busy}>
          {t("past.discard")}
        </Button>
      </InlineStack>
    </SectionCard>
  );
}

function Progress({
  run,
  data,
  t,
  busy,
  act,
}: {
  run: RunView;
  data: Data;
  t: T;
  busy: boolean;
  act: (intent: string) => void;
}) {
  const { progress } = run;
  const range = { from: day(run.from, data.zone, t.locale), to: day(run.to, data.zone, t.locale, true) };
  return (
    <SectionCard title={t("past.progress.title", range)}>
      <WorkProgress
        settled={progress.done + progress.noInvoice + progress.needsAttention + progress.failed}
        total={progress.total}
        tone={progress.failed > 0 ? "critical" : "primary"}
        id="past-progress"
      >
        {t("past.progress.counts", {
          done: progress.done,
          noInvoice: progress.noInvoice,
          needsAttention: progress.needsAttention,
          failed: progress.failed,
          total: progress.total,
        })}
      </WorkProgress>
      {progress.alreadyInvoiced > 0 && (
        <Text as="p" tone="subdued" id="past-already">
          {t("past.progress.already", { count: progress.alreadyInvoiced })}
        </Text>
      )}
      {run.state === "running" && !run.listedAll && (
        <Text as="p" tone="subdued">
          {t("past.progress.reading")}
        </Text>
      )}
      {run.state === "running" && !run.listedAll && <ReadMode run={run} t={t} />}
      {run.state === "running" && progress.inQueue > 0 && (
        <Text as="p" tone="subdued">
          {t("past.progress.queued", { count: progress.inQueue })}
        </Text>
      )}
      {run.state === "paused" && <Banner tone="warning">{t("past.progress.paused")}</Banner>}
      {run.state === "done" && (
        <Banner tone={progress.needsAttention + progress.failed > 0 ? "warning" : "success"}>
          {t("past.progress.done")}
        </Banner>
      )}
      {run.lastError && run.state === "running" && (
        <Text as="p" tone="caution">
          {t("past.progress.error", { error: run.lastError })}
        </Text>
      )}
      <InlineStack gap="200">
        {run.state === "running" && (
          <Button id="past-pause" onClick={() => act("pause")} loading={busy}>
            {t("past.pause")}
          </Button>
        )}
        {run.state === "paused" && (
          <Button id="past-resume" variant="primary" onClick={() => act("resume")} loading={busy}>
            {t("past.resume")}
          </Button>
        )}
        {progress.needsAttention > 0 && (
          <Button url="/app?state=needs_attention">{t("past.progress.attentionLink")}</Button>
        )}
      </InlineStack>
    </SectionCard>
  );
}

export default function PastOrdersPage() {
  const data = useLoaderData<typeof loader>();
  const t = useT();
  const fetcher = useFetcher<typeof action>();
  const run = data.run;
  const busy = fetcher.state !== "idle";
  useRevalidateWhile(run?.state === "counting" || run?.state === "running");
  const submit = (body: Record<string, string>) =>
    fetcher.submit(body, { method: "post", encType: "application/json" });
  const act = (intent: string) => run && submit({ intent, id: run.id });
  const showForm = !run || run.state === "ready" || run.state === "done" || run.state === "failed";
  return (
    <Page
      title={t("past.title")}
      subtitle={t("past.subtitle")}
      backAction={{ content: t("nav.invoices"), url: "/app" }}
    >
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <ActionMessage outcome={fetcher.data as PastOrdersActionResult | undefined} t={t} days={data.days} />
            {run && (run.state === "counting" || run.state === "ready") && (
              <Plan run={run} data={data} t={t} busy={busy} act={act} />
            )}
            {run && (run.state === "running" || run.state === "paused" || run.state === "done") && (
              <Progress run={run} data={data} t={t} busy={busy} act={act} />
            )}
            {showForm && (
              <RangeForm
                data={data}
                t={t}
                busy={busy}
                onDryRun={(from, to) => submit({ intent: "dry_run", from, to })}
              />
            )}
            <Reconciliation
              data={data}
              t={t}
              busy={busy && (fetcher.json as { intent?: string } | undefined)?.intent === "reconcile"}
              onCheck={() => submit({ intent: "reconcile" })}
            />
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
