import { describe, expect, it } from "vitest";
import { claimDueRows } from "../../app/invoices/claim.server";
import { hot } from "../../app/db.server";
import { createInvoiceRow, freshShopsForEachTest, prisma } from "../helpers/db";
import { OTHER_SHOP, SHOP } from "../helpers/shopify";

const now = new Date("2026-11-22T10:00:00Z");
const claim = (workerId: string, limit = 8, perShopLimit = 2, at = now) =>
  claimDueRows({ workerId, now: at, limit, perShopLimit, leaseMs: 60_000 });

async function queue(shop: string, count: number, at = new Date(now.getTime() - 1000), priority = 0) {
  const rows = [];
  for (let i = 0; i < count; i++) {
    const row = await createInvoiceRow(shop);
    rows.push(
      await prisma.invoice.update({
        where: { id: row.id },
        data: { state: "queued", nextAttemptAt: new Date(at.getTime() + i), priority },
      }),
    );
  }
  return rows;
}

describe("claiming due rows", () => {
  freshShopsForEachTest();

  it("leases due rows, marks them sending, and skips rows not yet due", async () => {
    const [due] = await queue(SHOP, 1);
    await queue(SHOP, 1, new Date(now.getTime() + 60_000));
    const claimed = await claim("w1");
    expect(claimed.map((c) => c.id)).toEqual([due.id]);
    const row = await prisma.invoice.findUniqueOrThrow({ where: { id: due.id } });
    expect(row).toMatchObject({ state: "sending", leaseOwner: "w1" });
    expect(row.leaseUntil!.getTime()).toBe(now.getTime() + 60_000);
  });

  it("gives each shop at most its share, so one large shop cannot starve another", async () => {
    await queue(SHOP, 10);
    await queue(OTHER_SHOP, 3);
    const claimed = await claim("w1", 8, 2);
    const perShop = claimed.reduce<Record<string, number>>(
      (acc, c) => ({ ...acc, [c.shopDomain]: (acc[c.shopDomain] ?? 0) + 1 }),
      {},
    );
    expect(perShop).toEqual({ [SHOP]: 2, [OTHER_SHOP]: 2 });
    // The share counts live leases of every worker.
    expect(await claim("w2", 8, 2)).toEqual([]);
  });

  it("a shop with a row in flight yields the next slot to a shop with none, even one whose orders came later", async () => {
    const [busy] = await queue(SHOP, 5, new Date(now.getTime() - 60_000));
    const [later] = await queue(OTHER_SHOP, 1);
    await prisma.invoice.update({
      where: { id: busy.id },
      data: { state: "sending", leaseOwner: "w0", leaseUntil: new Date(now.getTime() + 60_000) },
    });
    // SHOP has a row in flight: OTHER_SHOP's newer order goes before SHOP's older ones.
    expect((await claim("w1", 1, 2)).map((c) => c.id)).toEqual([later.id]);
  });

  it("two workers claiming at once never get the same row", async () => {
    await queue(SHOP, 6);
    await queue(OTHER_SHOP, 6);
    const [a, b] = await Promise.all([claim("w1", 6, 6), claim("w2", 6, 6)]);
    const ids = [...a, ...b].map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(0);
    const leased = await prisma.invoice.findMany({ where: { id: { in: ids } } });
    for (const row of leased) expect([...a, ...b].find((c) => c.id === row.id)!.leaseOwner).toBe(row.leaseOwner);
  });

  it("takes over a row whose lease expired (a worker died), not one whose lease is live", async () => {
    const [row] = await queue(SHOP, 1);
    expect(await claim("dead-worker")).toHaveLength(1);
    expect(await claim("w2", 8, 2, new Date(now.getTime() + 30_000))).toEqual([]);
    const later = await claim("w2", 8, 2, new Date(now.getTime() + 61_000));
    expect(later.map((c) => c.id)).toEqual([row.id]);
    expect((await prisma.invoice.findUniqueOrThrow({ where: { id: row.id } })).leaseOwner).toBe("w2");
  });

  describe("live orders before past orders", () => {
    const PAST = 1;
    const earlier = new Date(now.getTime() - 3_600_000);

    it("claims a shop's live orders before its past orders, even when the past ones have waited longer", async () => {
      const past = await queue(SHOP, 5, earlier, PAST);
      const live = await queue(SHOP, 2);
      const first = await claim("w1", 8, 2);
      expect(first.map((c) => c.id)).toEqual(live.map((row) => row.id));
      // The live rows hold the shop's share: no past row goes with them.
      expect(await claim("w2", 8, 2)).toEqual([]);
      // Once they are done, the past rows follow, oldest first.
      await prisma.invoice.updateMany({
        where: { id: { in: live.map((row) => row.id) } },
        data: { state: "completed", nextAttemptAt: null, leaseUntil: null, leaseOwner: null },
      });
      const next = await claim("w3", 8, 2);
      expect(next.map((c) => c.id)).toEqual(past.slice(0, 2).map((row) => row.id));
    });

    it("fills the slots live rows leave with past rows, one live row ahead", async () => {
      const past = await queue(SHOP, 5, earlier, PAST);
      const [live] = await queue(SHOP, 1);
      const claimed = await claim("w1", 8, 3);
      expect(claimed.map((c) => c.id)).toEqual([live.id, past[0].id, past[1].id]);
    });

    it("claims another shop's live order before a shop's older past orders", async () => {
      await queue(SHOP, 4, earlier, PAST);
      const [live] = await queue(OTHER_SHOP, 1);
      const [first] = await claim("w1", 1, 2);
      expect(first).toMatchObject({ id: live.id, shopDomain: OTHER_SHOP });
    });

    it("two workers racing over past and live rows never share a row and take every live row first", async () => {
      await queue(SHOP, 6, earlier, PAST);
      const live = await queue(OTHER_SHOP, 2);
      const [a, b] = await Promise.all([claim("w1", 3, 4), claim("w2", 3, 4)]);
      const ids = [...a, ...b].map((c) => c.id);
      expect(new Set(ids).size).toBe(ids.length);
      const leasedLive = await prisma.invoice.count({
        where: { id: { in: live.map((row) => row.id) }, leaseOwner: { not: null } },
      });
      expect(leasedLive).toBe(2);
    });
  });

  it("renews and releases only the leases its worker holds (the heartbeat, and rows whose job's end was lost)", async () => {
    const rows = await queue(SHOP, 2);
    const [mine, theirs] = [rows[0].id, rows[1].id];
    await prisma.invoice.update({
      where: { id: mine },
      data: { state: "sending", leaseOwner: "w1", leaseUntil: new Date(now.getTime() + 10_000) },
    });
    await prisma.invoice.update({
      where: { id: theirs },
      data: { state: "sending", leaseOwner: "w2", leaseUntil: new Date(now.getTime() + 10_000) },
    });
    const later = new Date(now.getTime() + 30_000);
    expect(await hot().renewLeases("w1", [mine, theirs], later)).toEqual([mine]);
    expect((await prisma.invoice.findUniqueOrThrow({ where: { id: mine } })).leaseUntil!.getTime()).toBe(
      later.getTime(),
    );
    expect((await prisma.invoice.findUniqueOrThrow({ where: { id: theirs } })).leaseUntil!.getTime()).toBe(
      now.getTime() + 10_000,
    );

    expect(await hot().releaseLeases("w1", [mine, theirs])).toBe(1);
    expect(await prisma.invoice.findUniqueOrThrow({ where: { id: mine } })).toMatchObject({
      leaseOwner: null,
      leaseUntil: null,
    });
    expect(await prisma.invoice.findUniqueOrThrow({ where: { id: theirs } })).toMatchObject({ leaseOwner: "w2" });
    // Released, the row is due again at once: the next claim takes it.
    expect((await claim("w3", 8, 2)).map((c) => c.id)).toEqual([mine]);
  });

  it.skipIf(!(process.env.DATABASE_URL ?? "").startsWith("postgres"))(
    "a row another worker is locking is skipped and the next one is taken instead, so the claim still fills its slots",
    async () => {
      // The shop's oldest row would be picked first; another worker's claim holds its lock right now.
      const [oldest, next] = await queue(SHOP, 2);
      const claimed = await prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT "id" FROM "Invoice" WHERE "id" = ${oldest.id} FOR UPDATE`;
        return claim("w1", 1, 2);
      });
      expect(claimed.map((c) => c.id)).toEqual([next.id]);
    },
  );
});
