-- AlterTable
ALTER TABLE "AccountantPackage" ADD COLUMN     "csvDecimal" TEXT;
