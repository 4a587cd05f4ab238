// The invoices index table with Shopify's own list pattern: status tabs, search, a date filter and
// previous/next pages. Every filter lives in the URL, so the server does the filtering and paging and a
// filtered view can be reloaded or shared.
import { useSearchParams } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Button,
  Card,
  EmptySearchResult,
  IndexFilters,
  IndexTable,
  InlineStack,
  Link,
  Text,
  TextField,
  useSetIndexFiltersMode,
  IndexFiltersMode,
} from "@shopify/polaris";
import { useEffect, useMemo, useState } from "react";
import type { InvoiceListFilters, InvoicePage } from "../admin/invoices.server";
import { useT } from "../i18n/react";
import { formatDateTime, formatMoney } from "./format";
import { KindBadge, StateBadge } from "./StateBadge";
import { usePdfDownload } from "./usePdfDownload";

type Json<T> = { [K in keyof T]: T[K] };

interface Props {
  page: Json<InvoicePage>;
  filters: InvoiceListFilters;
  timezone: string;
}

const TABS = ["all", "needs_attention", "failed", "in_flight", "completed", "waiting", "cancelled"] as const;
const SEARCH_DELAY_MS = 350;

export function InvoiceTable({ page, filters, timezone }: Props) {
  const t = useT();
  const pdf = usePdfDownload();
  const [searchParams, setSearchParams] = useSearchParams();
  const [query, setQuery] = useState(filters.q ?? "");
  const { mode, setMode } = useSetIndexFiltersMode(filters.q || filters.from || filters.to ? IndexFiltersMode.Filtering : IndexFiltersMode.Default);

  /** Changes the URL's filters; any change of filter starts again at the first page. */
  const update = useMemo(
    () => (changes: Record<string, string | null>, keepCursor = false) => {
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

  useEffect(() => setQuery(filters.q ?? ""), [filters.q]);
  useEffect(() => {
    const trimmed = query.trim();
    if (trimmed === (filters.q ?? "")) return;
    const timer = setTimeout(() => update({ q: trimmed || null }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [query, filters.q, update]);

  const selectedTab = Math.max(0, TABS.indexOf((filters.state ?? "all") as (typeof TABS)[number]));
  const tabs = TABS.map((id, index) => ({
    id: `tab-${id}`,
    index,
    content: id === "all" ? t("nav.invoices") : t.dyn(`state.${id}`, id),
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
      <TextField label={t("list.filter.to")} type="date" autoComplete="off" value={filters.to ?? ""} onChange={(value) => update({ to: value || null })} />
    </BlockStack>
  );
  const appliedFilters = [
    ...(filters.from ? [{ key: "from", label: t("list.filter.fromLabel", { date: filters.from }), onRemove: () => update({ from: null }) }] : []),
    ...(filters.to ? [{ key: "to", label: t("list.filter.toLabel", { date: filters.to }), onRemove: () => update({ to: null }) }] : []),
  ];

  const rows = page.rows.map((row, index) => (
    <IndexTable.Row id={row.id} key={row.id} position={index}>
      <IndexTable.Cell>
        <InlineStack gap="200" blockAlign="center" wrap={false}>
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
      </IndexTable.Cell>
      <IndexTable.Cell>
        {row.customerName ? (
          // Company titles can be long: keep the PDF column on screen, the full name in the tooltip.
          <div style={{ maxWidth: 220, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }} title={row.customerName}>
            {row.customerName}
          </div>
        ) : (
          <Text as="span" tone="subdued">
            {t("list.guest")}
          </Text>
        )}
      </IndexTable.Cell>
      <IndexTable.Cell>{formatDateTime(row.createdAt, t.locale, timezone)}</IndexTable.Cell>
      <IndexTable.Cell>
        <Text as="span" alignment="end" numeric>
          {formatMoney(row.orderTotal, row.currency, t.locale)}
        </Text>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <KindBadge kind={row.documentKind} />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <StateBadge state={row.state} />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Link url={`/app/invoices/${row.id}`} dataPrimaryLink removeUnderline>
          {row.serialNumber ?? t("list.details")}
        </Link>
      </IndexTable.Cell>
      <IndexTable.Cell>
        {row.pdfUrl ? (
          <Link url={row.pdfUrl} target="_blank" external>
            {t("list.openPdf")}
          </Link>
        ) : row.state === "completed" ? (
          // No pdf_url from the service: the formal PDF through the app, with the shop's key.
          <Button variant="plain" onClick={() => void pdf.download(row.id)} loading={pdf.busy === row.id}>
            {t("list.openPdf")}
          </Button>
        ) : null}
      </IndexTable.Cell>
    </IndexTable.Row>
  ));

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
            update({ q: null, from: null, to: null });
          },
        }}
        tabs={tabs}
        selected={selectedTab}
        onSelect={() => undefined}
        canCreateNewView={false}
        filters={[{ key: "date", label: t("list.filter.date"), filter: dateFilter, shortcut: true }]}
        appliedFilters={appliedFilters}
        onClearAll={() => update({ from: null, to: null })}
        mode={mode}
        setMode={setMode}
      />
      <IndexTable
        resourceName={{ singular: t("list.resourceSingular"), plural: t("list.resourcePlural") }}
        itemCount={page.rows.length}
        selectable={false}
        emptyState={<EmptySearchResult title={t("list.noResults.title")} description={t("list.noResults.body")} withIllustration />}
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
