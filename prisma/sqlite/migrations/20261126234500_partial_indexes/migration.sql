-- Partial indexes (hand-written: Prisma 6's schema cannot express them). Three Invoice columns are NULL when a row
-- is inserted (an order just received has no remote invoice, no lease, and, live, no past-orders run), and every
-- query that reads them through these indexes compares them with a value, which implies IS NOT NULL: indexing only
-- the rows that have one keeps them off the webhook's insert. test/db/migrations.test.ts checks they stay partial.
DROP INDEX "Invoice_remoteId_idx";
CREATE INDEX "Invoice_remoteId_idx" ON "Invoice"("remoteId") WHERE "remoteId" IS NOT NULL;
DROP INDEX "Invoice_leaseUntil_idx";
CREATE INDEX "Invoice_leaseUntil_idx" ON "Invoice"("leaseUntil") WHERE "leaseUntil" IS NOT NULL;
DROP INDEX "Invoice_backfillId_state_idx";
CREATE INDEX "Invoice_backfillId_state_idx" ON "Invoice"("backfillId", "state") WHERE "backfillId" IS NOT NULL;
