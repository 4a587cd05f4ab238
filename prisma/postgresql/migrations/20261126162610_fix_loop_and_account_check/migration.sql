-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN     "accountProblem" TEXT;

-- AlterTable
ALTER TABLE "Invoice" ADD COLUMN     "buyerOverride" JSONB,
ADD COLUMN     "closure" JSONB,
ADD COLUMN     "refreshOrder" BOOLEAN NOT NULL DEFAULT false;

