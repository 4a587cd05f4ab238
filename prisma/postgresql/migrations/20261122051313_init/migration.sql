-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "isOnline" BOOLEAN NOT NULL DEFAULT false,
    "scope" TEXT,
    "expires" TIMESTAMP(3),
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
    "refreshTokenExpires" TIMESTAMP(3),

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Shop" (
    "domain" TEXT NOT NULL,
    "name" TEXT,
    "email" TEXT,
    "currency" TEXT NOT NULL DEFAULT 'TRY',
    "timezone" TEXT NOT NULL DEFAULT 'Europe/Istanbul',
    "storefrontUrl" TEXT,
    "installedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uninstalledAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Shop_pkey" PRIMARY KEY ("domain")
);

-- CreateTable
CREATE TABLE "ShopSettings" (
    "shopDomain" TEXT NOT NULL,
    "baseUrl" TEXT NOT NULL DEFAULT 'https://app.faturaentegrator.com/api',
    "apiKeyEncrypted" TEXT,
    "invoiceIntegrationId" INTEGER,
    "saleChannelId" INTEGER,
    "testMode" BOOLEAN NOT NULL DEFAULT true,
    "dummyIntegrationId" INTEGER,
    "trigger" TEXT NOT NULL DEFAULT 'paid',
    "mapping" JSONB,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShopSettings_pkey" PRIMARY KEY ("shopDomain")
);

-- CreateTable
CREATE TABLE "Invoice" (
    "id" TEXT NOT NULL,
    "shopDomain" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "orderCreatedAt" TIMESTAMP(3) NOT NULL,
    "customerId" TEXT,
    "customerName" TEXT,
    "orderTotal" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "orderSnapshot" JSONB NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3),
    "leaseOwner" TEXT,
    "leaseUntil" TIMESTAMP(3),
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Invoice_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "InvoiceEvent" (
    "id" TEXT NOT NULL,
    "invoiceId" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "type" TEXT NOT NULL,
    "message" TEXT,
    "data" JSONB,

    CONSTRAINT "InvoiceEvent_pkey" PRIMARY KEY ("id")
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

-- AddForeignKey
ALTER TABLE "ShopSettings" ADD CONSTRAINT "ShopSettings_shopDomain_fkey" FOREIGN KEY ("shopDomain") REFERENCES "Shop"("domain") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invoice" ADD CONSTRAINT "Invoice_shopDomain_fkey" FOREIGN KEY ("shopDomain") REFERENCES "Shop"("domain") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InvoiceEvent" ADD CONSTRAINT "InvoiceEvent_invoiceId_fkey" FOREIGN KEY ("invoiceId") REFERENCES "Invoice"("id") ON DELETE CASCADE ON UPDATE CASCADE;

