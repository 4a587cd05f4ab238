// The invoices index table with Shopify's own list pattern: status tabs, search, a date filter and
// previous/next pages. Every filter lives in the URL, so the server does the filtering and paging and a
// filtered view can be reloaded or shared.
import { useNavigation, useSearchParams } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Button,
  Card,
  ChoiceList,
  EmptySearchResult,
  IndexFilters,
  IndexTable,
  InlineStack,
  Link,
  Text,
  TextField,
  useBreakpoints,
  useSetIndexFiltersMode,
  IndexFiltersMode,
} from "@shopify/polaris";
import { useEffect, useMemo, useState } from "react";
import type { InvoiceListFilters, InvoicePage } from "./list.server";
import { useT } from "../i18n/react";
import { useFreshValue } from "../ui/useFreshValue";
import { formatDateTime, formatDay, formatMoney } from "../ui/format";
import { KindBadge, shownState, StateBadge } from "./StateBadge";
import { usePdfDownload } from "../pdf/usePdfDownload";
import { STATE } from "../invoice-state/transitions";

type Json<T> = { [K in keyof T]: T[K] };

interface Props {
  page: Json<InvoicePage>;
  filters: InvoiceListFilters;
  timezone: string;
}

const TABS = [
  "all",
  STATE.needs_attention,
  STATE.failed,
  "in_flight",
  STATE.completed,
  STATE.waiting,
  STATE.cancelled,
] as const;
const SEARCH_DELAY_MS = 350;

export function InvoiceTable({ page, filters, timezone }: Props) {
  const t = useT();
  const pdf = usePdfDownload();
  // Under 490 px (Polaris' sm breakpoint) each invoice is one stacked row: state, total, serial and PDF stay on screen.
  const { smDown: condensed } = useBreakpoints();
  // A tab, a filter or a page asked for: the table says it is loading until the new rows arrive.
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location?.pathname === "/app";
  const [searchParams, setSearchParams] = useSearchParams();
  const [query, setQuery] = useState(filters.q ?? "");
  const { mode, setMode } = useSetIndexFiltersMode(
    filters.q || filters.from || filters.to || filters.deadline ? IndexFiltersMode.Filtering : IndexFiltersMode.Default,
  );

  /** Changes the URL's filters; any change of filter starts again at the first page. */
  const update = useMemo(
    () =>
      (changes: Record<string, string | null>, keepCursor = false) => {
        const next = new URLSearchParams(searchParams);
        if (!keepCursor) {
          next.delete("after");
          next.delete("before");
        }
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        setSearchParams(next, { preventScrollReset: true });
      },
    [searchParams, setSearchParams],
  );

  // The search this field last put in the URL: when that arrives, the merchant may have typed on meanwhile, and the
  // field keeps what they typed. Any other search in the URL (a link, back, a cleared filter) shows in the field.
  const [sentQ, setSentQ] = useState<string | null>(null);
  const freshQ = useFreshValue(filters.q ?? "");
  if (freshQ !== undefined && freshQ !== sentQ) setQuery(freshQ);
  // Arriving with the deadline filter set (the home banner's action): show it as an applied filter.
  useEffect(() => {
    if (filters.deadline) setMode(IndexFiltersMode.Filtering);
  }, [filters.deadline, setMode]);
  useEffect(() => {
    const trimmed = query.trim();
    if (trimmed === (filters.q ?? "")) return;
    const timer = setTimeout(() => {
      setSentQ(trimmed);
      update({ q: trimmed || null });
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [query, filters.q, update]);

  const selectedTab = Math.max(0, TABS.indexOf((filters.state ?? "all") as (typeof TABS)[number]));
  const tabs = TABS.map((id, index) => ({
    id: `tab-${id}`,
    index,
    content: id === "all" ? t("list.tab.all") : t.dyn(`state.${id}`, id),
    isLocked: index === 0,
    onAction: () => update({ state: id === "all" ? null : id }),
  }));

  const dateFilter = (
    <BlockStack gap="200">
      <TextField
        label={t("list.filter.from")}
        type="date"
        autoComplete="off"
        value={filters.from ?? ""}
        onChange={(value) => update({ from: value || null })}
      />
      <TextField
        label={t("list.filter.to")}
        type="date"
        autoComplete="off"
        value={filters.to ?? ""}
        onChange={(value) => update({ to: value || null })}
      />
    </BlockStack>
  );
  const deadlineFilter = (
    <ChoiceList
      title={t("list.filter.deadline")}
      titleHidden
      choices={[{ label: t("list.filter.deadlineNear"), value: "near" }]}
      selected={filters.deadline ? [filters.deadline] : []}
      onChange={(selected) => update({ deadline: selected[0] ?? null })}
      allowMultiple
    />
  );
  const appliedFilters = [
    ...(filters.deadline
      ? [{ key: "deadline", label: t("list.filter.deadlineLabel"), onRemove: () => update({ deadline: null }) }]
      : []),
    ...(filters.from
      ? [
          {
            key: "from",
            label: t("list.filter.fromLabel", { date: formatDay(filters.from, t.locale) }),
            onRemove: () => update({ from: null }),
          },
        ]
      : []),
    ...(filters.to
      ? [
          {
            key: "to",
            label: t("list.filter.toLabel", { date: formatDay(filters.to, t.locale) }),
            onRemove: () => update({ to: null }),
          },
        ]
      : []),
  ];

  const orderCell = (row: (typeof page.rows)[number]) => (
    <InlineStack gap="100" blockAlign="center">
      {row.isTest || row.waybillId !== null ? (
        <Text as="span" fontWeight="semibold">
          {row.orderName}
        </Text>
      ) : (
        <Link url={`shopify:admin/orders/${row.orderId}`} removeUnderline monochrome>
          <Text as="span" fontWeight="semibold">
            {row.orderName}
          </Text>
        </Link>
      )}
      {(row.isTest || row.postedInTestMode) && <Badge tone="attention">{t("badge.test")}</Badge>}
      {row.waybillId !== null && <Badge size="small">{t("badge.waybill")}</Badge>}
    </InlineStack>
  );
  const customerCell = (row: (typeof page.rows)[number]) =>
    row.customerName ? (
      // Company titles can be long: keep the PDF column on screen, the full name in the tooltip.
      <div
        style={{
          maxWidth: condensed ? "100%" : 200,
          overflow: "hidden",
          textOverflow: "ellipsis",
          whiteSpace: "nowrap",
        }}
        title={row.customerName}
      >
        {row.customerName}
      </div>
    ) : (
      <Text as="span" tone="subdued">
        {t("list.guest")}
      </Text>
    );
  // The invoice's own total; what was paid under it when that differs (gift cards, tips, refunds before invoicing).
  const totalCell = (row: (typeof page.rows)[number]) =>
    row.invoiceTotal === null ? (
      <Text as="span" alignment="end" numeric>
        {formatMoney(row.orderTotal, row.currency, t.locale)}
      </Text>
    ) : (
      <BlockStack>
        <Text as="span" alignment="end" numeric>
          {formatMoney(row.invoiceTotal, row.currency, t.locale)}
        </Text>
        <Text as="span" alignment="end" numeric tone="subdued" variant="bodySm">
          <span title={t("list.paidDiffersWhy")}>
            {t("list.paidDiffers", { paid: formatMoney(row.orderTotal, row.currency, t.locale) })}
          </span>
        </Text>
      </BlockStack>
    );
  const serialCell = (row: (typeof page.rows)[number]) => (
    <Link url={`/app/invoices/${row.id}`} dataPrimaryLink removeUnderline>
      {row.serialNumber ?? t("list.details")}
    </Link>
  );
  // Not issued yet and the 7-day deadline is near or past (app/invoices/deadline.ts).
  const deadlineBadge = (row: (typeof page.rows)[number]) =>
    row.deadline === null ? null : row.deadline.status === "passed" ? (
      <Badge tone="critical">{t("deadline.passed")}</Badge>
    ) : (
      <Badge tone="warning">{t("deadline.near", { at: formatDateTime(row.deadline.at, t.locale, timezone) })}</Badge>
    );
  const pdfCell = (row: (typeof page.rows)[number]) =>
    row.pdfUrl ? (
      <Link url={row.pdfUrl} target="_blank" external>
        {t("list.openPdf")}
      </Link>
    ) : row.state === STATE.completed ? (
      // No pdf_url from the service: the formal PDF through the app, with the shop's key.
      <Button variant="plain" onClick={() => void pdf.download(row.id)} loading={pdf.busy === row.id}>
        {t("list.openPdf")}
      </Button>
    ) : null;

  const rows = page.rows.map((row, index) =>
    condensed ? (
      <IndexTable.Row id={row.id} key={row.id} position={index}>
        <div style={{ padding: "var(--p-space-300) var(--p-space-400)", width: "100%" }}>
          <BlockStack gap="100">
            <InlineStack align="space-between" blockAlign="center" gap="200" wrap={false}>
              {orderCell(row)}
              {totalCell(row)}
            </InlineStack>
            <InlineStack align="space-between" gap="200" wrap={false}>
              <Text as="span" tone="subdued" truncate>
                {row.customerName ?? t("list.guest")}
              </Text>
              <span style={{ whiteSpace: "nowrap" }}>
                <Text as="span" tone="subdued" variant="bodySm">
                  {formatDateTime(row.orderCreatedAt, t.locale, timezone)}
                </Text>
              </span>
            </InlineStack>
            <InlineStack align="space-between" blockAlign="center" gap="200">
              <InlineStack gap="100">
                <StateBadge state={shownState(row)} />
                {deadlineBadge(row)}
                <KindBadge kind={row.documentKind} />
              </InlineStack>
              <InlineStack gap="300" blockAlign="center">
                {serialCell(row)}
                {pdfCell(row)}
              </InlineStack>
            </InlineStack>
          </BlockStack>
        </div>
      </IndexTable.Row>
    ) : (
      <IndexTable.Row id={row.id} key={row.id} position={index}>
        <IndexTable.Cell>{orderCell(row)}</IndexTable.Cell>
        <IndexTable.Cell>{customerCell(row)}</IndexTable.Cell>
        <IndexTable.Cell>{formatDateTime(row.orderCreatedAt, t.locale, timezone)}</IndexTable.Cell>
        <IndexTable.Cell>{totalCell(row)}</IndexTable.Cell>
        <IndexTable.Cell>
          <KindBadge kind={row.documentKind} />
        </IndexTable.Cell>
        <IndexTable.Cell>
          <InlineStack gap="100">
            <StateBadge state={shownState(row)} />
            {deadlineBadge(row)}
          </InlineStack>
        </IndexTable.Cell>
        <IndexTable.Cell>{serialCell(row)}</IndexTable.Cell>
        <IndexTable.Cell>{pdfCell(row)}</IndexTable.Cell>
      </IndexTable.Row>
    ),
  );
  // An empty tab with no search or date set has nothing to change: say so instead of suggesting filters.
  const filtered = Boolean(filters.q || filters.from || filters.to || filters.deadline);

  return (
    <Card padding="0">
      <IndexFilters
        queryValue={query}
        queryPlaceholder={t("list.searchPlaceholder")}
        onQueryChange={setQuery}
        onQueryClear={() => {
          setQuery("");
          update({ q: null });
        }}
        cancelAction={{
          onAction: () => {
            setQuery("");
            update({ q: null, from: null, to: null, deadline: null });
          },
        }}
        tabs={tabs}
        selected={selectedTab}
        onSelect={() => undefined}
        canCreateNewView={false}
        filters={[
          { key: "date", label: t("list.filter.date"), filter: dateFilter, shortcut: true },
          { key: "deadline", label: t("list.filter.deadline"), filter: deadlineFilter, shortcut: true },
        ]}
        appliedFilters={appliedFilters}
        onClearAll={() => update({ from: null, to: null, deadline: null })}
        mode={mode}
        setMode={setMode}
      />
      <IndexTable
        resourceName={{ singular: t("list.resourceSingular"), plural: t("list.resourcePlural") }}
        itemCount={page.rows.length}
        selectable={false}
        condensed={condensed}
        loading={loading}
        emptyState={
          filtered ? (
            <EmptySearchResult
              title={t("list.noResults.title")}
              description={t("list.noResults.body")}
              withIllustration
            />
          ) : (
            <EmptySearchResult title={t("list.empty.stateTitle")} description={t("list.empty.state")} />
          )
        }
        headings={[
          { title: t("list.order") },
          { title: t("list.customer") },
          { title: t("list.date") },
          { title: t("list.total"), alignment: "end" },
          { title: t("list.kind") },
          { title: t("list.state") },
          { title: t("list.serial") },
          { title: t("list.pdf") },
        ]}
        pagination={{
          hasPrevious: Boolean(page.previous),
          hasNext: Boolean(page.next),
          onPrevious: () => page.previous && update({ before: page.previous, after: null }, true),
          onNext: () => page.next && update({ after: page.next, before: null }, true),
        }}
      >
        {rows}
      </IndexTable>
    </Card>
  );
}
