-- CreateTable
CREATE TABLE "Reconciliation" (
    "shopDomain" TEXT NOT NULL PRIMARY KEY,
    "watermark" DATETIME,
    "leaseOwner" TEXT,
    "leaseUntil" DATETIME,
    "requestedAt" DATETIME,
    "lastRunAt" DATETIME,
    "lastResult" JSONB,
    "lastError" TEXT,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Reconciliation_shopDomain_fkey" FOREIGN KEY ("shopDomain") REFERENCES "Shop" ("domain") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "BackfillRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopDomain" TEXT NOT NULL,
    "fromDate" DATETIME NOT NULL,
    "toDate" DATETIME NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'counting',
    "cursor" TEXT,
    "plan" JSONB,
    "listed" INTEGER NOT NULL DEFAULT 0,
    "recorded" INTEGER NOT NULL DEFAULT 0,
    "existing" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "leaseOwner" TEXT,
    "leaseUntil" DATETIME,
    "lastError" TEXT,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "BackfillRun_shopDomain_fkey" FOREIGN KEY ("shopDomain") REFERENCES "Shop" ("domain") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Invoice" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopDomain" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "orderCreatedAt" DATETIME NOT NULL,
    "customerId" TEXT,
    "customerName" TEXT,
    "orderTotal" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "orderSnapshot" JSONB NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME,
    "leaseOwner" TEXT,
    "leaseUntil" DATETIME,
    "remoteId" INTEGER,
    "workflowStatus" TEXT,
    "formalStatus" TEXT,
    "documentKind" TEXT,
    "ettn" TEXT,
    "serialNumber" TEXT,
    "pdfUrl" TEXT,
    "requestBody" JSONB,
    "remoteTotals" JSONB,
    "problems" JSONB,
    "lastError" TEXT,
    "syncAttempts" INTEGER NOT NULL DEFAULT 0,
    "cancelledInShop" BOOLEAN NOT NULL DEFAULT false,
    "isTest" BOOLEAN NOT NULL DEFAULT false,
    "saleChannelId" INTEGER,
    "invoiceIntegrationId" INTEGER,
    "postedInTestMode" BOOLEAN NOT NULL DEFAULT false,
    "waybillId" INTEGER,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "backfillId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Invoice_shopDomain_fkey" FOREIGN KEY ("shopDomain") REFERENCES "Shop" ("domain") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Invoice_backfillId_fkey" FOREIGN KEY ("backfillId") REFERENCES "BackfillRun" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Invoice" ("attempts", "cancelledInShop", "createdAt", "currency", "customerId", "customerName", "documentKind", "ettn", "formalStatus", "id", "invoiceIntegrationId", "isTest", "lastError", "leaseOwner", "leaseUntil", "nextAttemptAt", "orderCreatedAt", "orderId", "orderName", "orderSnapshot", "orderTotal", "pdfUrl", "postedInTestMode", "problems", "remoteId", "remoteTotals", "requestBody", "saleChannelId", "serialNumber", "shopDomain", "state", "syncAttempts", "updatedAt", "waybillId", "workflowStatus") SELECT "attempts", "cancelledInShop", "createdAt", "currency", "customerId", "customerName", "documentKind", "ettn", "formalStatus", "id", "invoiceIntegrationId", "isTest", "lastError", "leaseOwner", "leaseUntil", "nextAttemptAt", "orderCreatedAt", "orderId", "orderName", "orderSnapshot", "orderTotal", "pdfUrl", "postedInTestMode", "problems", "remoteId", "remoteTotals", "requestBody", "saleChannelId", "serialNumber", "shopDomain", "state", "syncAttempts", "updatedAt", "waybillId", "workflowStatus" FROM "Invoice";
DROP TABLE "Invoice";
ALTER TABLE "new_Invoice" RENAME TO "Invoice";
CREATE INDEX "Invoice_state_nextAttemptAt_idx" ON "Invoice"("state", "nextAttemptAt");
CREATE INDEX "Invoice_shopDomain_createdAt_id_orderName_serialNumber_customerName_idx" ON "Invoice"("shopDomain", "createdAt", "id", "orderName", "serialNumber", "customerName");
CREATE INDEX "Invoice_shopDomain_state_createdAt_idx" ON "Invoice"("shopDomain", "state", "createdAt");
CREATE INDEX "Invoice_shopDomain_orderName_idx" ON "Invoice"("shopDomain", "orderName");
CREATE INDEX "Invoice_shopDomain_serialNumber_idx" ON "Invoice"("shopDomain", "serialNumber");
CREATE INDEX "Invoice_shopDomain_isTest_createdAt_idx" ON "Invoice"("shopDomain", "isTest", "createdAt");
CREATE INDEX "Invoice_shopDomain_postedInTestMode_state_idx" ON "Invoice"("shopDomain", "postedInTestMode", "state");
CREATE INDEX "Invoice_remoteId_idx" ON "Invoice"("remoteId");
CREATE INDEX "Invoice_nextAttemptAt_idx" ON "Invoice"("nextAttemptAt");
CREATE INDEX "Invoice_priority_nextAttemptAt_idx" ON "Invoice"("priority", "nextAttemptAt");
CREATE INDEX "Invoice_backfillId_state_idx" ON "Invoice"("backfillId", "state");
CREATE INDEX "Invoice_leaseUntil_idx" ON "Invoice"("leaseUntil");
CREATE UNIQUE INDEX "Invoice_shopDomain_orderId_key" ON "Invoice"("shopDomain", "orderId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "BackfillRun_shopDomain_createdAt_idx" ON "BackfillRun"("shopDomain", "createdAt");

-- CreateIndex
CREATE INDEX "BackfillRun_state_idx" ON "BackfillRun"("state");

