-- AlterTable
ALTER TABLE "Invoice" ADD COLUMN "panelCancelConfirmedAt" DATETIME;

-- CreateTable
CREATE TABLE "Refund" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopDomain" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "refundId" TEXT NOT NULL,
    "refundedAt" DATETIME NOT NULL,
    "currency" TEXT NOT NULL,
    "lineItems" JSONB NOT NULL,
    "hasLineItems" BOOLEAN NOT NULL,
    "shipping" TEXT NOT NULL,
    "amount" TEXT NOT NULL,
    "giftCardAmount" TEXT NOT NULL DEFAULT '0.00',
    "restock" BOOLEAN NOT NULL,
    "handling" TEXT,
    "handledAt" DATETIME,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Refund_shopDomain_fkey" FOREIGN KEY ("shopDomain") REFERENCES "Shop" ("domain") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "OrderEdit" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopDomain" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "editId" TEXT NOT NULL,
    "committedAt" DATETIME NOT NULL,
    "readAt" DATETIME,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "OrderEdit_shopDomain_fkey" FOREIGN KEY ("shopDomain") REFERENCES "Shop" ("domain") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Refund_shopDomain_orderId_idx" ON "Refund"("shopDomain", "orderId");

-- CreateIndex
CREATE INDEX "Refund_shopDomain_refundedAt_idx" ON "Refund"("shopDomain", "refundedAt");

-- CreateIndex
CREATE UNIQUE INDEX "Refund_shopDomain_refundId_key" ON "Refund"("shopDomain", "refundId");

-- CreateIndex
CREATE INDEX "OrderEdit_shopDomain_orderId_idx" ON "OrderEdit"("shopDomain", "orderId");

-- CreateIndex
CREATE UNIQUE INDEX "OrderEdit_shopDomain_editId_key" ON "OrderEdit"("shopDomain", "editId");

