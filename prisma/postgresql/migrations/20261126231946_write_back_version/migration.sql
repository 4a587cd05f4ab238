-- AlterTable
ALTER TABLE "OrderWriteBack" ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 0;

