// The pipeline's hot statements through Prisma's client: every statement of HotStatements that no measurement showed
// to need hand-written SQL (docs/decisions/0041-hand-written-sql-after-prisma-7.md). The dialect classes
// (hot-sqlite.server.ts, hot-postgres.server.ts) take over only the statements that are kept as SQL; the benchmark
// (bench/statements.bench.ts --ab) runs each statement both ways.
import type { Db } from "./client";
import { dbNullFor } from "./client";
import { providerOf } from "./provider";
import { STATE } from "../invoice-state/transitions";
import type {
  CallbackMark,
  CallbackTarget,
  ClaimedRowRef,
  ClaimRowsOptions,
  DeliveryKey,
  FinishJob,
  HotStatements,
  InvoiceValues,
  JobRow,
  NewEvent,
  RefundRow,
} from "./hot-statements";

type KnownError = { code?: string; meta?: { modelName?: string; target?: unknown } };
const prismaCode = (error: unknown) => (error as KnownError | null)?.code ?? "";

/** Which model a unique-key violation (P2002) was on (Prisma 7's driver adapters name it in `meta.modelName`). */
const violatedModel = (error: unknown) => (error as KnownError | null)?.meta?.modelName;

const freeLease = (now: Date) => ({ OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] });

export class PrismaStatements implements HotStatements {
  private readonly dbNull: unknown;
  private readonly postgres: boolean;

  constructor(
    private readonly db: Db,
    databaseUrl: string,
  ) {
    this.dbNull = dbNullFor(databaseUrl);
    this.postgres = providerOf(databaseUrl) === "postgresql";
  }

  /** A caller's Prisma.DbNull is the SQLite client's; each client knows only its own (the other's is written as {}). */
  private values(values: InvoiceValues): object {
    const out: InvoiceValues = {};
    for (const [column, value] of Object.entries(values)) {
      out[column] = (value as { _getName?: () => string } | null)?._getName?.() === "DbNull" ? this.dbNull : value;
    }
    return out;
  }

  private static events(events: NewEvent[]) {
    return events.map((event) => ({
      at: event.at,
      type: event.type,
      message: event.message ?? null,
      data: (event.data ?? undefined) as never,
      dedupeKey: event.dedupeKey ?? null,
    }));
  }

  async recordDelivery(key: DeliveryKey, webhookId: string | null): Promise<boolean> {
    try {
      await this.db.webhookDelivery.create({
        data: { ...key, webhookId, result: "processing", receivedAt: new Date() },
        select: { id: true },
      });
      return true;
    } catch (error) {
      if (prismaCode(error) === "P2002") return false;
      throw error;
    }
  }

  async setDeliveryResult(key: DeliveryKey, result: string): Promise<void> {
    await this.db.webhookDelivery.updateMany({ where: key, data: { result } });
  }

  async shopTrigger(shop: string): Promise<{ trigger: string | null } | null> {
    const row = await this.db.shop.findUnique({
      where: { domain: shop },
      select: { settings: { select: { trigger: true } } },
    });
    return row ? { trigger: row.settings?.trigger ?? null } : null;
  }

  async insertInvoice(values: InvoiceValues, events: NewEvent[]): Promise<"created" | "duplicate" | "unknown_shop"> {
    try {
      await this.db.invoice.create({
        data: { ...this.values(values), events: { createMany: { data: PrismaStatements.events(events) } } } as never,
        select: { id: true },
      });
      return "created";
    } catch (error) {
      if (prismaCode(error) === "P2003") return "unknown_shop";
      if (prismaCode(error) === "P2002" && violatedModel(error) !== "InvoiceEvent") return "duplicate";
      throw error;
    }
  }

  claimRows(_options: ClaimRowsOptions): Promise<ClaimedRowRef[]> {
    throw new Error(
      "claimRows has no Prisma form (window functions, LATERAL, FOR UPDATE SKIP LOCKED): hand-written SQL only",
    );
  }

  async claimWriteBacks(
    owner: string,
    now: Date,
    leaseUntil: Date,
    limit: number,
  ): Promise<Array<{ invoiceId: string; shopDomain: string }>> {
    if (limit <= 0) return [];
    const due = { nextAttemptAt: { lte: now }, ...freeLease(now) };
    const picked = await this.db.orderWriteBack.findMany({
      where: due,
      orderBy: { nextAttemptAt: "asc" },
      take: limit,
      select: { invoiceId: true },
    });
    if (picked.length === 0) return [];
    // The update checks the due condition again: a row another worker leased since the read is left out.
    return this.db.orderWriteBack.updateManyAndReturn({
      where: { invoiceId: { in: picked.map((row) => row.invoiceId) }, ...due },
      data: { leaseOwner: owner, leaseUntil, updatedAt: new Date() },
      select: { invoiceId: true, shopDomain: true },
    });
  }

  async nextDue(): Promise<Date | null> {
    const [invoice, writeBack] = await Promise.all([
      this.db.invoice.findFirst({
        where: { nextAttemptAt: { not: null } },
        orderBy: { nextAttemptAt: "asc" },
        select: { nextAttemptAt: true, leaseUntil: true },
      }),
      this.db.orderWriteBack.aggregate({ _min: { nextAttemptAt: true } }),
    ]);
    const invoiceDue =
      invoice &&
      (invoice.leaseUntil && invoice.leaseUntil > invoice.nextAttemptAt! ? invoice.leaseUntil : invoice.nextAttemptAt);
    const dates = [invoiceDue, writeBack._min.nextAttemptAt].filter((date): date is Date => date instanceof Date);
    return dates.length ? dates.reduce((a, b) => (a < b ? a : b)) : null;
  }

  async jobRow(id: string): Promise<JobRow | null> {
    const row = await this.db.invoice.findUnique({ where: { id }, include: { shop: { include: { settings: true } } } });
    if (!row) return null;
    const [edit, session] = await Promise.all([
      this.db.orderEdit.findFirst({
        where: { shopDomain: row.shopDomain, orderId: row.orderId, readAt: null },
        select: { id: true },
      }),
      this.db.session.findFirst({ where: { shop: row.shopDomain, isOnline: false }, select: { scope: true } }),
    ]);
    return { row, unreadEdits: edit !== null, offlineScope: session?.scope ?? null };
  }

  refundsOf(shop: string, orderId: string): Promise<RefundRow[]> {
    return this.db.refund.findMany({
      where: { shopDomain: shop, orderId },
      orderBy: [{ refundedAt: "asc" }, { id: "asc" }],
    });
  }

  async finishJob(job: FinishJob): Promise<{ stored: boolean; rereadNow: boolean }> {
    return this.db.$transaction(async (tx) => {
      const { count } = await tx.invoice.updateMany({
        where: { id: job.id, leaseOwner: job.owner },
        data: { ...this.values(job.values), leaseOwner: null, leaseUntil: null },
      });
      if (count !== 1) return { stored: false, rereadNow: false };
      const now = new Date();
      // Each refund once, with the first handling named for it.
      const handled = new Set<string>();
      for (const { ids, handling } of job.refunds) {
        const fresh = ids.filter((id) => !handled.has(id));
        fresh.forEach((id) => handled.add(id));
        if (fresh.length)
          await tx.refund.updateMany({
            where: { shopDomain: job.shopDomain, refundId: { in: fresh }, handling: null },
            data: { handling, handledAt: now },
          });
      }
      if (job.events.length)
        await tx.invoiceEvent.createMany({
          data: PrismaStatements.events(job.events).map((event) => ({ ...event, invoiceId: job.id })),
        });
      if (job.writeBack) {
        const session = await tx.session.findFirst({
          where: { shop: job.shopDomain, isOnline: false },
          select: { scope: true },
        });
        const start = job.writeBack(session?.scope ?? null);
        await tx.orderWriteBack.upsert({
          where: { invoiceId: job.id },
          create: { invoiceId: job.id, shopDomain: job.shopDomain, attempts: 0, ...start },
          update: { ...start, attempts: 0, version: { increment: 1 } },
        });
      }
      if (job.teamId !== null)
        await tx.shopSettings.updateMany({
          where: { shopDomain: job.shopDomain, teamId: null },
          data: { teamId: job.teamId },
        });
      let rereadNow = false;
      if (job.callbacksSince) {
        const reread = await tx.invoice.updateMany({
          where: { id: job.id, events: { some: { type: "callback", at: { gte: job.callbacksSince } } } },
          data: { nextAttemptAt: new Date() },
        });
        rereadNow = reread.count === 1;
      }
      return { stored: true, rereadNow };
    });
  }

  async renewLeases(owner: string, ids: string[], until: Date): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.invoice.updateManyAndReturn({
      where: { id: { in: ids }, leaseOwner: owner },
      data: { leaseUntil: until },
      select: { id: true },
    });
    return rows.map((row) => row.id);
  }

  async releaseLeases(owner: string, ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    return (
      await this.db.invoice.updateMany({
        where: { id: { in: ids }, leaseOwner: owner },
        data: { leaseOwner: null, leaseUntil: null },
      })
    ).count;
  }

  async updateLeased(
    id: string,
    owner: string,
    values: InvoiceValues,
    options?: { incrementAttempts?: boolean },
  ): Promise<boolean> {
    const data = { ...this.values(values), ...(options?.incrementAttempts ? { attempts: { increment: 1 } } : {}) };
    return (await this.db.invoice.updateMany({ where: { id, leaseOwner: owner }, data })).count === 1;
  }

  async callbackTarget(invoiceId: string): Promise<CallbackTarget | null> {
    const row = await this.db.invoice.findUnique({
      where: { id: invoiceId },
      select: {
        id: true,
        shopDomain: true,
        shop: { select: { settings: { select: { teamId: true, apiKeyEncrypted: true } } } },
      },
    });
    return (
      row && {
        id: row.id,
        shopDomain: row.shopDomain,
        teamId: row.shop.settings?.teamId ?? null,
        apiKeyEncrypted: row.shop.settings?.apiKeyEncrypted ?? null,
      }
    );
  }

  async markCallback(
    invoiceId: string,
    remoteId: number,
    event: NewEvent,
    readAt: Date,
    now: Date,
  ): Promise<CallbackMark> {
    try {
      return await this.db.$transaction(async (tx) => {
        // The row due for a read at `readAt` unless one is due sooner; then whether the row is this callback's at all.
        const sooner = await tx.invoice.updateMany({
          where: { id: invoiceId, remoteId, OR: [{ nextAttemptAt: null }, { nextAttemptAt: { gt: readAt } }] },
          data: { nextAttemptAt: readAt, updatedAt: now },
        });
        const ours = async () =>
          sooner.count === 1 ||
          (await tx.invoice.updateMany({ where: { id: invoiceId, remoteId }, data: { updatedAt: now } })).count === 1;
        let marked = await ours();
        const early =
          !marked &&
          (
            await tx.invoice.updateMany({
              where: { id: invoiceId, remoteId: null, leaseUntil: { gt: now } },
              data: { updatedAt: now },
            })
          ).count === 1;
        // The worker may have stored the remote id between the two updates.
        if (!marked && !early) marked = await ours();
        if (!marked && !early) return "not_found" as const;
        await tx.invoiceEvent.createMany({
          data: PrismaStatements.events([event]).map((row) => ({ ...row, invoiceId })),
        });
        return marked ? ("marked" as const) : ("early" as const);
      });
    } catch (error) {
      if (prismaCode(error) === "P2002") return "duplicate";
      throw error;
    }
  }

  async scheduleRead(invoiceId: string, remoteId: number, readAt: Date): Promise<boolean> {
    const { count } = await this.db.invoice.updateMany({
      where: {
        id: invoiceId,
        remoteId,
        state: STATE.processing,
        OR: [{ nextAttemptAt: null }, { nextAttemptAt: { gt: readAt } }],
      },
      data: { nextAttemptAt: readAt },
    });
    return count === 1;
  }

  /** PostgreSQL: NOTIFY on `channel` (workers in other processes LISTEN), through the client's raw query; SQLite: nothing (one host, polling). */
  async notify(channel: string): Promise<void> {
    if (this.postgres) await this.db.$executeRaw`SELECT pg_notify(${channel}, '')`;
  }

  async close(): Promise<void> {
    // The client is the app's: it closes it.
  }
}
