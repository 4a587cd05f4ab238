-- CreateTable
CREATE TABLE "ThrottleBucket" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "tokens" REAL NOT NULL,
    "at" REAL NOT NULL,
    "refused" INTEGER NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "InvoicePdf" (
    "invoiceId" TEXT NOT NULL PRIMARY KEY,
    "shopDomain" TEXT NOT NULL,
    "bytes" BLOB NOT NULL,
    "fetchedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "InvoicePdf_invoiceId_fkey" FOREIGN KEY ("invoiceId") REFERENCES "Invoice" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ThrottleBucket_at_idx" ON "ThrottleBucket"("at");

-- CreateIndex
CREATE INDEX "InvoicePdf_shopDomain_idx" ON "InvoicePdf"("shopDomain");
