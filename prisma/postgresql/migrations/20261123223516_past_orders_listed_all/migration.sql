-- AlterTable
ALTER TABLE "BackfillRun" ADD COLUMN     "listedAllAt" TIMESTAMP(3);

