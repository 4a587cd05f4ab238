-- AlterTable
ALTER TABLE "Reconciliation" ADD COLUMN "bulkOperationId" TEXT;
ALTER TABLE "Reconciliation" ADD COLUMN "bulkSince" DATETIME;
ALTER TABLE "Reconciliation" ADD COLUMN "bulkStartedAt" DATETIME;

