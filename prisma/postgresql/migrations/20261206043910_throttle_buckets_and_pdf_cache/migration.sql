-- CreateTable
CREATE TABLE "ThrottleBucket" (
    "key" TEXT NOT NULL,
    "tokens" DOUBLE PRECISION NOT NULL,
    "at" DOUBLE PRECISION NOT NULL,
    "refused" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ThrottleBucket_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "InvoicePdf" (
    "invoiceId" TEXT NOT NULL,
    "shopDomain" TEXT NOT NULL,
    "bytes" BYTEA NOT NULL,
    "fetchedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "InvoicePdf_pkey" PRIMARY KEY ("invoiceId")
);

-- CreateIndex
CREATE INDEX "ThrottleBucket_at_idx" ON "ThrottleBucket"("at");

-- CreateIndex
CREATE INDEX "InvoicePdf_shopDomain_idx" ON "InvoicePdf"("shopDomain");

-- AddForeignKey
ALTER TABLE "InvoicePdf" ADD CONSTRAINT "InvoicePdf_invoiceId_fkey" FOREIGN KEY ("invoiceId") REFERENCES "Invoice"("id") ON DELETE CASCADE ON UPDATE CASCADE;
