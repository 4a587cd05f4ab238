import { describe, expect, it } from "vitest";
import { action as homeAction, loader as homeLoader } from "../../app/routes/app._index";
import { saveConnection } from "../../app/settings/settings.server";
import { callRoute } from "../helpers/routes";
import { adminDocumentRequest, adminFetchRequest, APP_ORIGIN, OTHER_SHOP, SHOP } from "../helpers/shopify";
import { freshShopsForEachTest, prisma } from "../helpers/db";
import { seedInvoice } from "../helpers/seed";

interface Row {
  id: string;
  orderName: string;
  state: string;
  serialNumber: string | null;
  pdfUrl: string | null;
  customerName: string | null;
  orderCreatedAt: string;
  deadline: { at: string; status: string } | null;
}
interface HomeData {
  shop: string;
  page: { rows: Row[]; next: string | null; previous: string | null };
  counts: { today: number; inFlight: number; needsAttention: number; failed: number };
  onboarding: {
    apiKey: boolean;
    saleChannel: boolean;
    integration: boolean;
    testInvoice: string | null;
    testMode: boolean;
    complete: boolean;
  };
  hasInvoices: boolean;
  nearDeadline: number;
}

async function home(query = "", shop = SHOP): Promise<HomeData> {
  const response = await callRoute(homeLoader, await adminDocumentRequest(`/app${query}`, shop));
  expect(response.status).toBe(200);
  return (await response.json()) as HomeData;
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

describe("invoices page (app home)", () => {
  freshShopsForEachTest();

  it("does not answer without a session token", async () => {
    const response = await callRoute(homeLoader, new Request(`${APP_ORIGIN}/app?shop=${SHOP}&embedded=1`));
    expect(response.status).not.toBe(200);
  });

  it("lists only the session shop's invoices, newest first, with serial numbers and PDF links", async () => {
    await seedInvoice(SHOP, {
      orderName: "#1",
      createdAt: minutesAgo(30),
      serialNumber: "EFA2026000000001",
      pdfUrl: "https://files.example/1.pdf",
    });
    await seedInvoice(SHOP, { orderName: "#2", createdAt: minutesAgo(10), state: "processing" });
    await seedInvoice(OTHER_SHOP, { orderName: "#OTHER", createdAt: minutesAgo(5) });
    const data = await home();
    expect(data.shop).toBe(SHOP);
    expect(data.page.rows.map((row) => row.orderName)).toEqual(["#2", "#1"]);
    expect(data.page.rows[1]).toMatchObject({
      serialNumber: "EFA2026000000001",
      pdfUrl: "https://files.example/1.pdf",
    });
    const other = await home("", OTHER_SHOP);
    expect(other.page.rows.map((row) => row.orderName)).toEqual(["#OTHER"]);
  });

  it("pages through every invoice with keyset cursors, forwards and back, without gaps or repeats", async () => {
    const base = Date.now() - 100 * 60_000;
    // 60 rows; every third pair shares a createdAt, so the id tie-break is exercised.
    for (let i = 0; i < 60; i += 1)
      await seedInvoice(SHOP, { orderName: `#${1000 + i}`, createdAt: new Date(base + Math.floor(i / 2) * 60_000) });
    const seen: string[] = [];
    let data = await home();
    expect(data.page.previous).toBeNull();
    const pages: HomeData[] = [data];
    seen.push(...data.page.rows.map((row) => row.orderName));
    while (data.page.next) {
      data = await home(`?after=${data.page.next}`);
      pages.push(data);
      seen.push(...data.page.rows.map((row) => row.orderName));
    }
    expect(pages.map((page) => page.page.rows.length)).toEqual([25, 25, 10]);
    expect(new Set(seen).size).toBe(60);
    const created = pages.flatMap((page) => page.page.rows.map((row) => row.orderCreatedAt));
    expect([...created].sort().reverse()).toEqual(created);
    // Back from the last page gives exactly the middle page again.
    const back = await home(`?before=${pages[2].page.previous}`);
    expect(back.page.rows.map((row) => row.id)).toEqual(pages[1].page.rows.map((row) => row.id));
    expect(back.page.next).not.toBeNull();
    const first = await home(`?before=${back.page.previous}`);
    expect(first.page.rows.map((row) => row.id)).toEqual(pages[0].page.rows.map((row) => row.id));
    expect(first.page.previous).toBeNull();
  });

  it("filters by state (one state, or everything in progress)", async () => {
    await seedInvoice(SHOP, { orderName: "#A", state: "needs_attention" });
    await seedInvoice(SHOP, { orderName: "#B", state: "completed" });
    await seedInvoice(SHOP, { orderName: "#C", state: "queued" });
    await seedInvoice(SHOP, { orderName: "#D", state: "processing" });
    await seedInvoice(OTHER_SHOP, { orderName: "#X", state: "needs_attention" });
    expect((await home("?state=needs_attention")).page.rows.map((row) => row.orderName)).toEqual(["#A"]);
    expect((await home("?state=in_flight")).page.rows.map((row) => row.orderName).sort()).toEqual(["#C", "#D"]);
    // An unknown state is ignored rather than an error page.
    expect((await home("?state=bogus")).page.rows).toHaveLength(4);
  });

  it("searches order name, serial number and customer, within the shop only", async () => {
    await seedInvoice(SHOP, { orderName: "#1001", customerName: "Mehmet Demir", serialNumber: "EFA2026000000077" });
    await seedInvoice(SHOP, { orderName: "#1002", customerName: "Zeynep Kaya" });
    await seedInvoice(OTHER_SHOP, {
      orderName: "#1001",
      customerName: "Mehmet Demir",
      serialNumber: "EFA2026000000077",
    });
    expect((await home("?q=1001")).page.rows.map((row) => row.orderName)).toEqual(["#1001"]);
    expect((await home("?q=%231001")).page.rows.map((row) => row.orderName)).toEqual(["#1001"]);
    expect((await home("?q=EFA2026000000077")).page.rows.map((row) => row.orderName)).toEqual(["#1001"]);
    expect((await home("?q=efa20260000")).page.rows.map((row) => row.orderName)).toEqual(["#1001"]);
    expect((await home("?q=Demir")).page.rows.map((row) => row.orderName)).toEqual(["#1001"]);
    expect((await home("?q=Zeynep")).page.rows.map((row) => row.orderName)).toEqual(["#1002"]);
    const none = await home("?q=nobody");
    expect(none.page.rows).toEqual([]);
    expect(none.hasInvoices).toBe(true);
  });

  it("searches names folding case and Turkish letters, and % and _ match only themselves (SQLite and PostgreSQL)", async () => {
    await seedInvoice(SHOP, { orderName: "#1", customerName: "Ayşe Yılmaz" });
    await seedInvoice(SHOP, { orderName: "#2", customerName: "AYŞE ÇAĞLAR" });
    await seedInvoice(SHOP, { orderName: "#3", customerName: "İsmail Işık" });
    await seedInvoice(SHOP, { orderName: "#4", customerName: "Anadolu Tekstil A.Ş." });
    await seedInvoice(SHOP, { orderName: "#5", customerName: "Yüzde_Yüz %100 Ltd." });
    await seedInvoice(OTHER_SHOP, { orderName: "#9", customerName: "Ayşe Yılmaz" });
    const found = async (q: string) =>
      (await home(`?q=${encodeURIComponent(q)}`)).page.rows.map((row) => row.orderName).sort();
    for (const q of ["Ayşe", "ayse", "AYŞE", "AYSE", "aYşE"]) expect(await found(q), q).toEqual(["#1", "#2"]);
    for (const q of ["YILMAZ", "yılmaz", "yilmaz", "Yilmaz"]) expect(await found(q), q).toEqual(["#1"]);
    for (const q of ["ismail", "ISMAIL", "İSMAİL", "ışık", "ISIK", "işık"]) expect(await found(q), q).toEqual(["#3"]);
    expect(await found("çağlar")).toEqual(["#2"]);
    expect(await found("a.ş.")).toEqual(["#4"]);
    expect(await found("tekstil a s")).toEqual(["#4"]);
    // LIKE's wildcards: neither matches every name; they fold away like any other punctuation.
    expect(await found("%")).toEqual([]);
    expect(await found("_")).toEqual([]);
    expect(await found("a%e")).toEqual([]);
    expect(await found("yüzde_yüz")).toEqual(["#5"]);
    expect(await found("%100")).toEqual(["#5"]);
  });

  it("filters by calendar days in the shop's time zone", async () => {
    // 2026-03-10 22:30 UTC is already 2026-03-11 01:30 in Istanbul (UTC+3).
    await seedInvoice(SHOP, { orderName: "#late", createdAt: new Date("2026-03-10T22:30:00Z") });
    await seedInvoice(SHOP, { orderName: "#day", createdAt: new Date("2026-03-10T12:00:00Z") });
    await seedInvoice(SHOP, { orderName: "#before", createdAt: new Date("2026-03-09T12:00:00Z") });
    expect((await home("?from=2026-03-10&to=2026-03-10")).page.rows.map((row) => row.orderName)).toEqual(["#day"]);
    expect((await home("?from=2026-03-11")).page.rows.map((row) => row.orderName)).toEqual(["#late"]);
    expect((await home("?to=2026-03-09")).page.rows.map((row) => row.orderName)).toEqual(["#before"]);
  });

  it("lists and filters by the order's date, not by when the app received the order", async () => {
    // A past order invoiced today (past-orders run): ordered in March, received now.
    await seedInvoice(SHOP, {
      orderName: "#old",
      createdAt: new Date("2026-03-02T09:00:00Z"),
      receivedAt: minutesAgo(1),
    });
    await seedInvoice(SHOP, { orderName: "#new", createdAt: minutesAgo(60), receivedAt: minutesAgo(59) });
    await seedInvoice(SHOP, {
      orderName: "#mid",
      createdAt: new Date("2026-04-02T09:00:00Z"),
      receivedAt: new Date("2026-04-02T09:01:00Z"),
    });
    const data = await home();
    expect(data.page.rows.map((row) => row.orderName)).toEqual(["#new", "#mid", "#old"]);
    expect(data.page.rows[2].orderCreatedAt).toBe("2026-03-02T09:00:00.000Z");
    expect((await home("?from=2026-03-01&to=2026-03-31")).page.rows.map((row) => row.orderName)).toEqual(["#old"]);
    // Given the wrong way round: the same days, not an empty list.
    expect((await home("?from=2026-03-31&to=2026-03-01")).page.rows.map((row) => row.orderName)).toEqual(["#old"]);
  });

  it("the 7-day deadline: invoices not issued yet within 48 h of it or past it are counted, badged and filtered; no other", async () => {
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3_600_000);
    const near = await seedInvoice(SHOP, { orderName: "#near", state: "failed", createdAt: daysAgo(5.5) });
    await seedInvoice(SHOP, { orderName: "#queued-near", state: "queued", createdAt: daysAgo(6) });
    await seedInvoice(SHOP, { orderName: "#late", state: "needs_attention", createdAt: daysAgo(8) });
    await seedInvoice(SHOP, { orderName: "#fresh", state: "needs_attention", createdAt: daysAgo(1) });
    // Issued (at the service, or formalised), cancelled, closed by hand, a sample, a wait for payment: no clock.
    for (const state of ["completed", "processing", "cancelled", "closed", "waiting"])
      await seedInvoice(SHOP, { orderName: `#${state}`, state, createdAt: daysAgo(10) });
    await seedInvoice(SHOP, { orderName: "#sample", state: "needs_attention", isTest: true, createdAt: daysAgo(10) });
    await seedInvoice(OTHER_SHOP, { orderName: "#other", state: "needs_attention", createdAt: daysAgo(10) });

    const data = await home();
    expect(data.nearDeadline).toBe(3);
    const byName = Object.fromEntries(data.page.rows.map((row) => [row.orderName, row.deadline]));
    expect(byName["#late"]).toMatchObject({ status: "passed" });
    expect(byName["#near"]).toEqual({
      status: "near",
      at: new Date(near.orderCreatedAt.getTime() + 7 * 24 * 3_600_000).toISOString(),
    });
    for (const name of ["#fresh", "#completed", "#processing", "#cancelled", "#closed", "#waiting", "#sample"])
      expect(byName[name], name).toBeNull();

    const names = async (query: string) => (await home(query)).page.rows.map((row) => row.orderName);
    expect(await names("?deadline=near")).toEqual(["#near", "#queued-near", "#late"]);
    // Within a tab: the tab's rows whose clock runs; a tab of issued invoices has none.
    expect(await names("?deadline=near&state=needs_attention")).toEqual(["#late"]);
    expect(await names("?deadline=near&state=in_flight")).toEqual(["#queued-near"]);
    expect(await names("?deadline=near&state=completed")).toEqual([]);
    expect(await names("?deadline=soon")).toHaveLength(10); // an unknown value filters nothing

    // A shop that issues by hand: its waiting invoices' clocks run too.
    await prisma.shopSettings.upsert({
      where: { shopDomain: SHOP },
      create: { shopDomain: SHOP, trigger: "manual" },
      update: { trigger: "manual" },
    });
    expect((await home()).nearDeadline).toBe(4);
    expect(await names("?deadline=near")).toEqual(["#near", "#queued-near", "#late", "#waiting"]);
  });

  it("counts today's, in-flight, needing-attention and failed invoices of the shop only", async () => {
    await seedInvoice(SHOP, { state: "queued" });
    await seedInvoice(SHOP, { state: "sending" });
    await seedInvoice(SHOP, { state: "needs_attention" });
    await seedInvoice(SHOP, { state: "failed" });
    await seedInvoice(SHOP, { state: "completed", createdAt: new Date(Date.now() - 3 * 86_400_000) });
    await seedInvoice(OTHER_SHOP, { state: "failed" });
    const { counts } = await home();
    expect(counts).toEqual({ today: 4, inFlight: 2, needsAttention: 1, failed: 1 });
  });

  it("shows the onboarding steps until a test invoice went through", async () => {
    let data = await home();
    expect(data.onboarding).toMatchObject({
      apiKey: false,
      saleChannel: false,
      integration: false,
      testInvoice: null,
      complete: false,
    });
    expect(data.hasInvoices).toBe(false);
    await saveConnection(SHOP, {
      apiKey: "a-working-key-123",
      saleChannelId: 3,
      dummyIntegrationId: 9,
      testMode: true,
    });
    data = await home();
    expect(data.onboarding).toMatchObject({
      apiKey: true,
      saleChannel: true,
      integration: true,
      testInvoice: null,
      testMode: true,
      complete: false,
    });
    await seedInvoice(SHOP, { isTest: true, state: "completed" });
    expect((await home()).onboarding.complete).toBe(true);
    expect((await home("", OTHER_SHOP)).onboarding.complete).toBe(false);
  });

  it("counts a real order that was invoiced as proof that the connection works", async () => {
    await saveConnection(SHOP, {
      apiKey: "a-working-key-123",
      saleChannelId: 3,
      dummyIntegrationId: 9,
      testMode: true,
    });
    await seedInvoice(SHOP, { state: "needs_attention" });
    expect((await home()).onboarding.complete).toBe(false);
    await seedInvoice(SHOP, { state: "completed" });
    expect((await home()).onboarding.complete).toBe(true);
  });

  it("sends a test invoice for the session's shop only, and refuses before the settings are complete", async () => {
    const send = async () =>
      callRoute(
        homeAction,
        await adminFetchRequest("/app?index", SHOP, {
          method: "POST",
          body: new URLSearchParams({ intent: "send_test" }),
        }),
      );
    const refused = await send();
    expect(refused.status).toBe(409);
    expect(await prisma.invoice.count()).toBe(0);
    await saveConnection(SHOP, { apiKey: "a-working-key-123", saleChannelId: 3, dummyIntegrationId: 9 });
    const sent = await send();
    expect(sent.status).toBe(200);
    const rows = await prisma.invoice.findMany();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ shopDomain: SHOP, isTest: true, state: "queued" });
    // A burst is refused past five (each is a row and a call to the service): 429, nothing created (issue 35, point 11).
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await send()).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect(await prisma.invoice.count()).toBe(5);
  });
});
