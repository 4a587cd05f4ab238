-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "shopifyConnectionLastLostAt" DATETIME;
ALTER TABLE "Shop" ADD COLUMN "shopifyConnectionLostAt" DATETIME;
ALTER TABLE "Shop" ADD COLUMN "shopifyConnectionLostReason" TEXT;
ALTER TABLE "Shop" ADD COLUMN "shopifyConnectionRestoredAt" DATETIME;
