-- AlterTable
ALTER TABLE "Reconciliation" ADD COLUMN     "bulkOperationId" TEXT,
ADD COLUMN     "bulkSince" TIMESTAMP(3),
ADD COLUMN     "bulkStartedAt" TIMESTAMP(3);

