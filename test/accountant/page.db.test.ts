// The accountant package page's loader and action (authenticated, SQLite and PostgreSQL): a month asked for becomes a
// queued package of the session's shop; the list shows only that shop's packages, a download link only when ready.
import { describe, expect, it } from "vitest";
import { action, loader } from "../../app/routes/app.accountant";
import { freshShopsForEachTest, prisma } from "../helpers/db";
import { callRoute } from "../helpers/routes";
import { adminFetchRequest, OTHER_SHOP, SHOP } from "../helpers/shopify";

freshShopsForEachTest();

const post = async (body: unknown, shop = SHOP, locale = "tr") =>
  callRoute(
    action,
    await adminFetchRequest(`/app/accountant?locale=${locale}`, shop, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
const page = async (shop = SHOP) => (await callRoute(loader, await adminFetchRequest("/app/accountant", shop))).json();

describe("the accountant package page", () => {
  it("queues a package of the chosen month for the session's shop, in the admin's language, and shows its progress", async () => {
    const before = await page();
    expect(before.months).toHaveLength(24);
    expect(before.defaultMonth).toBe(before.months[1]);
    expect(before.packages).toEqual([]);

    const answer = await post({ kind: "month", month: "2026-10" }, SHOP, "en");
    expect(answer.status).toBe(200);
    const { id } = (await answer.json()) as { ok: true; id: string };
    expect(await prisma.accountantPackage.findUniqueOrThrow({ where: { id } })).toMatchObject({
      shopDomain: SHOP,
      fromDate: "2026-10-01",
      toDate: "2026-10-31",
      locale: "en",
      state: "queued",
    });
    expect((await page()).packages).toEqual([
      expect.objectContaining({ id, state: "queued", from: "2026-10-01", to: "2026-10-31", downloadPath: null }),
    ]);
    expect((await page(OTHER_SHOP)).packages).toEqual([]);

    expect(await (await post({ kind: "range", from: "2026-10-05", to: "2026-10-20" })).json()).toEqual({
      ok: false,
      reason: "busy",
    });
    const other = await (await post({ kind: "range", from: "2026-10-05", to: "2026-10-20" }, OTHER_SHOP)).json();
    expect(other).toMatchObject({ ok: true });
    expect(await prisma.accountantPackage.findUniqueOrThrow({ where: { id: other.id } })).toMatchObject({
      shopDomain: OTHER_SHOP,
      fromDate: "2026-10-05",
      toDate: "2026-10-20",
      locale: "tr",
    });
  });

  it("gives a signed link only for a ready, unexpired package", async () => {
    const ready = await prisma.accountantPackage.create({
      data: {
        shopDomain: SHOP,
        fromDate: "2026-09-01",
        toDate: "2026-09-30",
        state: "ready",
        total: 3,
        pdfDone: 3,
        fileSize: 1234n,
        expiresAt: new Date(Date.now() + 3_600_000),
      },
    });
    const old = await prisma.accountantPackage.create({
      data: {
        shopDomain: SHOP,
        fromDate: "2026-08-01",
        toDate: "2026-08-31",
        state: "ready",
        fileSize: 10n,
        expiresAt: new Date(Date.now() - 1000),
        createdAt: new Date(Date.now() - 86_400_000),
      },
    });
    const { packages } = await page();
    expect(packages.map((p: { id: string }) => p.id)).toEqual([ready.id, old.id]);
    expect(packages[0].downloadPath).toMatch(/^\/accountant-package\/[\w-]+\.[\w-]+$/);
    expect(packages[1]).toMatchObject({ state: "expired", downloadPath: null });
  });

  it("refuses what is not a month or a range", async () => {
    for (const body of [
      { kind: "month", month: "2026-13" },
      { kind: "week" },
      { kind: "range", from: "x", to: "2026-10-01" },
    ]) {
      const answer = await post(body);
      expect((await answer.json()).ok, JSON.stringify(body)).toBe(false);
    }
    const broken = await callRoute(
      action,
      await adminFetchRequest("/app/accountant", SHOP, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{",
      }),
    );
    expect(broken.status).toBe(400);
    expect(await prisma.accountantPackage.count()).toBe(0);
  });
});
