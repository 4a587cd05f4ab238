-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN     "teamId" INTEGER;

-- AlterTable
ALTER TABLE "Invoice" ADD COLUMN     "invoiceIntegrationId" INTEGER,
ADD COLUMN     "postedInTestMode" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "saleChannelId" INTEGER;

-- AlterTable
ALTER TABLE "InvoiceEvent" ADD COLUMN     "dedupeKey" TEXT;

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "shopDomain" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "webhookId" TEXT,
    "result" TEXT,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebhookDelivery_receivedAt_idx" ON "WebhookDelivery"("receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_shopDomain_topic_eventId_key" ON "WebhookDelivery"("shopDomain", "topic", "eventId");

-- CreateIndex
CREATE INDEX "Invoice_shopDomain_postedInTestMode_state_idx" ON "Invoice"("shopDomain", "postedInTestMode", "state");

-- CreateIndex
CREATE UNIQUE INDEX "InvoiceEvent_dedupeKey_key" ON "InvoiceEvent"("dedupeKey");

