-- CreateTable
CREATE TABLE "OrderWriteBack" (
    "invoiceId" TEXT NOT NULL PRIMARY KEY,
    "shopDomain" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "written" JSONB,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME,
    "leaseOwner" TEXT,
    "leaseUntil" DATETIME,
    "lastError" TEXT,
    "writtenAt" DATETIME,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "OrderWriteBack_invoiceId_fkey" FOREIGN KEY ("invoiceId") REFERENCES "Invoice" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ShopSettings" (
    "shopDomain" TEXT NOT NULL PRIMARY KEY,
    "baseUrl" TEXT NOT NULL DEFAULT 'https://app.faturaentegrator.com/api',
    "apiKeyEncrypted" TEXT,
    "invoiceIntegrationId" INTEGER,
    "saleChannelId" INTEGER,
    "testMode" BOOLEAN NOT NULL DEFAULT true,
    "dummyIntegrationId" INTEGER,
    "teamId" INTEGER,
    "trigger" TEXT NOT NULL DEFAULT 'paid',
    "mapping" JSONB,
    "accountWebhookSecret" TEXT,
    "accountWebhookRegisteredAt" DATETIME,
    "accountWebhookHintAt" DATETIME,
    "orderTag" TEXT NOT NULL DEFAULT 'e-fatura',
    "eArchiveTag" TEXT NOT NULL DEFAULT '',
    "eInvoiceTag" TEXT NOT NULL DEFAULT '',
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ShopSettings_shopDomain_fkey" FOREIGN KEY ("shopDomain") REFERENCES "Shop" ("domain") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ShopSettings" ("accountWebhookHintAt", "accountWebhookRegisteredAt", "accountWebhookSecret", "apiKeyEncrypted", "baseUrl", "dummyIntegrationId", "invoiceIntegrationId", "mapping", "saleChannelId", "shopDomain", "teamId", "testMode", "trigger", "updatedAt") SELECT "accountWebhookHintAt", "accountWebhookRegisteredAt", "accountWebhookSecret", "apiKeyEncrypted", "baseUrl", "dummyIntegrationId", "invoiceIntegrationId", "mapping", "saleChannelId", "shopDomain", "teamId", "testMode", "trigger", "updatedAt" FROM "ShopSettings";
DROP TABLE "ShopSettings";
ALTER TABLE "new_ShopSettings" RENAME TO "ShopSettings";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "OrderWriteBack_nextAttemptAt_idx" ON "OrderWriteBack"("nextAttemptAt");

-- CreateIndex
CREATE INDEX "OrderWriteBack_shopDomain_status_idx" ON "OrderWriteBack"("shopDomain", "status");

