-- AlterTable
ALTER TABLE "Invoice" ADD COLUMN "pdfLinkVersion" INTEGER DEFAULT 1;

