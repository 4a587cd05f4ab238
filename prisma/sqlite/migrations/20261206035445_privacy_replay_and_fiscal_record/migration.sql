-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "redactRequestedAt" DATETIME;

-- AlterTable
ALTER TABLE "Invoice" ADD COLUMN "fiscalRecord" JSONB;

-- CreateTable
CREATE TABLE "PrivacyRequest" (
    "shopDomain" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "bodyHash" TEXT NOT NULL,
    "firstReceivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("shopDomain", "topic", "bodyHash")
);
