-- CreateIndex
CREATE INDEX "Invoice_shopDomain_priority_nextAttemptAt_id_idx" ON "Invoice"("shopDomain", "priority", "nextAttemptAt", "id");

