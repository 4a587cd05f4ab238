-- DropIndex
DROP INDEX "Invoice_shopDomain_createdAt_id_orderName_serialNumber_cust_idx";

-- DropIndex
DROP INDEX "Invoice_shopDomain_state_createdAt_idx";

-- AlterTable
ALTER TABLE "Invoice" ADD COLUMN     "customerSearch" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE INDEX "Invoice_shopDomain_orderCreatedAt_id_orderName_serialNumber_idx" ON "Invoice"("shopDomain", "orderCreatedAt", "id", "orderName", "serialNumber", "customerSearch");

-- CreateIndex
CREATE INDEX "Invoice_shopDomain_state_orderCreatedAt_idx" ON "Invoice"("shopDomain", "state", "orderCreatedAt");

-- CreateIndex
CREATE INDEX "Invoice_shopDomain_createdAt_idx" ON "Invoice"("shopDomain", "createdAt");

-- The folded name of the rows already there (app/admin/search.ts foldForSearch writes it from now on): Turkish
-- letters, the punctuation names carry, and case, as far as SQL's REPLACE and LOWER can do it on both databases.
UPDATE "Invoice" SET "customerSearch" = TRIM(LOWER(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE("customerName", 'İ', 'i'), 'I', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ğ', 'g'), 'ğ', 'g'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ç', 'c'), 'ç', 'c'), 'Â', 'a'), 'â', 'a'), 'Î', 'i'), 'î', 'i'), 'Û', 'u'), 'û', 'u'), '.', ' '), ',', ' '), '-', ' '), '''', ' '), '&', ' '), '/', ' '), '(', ' '), ')', ' '), '_', ' '), '%', ' '), '"', ' '), ':', ' '), ';', ' '), '+', ' '), '#', ' '), '!', ' '), '?', ' '), '  ', ' '), '  ', ' '), '  ', ' '))) WHERE "customerName" IS NOT NULL;
