-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "redactRequestedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Invoice" ADD COLUMN     "fiscalRecord" JSONB;

-- CreateTable
CREATE TABLE "PrivacyRequest" (
    "shopDomain" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "bodyHash" TEXT NOT NULL,
    "firstReceivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PrivacyRequest_pkey" PRIMARY KEY ("shopDomain","topic","bodyHash")
);
