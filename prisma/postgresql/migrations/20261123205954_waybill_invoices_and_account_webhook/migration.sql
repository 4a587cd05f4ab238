-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN     "accountWebhookHintAt" TIMESTAMP(3),
ADD COLUMN     "accountWebhookRegisteredAt" TIMESTAMP(3),
ADD COLUMN     "accountWebhookSecret" TEXT;

-- AlterTable
ALTER TABLE "Invoice" ADD COLUMN     "waybillId" INTEGER;

