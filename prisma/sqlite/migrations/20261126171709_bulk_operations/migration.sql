-- AlterTable
ALTER TABLE "BackfillRun" ADD COLUMN "bulkOperationId" TEXT;
ALTER TABLE "BackfillRun" ADD COLUMN "mode" TEXT;

-- CreateTable
CREATE TABLE "BulkOperation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopDomain" TEXT NOT NULL,
    "operationId" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "runId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'CREATED',
    "errorCode" TEXT,
    "objectCount" INTEGER NOT NULL DEFAULT 0,
    "nextPollAt" DATETIME,
    "polls" INTEGER NOT NULL DEFAULT 0,
    "downloads" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    CONSTRAINT "BulkOperation_shopDomain_fkey" FOREIGN KEY ("shopDomain") REFERENCES "Shop" ("domain") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "BulkOperation_shopDomain_status_idx" ON "BulkOperation"("shopDomain", "status");

-- CreateIndex
CREATE UNIQUE INDEX "BulkOperation_shopDomain_operationId_key" ON "BulkOperation"("shopDomain", "operationId");

