-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN "accountWebhookHintAt" DATETIME;
ALTER TABLE "ShopSettings" ADD COLUMN "accountWebhookRegisteredAt" DATETIME;
ALTER TABLE "ShopSettings" ADD COLUMN "accountWebhookSecret" TEXT;

-- AlterTable
ALTER TABLE "Invoice" ADD COLUMN "waybillId" INTEGER;

