-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "isOnline" BOOLEAN NOT NULL DEFAULT false,
    "scope" TEXT,
    "expires" DATETIME,
    "accessToken" TEXT NOT NULL,
    "userId" BIGINT,
    "firstName" TEXT,
    "lastName" TEXT,
    "email" TEXT,
    "accountOwner" BOOLEAN NOT NULL DEFAULT false,
    "locale" TEXT,
    "collaborator" BOOLEAN DEFAULT false,
    "emailVerified" BOOLEAN DEFAULT false,
    "refreshToken" TEXT,
    "refreshTokenExpires" DATETIME
);

-- CreateTable
CREATE TABLE "Shop" (
    "domain" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT,
    "email" TEXT,
    "currency" TEXT NOT NULL DEFAULT 'TRY',
    "timezone" TEXT NOT NULL DEFAULT 'Europe/Istanbul',
    "storefrontUrl" TEXT,
    "installedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uninstalledAt" DATETIME,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ShopSettings" (
    "shopDomain" TEXT NOT NULL PRIMARY KEY,
    "baseUrl" TEXT NOT NULL DEFAULT 'https://app.faturaentegrator.com/api',
    "apiKeyEncrypted" TEXT,
    "invoiceIntegrationId" INTEGER,
    "saleChannelId" INTEGER,
    "testMode" BOOLEAN NOT NULL DEFAULT true,
    "dummyIntegrationId" INTEGER,
    "trigger" TEXT NOT NULL DEFAULT 'paid',
    "mapping" JSONB,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ShopSettings_shopDomain_fkey" FOREIGN KEY ("shopDomain") REFERENCES "Shop" ("domain") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Invoice" (
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Invoice_shopDomain_fkey" FOREIGN KEY ("shopDomain") REFERENCES "Shop" ("domain") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "InvoiceEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "invoiceId" TEXT NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "type" TEXT NOT NULL,
    "message" TEXT,
    "data" JSONB,
    CONSTRAINT "InvoiceEvent_invoiceId_fkey" FOREIGN KEY ("invoiceId") REFERENCES "Invoice" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Session_shop_idx" ON "Session"("shop");

-- CreateIndex
CREATE INDEX "Invoice_state_nextAttemptAt_idx" ON "Invoice"("state", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "Invoice_shopDomain_createdAt_idx" ON "Invoice"("shopDomain", "createdAt");

-- CreateIndex
CREATE INDEX "Invoice_shopDomain_state_createdAt_idx" ON "Invoice"("shopDomain", "state", "createdAt");

-- CreateIndex
CREATE INDEX "Invoice_remoteId_idx" ON "Invoice"("remoteId");

-- CreateIndex
CREATE UNIQUE INDEX "Invoice_shopDomain_orderId_key" ON "Invoice"("shopDomain", "orderId");

-- CreateIndex
CREATE INDEX "InvoiceEvent_invoiceId_at_idx" ON "InvoiceEvent"("invoiceId", "at");

