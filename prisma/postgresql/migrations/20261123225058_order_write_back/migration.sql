-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN     "eArchiveTag" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "eInvoiceTag" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "orderTag" TEXT NOT NULL DEFAULT 'e-fatura';

-- CreateTable
CREATE TABLE "OrderWriteBack" (
    "invoiceId" TEXT NOT NULL,
    "shopDomain" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "written" JSONB,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3),
    "leaseOwner" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "lastError" TEXT,
    "writtenAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OrderWriteBack_pkey" PRIMARY KEY ("invoiceId")
);

-- CreateIndex
CREATE INDEX "OrderWriteBack_nextAttemptAt_idx" ON "OrderWriteBack"("nextAttemptAt");

-- CreateIndex
CREATE INDEX "OrderWriteBack_shopDomain_status_idx" ON "OrderWriteBack"("shopDomain", "status");

-- AddForeignKey
ALTER TABLE "OrderWriteBack" ADD CONSTRAINT "OrderWriteBack_invoiceId_fkey" FOREIGN KEY ("invoiceId") REFERENCES "Invoice"("id") ON DELETE CASCADE ON UPDATE CASCADE;

