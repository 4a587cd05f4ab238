-- AlterTable
ALTER TABLE "BackfillRun" ADD COLUMN "listedAllAt" DATETIME;

