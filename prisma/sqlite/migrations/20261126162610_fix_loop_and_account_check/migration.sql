-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN "accountProblem" TEXT;

-- AlterTable (written by hand: Prisma's diff copies the whole table; new columns at the end need no copy)
ALTER TABLE "Invoice" ADD COLUMN "refreshOrder" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Invoice" ADD COLUMN "buyerOverride" JSONB;
ALTER TABLE "Invoice" ADD COLUMN "closure" JSONB;
