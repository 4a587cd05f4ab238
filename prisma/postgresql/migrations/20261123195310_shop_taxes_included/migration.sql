-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "taxesIncluded" BOOLEAN;

