-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "shopifyConnectionLastLostAt" TIMESTAMP(3),
ADD COLUMN     "shopifyConnectionLostAt" TIMESTAMP(3),
ADD COLUMN     "shopifyConnectionLostReason" TEXT,
ADD COLUMN     "shopifyConnectionRestoredAt" TIMESTAMP(3);
