-- AlterTable
ALTER TABLE "Invoice" ADD COLUMN     "isTest" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "Invoice_nextAttemptAt_idx" ON "Invoice"("nextAttemptAt");

-- CreateIndex
CREATE INDEX "Invoice_leaseUntil_idx" ON "Invoice"("leaseUntil");

