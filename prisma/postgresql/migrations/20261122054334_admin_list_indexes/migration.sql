-- DropIndex
DROP INDEX "Invoice_shopDomain_createdAt_idx";

-- CreateIndex
CREATE INDEX "Invoice_shopDomain_createdAt_id_orderName_serialNumber_cust_idx" ON "Invoice"("shopDomain", "createdAt", "id", "orderName", "serialNumber", "customerName");

-- CreateIndex
CREATE INDEX "Invoice_shopDomain_orderName_idx" ON "Invoice"("shopDomain", "orderName");

-- CreateIndex
CREATE INDEX "Invoice_shopDomain_serialNumber_idx" ON "Invoice"("shopDomain", "serialNumber");

-- CreateIndex
CREATE INDEX "Invoice_shopDomain_isTest_createdAt_idx" ON "Invoice"("shopDomain", "isTest", "createdAt");

