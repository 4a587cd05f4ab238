// The job row the worker reads once per job (app/db/hot-sql.ts jobRowSql, or Prisma's client): the invoice with its
// shop and settings, and the facts read with it. The hand-written SQL and Prisma's form must say the same: which
// scopes the shop's offline session records (what a B2B order's company read goes by) and whether edits are unread.
import { beforeEach, describe, expect, it } from "vitest";
import { env } from "../../app/env.server";
import { createHotStatements } from "../../app/db/hot.server";
import { freshShopsForEachTest, createInvoiceRow, prisma } from "../helpers/db";
import { OTHER_SHOP, SHOP } from "../helpers/shopify";

freshShopsForEachTest();

const ways = ["sql", "prisma"] as const;
const statements = Object.fromEntries(
  ways.map((via) => [via, createHotStatements(env().DATABASE_URL, prisma, () => via)]),
) as Record<(typeof ways)[number], ReturnType<typeof createHotStatements>>;

describe.each(ways)("the job row, read through %s", (via) => {
  let id: string;
  beforeEach(async () => {
    id = (await createInvoiceRow(SHOP)).id;
  });

  it("carries the scopes of its own shop's offline session, not an online session's nor another shop's", async () => {
    await prisma.session.update({ where: { id: `offline_${SHOP}` }, data: { scope: "read_orders,read_companies" } });
    await prisma.session.update({ where: { id: `offline_${OTHER_SHOP}` }, data: { scope: "read_orders" } });
    await prisma.session.create({
      data: {
        id: `${SHOP}_42`,
        shop: SHOP,
        state: "",
        isOnline: true,
        scope: "read_orders,write_orders",
        accessToken: "shpua_42",
      },
    });
    const read = await statements[via].jobRow(id);
    expect(read?.row.id).toBe(id);
    expect(read?.row.shop.domain).toBe(SHOP);
    expect(read?.offlineScope).toBe("read_orders,read_companies");
    expect(read?.unreadEdits).toBe(false);
  });

  it("says null without an offline session (the shop uninstalled, its sessions deleted)", async () => {
    await prisma.session.deleteMany({ where: { shop: SHOP } });
    const read = await statements[via].jobRow(id);
    expect(read?.row.id).toBe(id);
    expect(read?.offlineScope).toBeNull();
  });

  it("says whether the order has unread edits", async () => {
    const row = await prisma.invoice.findUniqueOrThrow({ where: { id } });
    await prisma.orderEdit.create({
      data: { shopDomain: SHOP, orderId: row.orderId, editId: "1", committedAt: new Date("2026-11-21T10:00:00Z") },
    });
    expect((await statements[via].jobRow(id))?.unreadEdits).toBe(true);
  });
});
