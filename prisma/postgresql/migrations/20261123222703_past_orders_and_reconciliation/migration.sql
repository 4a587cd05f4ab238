-- AlterTable
ALTER TABLE "Invoice" ADD COLUMN     "backfillId" TEXT,
ADD COLUMN     "priority" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "Reconciliation" (
    "shopDomain" TEXT NOT NULL,
    "watermark" TIMESTAMP(3),
    "leaseOwner" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "requestedAt" TIMESTAMP(3),
    "lastRunAt" TIMESTAMP(3),
    "lastResult" JSONB,
    "lastError" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Reconciliation_pkey" PRIMARY KEY ("shopDomain")
);

-- CreateTable
CREATE TABLE "BackfillRun" (
    "id" TEXT NOT NULL,
    "shopDomain" TEXT NOT NULL,
    "fromDate" TIMESTAMP(3) NOT NULL,
    "toDate" TIMESTAMP(3) NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'counting',
    "cursor" TEXT,
    "plan" JSONB,
    "listed" INTEGER NOT NULL DEFAULT 0,
    "recorded" INTEGER NOT NULL DEFAULT 0,
    "existing" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "leaseOwner" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "lastError" TEXT,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BackfillRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "BackfillRun_shopDomain_createdAt_idx" ON "BackfillRun"("shopDomain", "createdAt");

-- CreateIndex
CREATE INDEX "BackfillRun_state_idx" ON "BackfillRun"("state");

-- CreateIndex
CREATE INDEX "Invoice_priority_nextAttemptAt_idx" ON "Invoice"("priority", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "Invoice_backfillId_state_idx" ON "Invoice"("backfillId", "state");

-- AddForeignKey
ALTER TABLE "Invoice" ADD CONSTRAINT "Invoice_backfillId_fkey" FOREIGN KEY ("backfillId") REFERENCES "BackfillRun"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Reconciliation" ADD CONSTRAINT "Reconciliation_shopDomain_fkey" FOREIGN KEY ("shopDomain") REFERENCES "Shop"("domain") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BackfillRun" ADD CONSTRAINT "BackfillRun_shopDomain_fkey" FOREIGN KEY ("shopDomain") REFERENCES "Shop"("domain") ON DELETE CASCADE ON UPDATE CASCADE;

