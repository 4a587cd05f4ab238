-- AlterTable
ALTER TABLE "BackfillRun" ADD COLUMN     "bulkOperationId" TEXT,
ADD COLUMN     "mode" TEXT;

-- CreateTable
CREATE TABLE "BulkOperation" (
    "id" TEXT NOT NULL,
    "shopDomain" TEXT NOT NULL,
    "operationId" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "runId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'CREATED',
    "errorCode" TEXT,
    "objectCount" INTEGER NOT NULL DEFAULT 0,
    "nextPollAt" TIMESTAMP(3),
    "polls" INTEGER NOT NULL DEFAULT 0,
    "downloads" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "BulkOperation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "BulkOperation_shopDomain_status_idx" ON "BulkOperation"("shopDomain", "status");

-- CreateIndex
CREATE UNIQUE INDEX "BulkOperation_shopDomain_operationId_key" ON "BulkOperation"("shopDomain", "operationId");

-- AddForeignKey
ALTER TABLE "BulkOperation" ADD CONSTRAINT "BulkOperation_shopDomain_fkey" FOREIGN KEY ("shopDomain") REFERENCES "Shop"("domain") ON DELETE CASCADE ON UPDATE CASCADE;

