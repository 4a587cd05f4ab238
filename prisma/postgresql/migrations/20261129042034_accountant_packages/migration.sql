-- CreateTable
CREATE TABLE "AccountantPackage" (
    "id" TEXT NOT NULL,
    "shopDomain" TEXT NOT NULL,
    "fromDate" TEXT NOT NULL,
    "toDate" TEXT NOT NULL,
    "locale" TEXT NOT NULL DEFAULT 'tr',
    "state" TEXT NOT NULL DEFAULT 'queued',
    "total" INTEGER NOT NULL DEFAULT 0,
    "pdfDone" INTEGER NOT NULL DEFAULT 0,
    "pdfFailed" INTEGER NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3),
    "leaseOwner" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "lastError" TEXT,
    "fileSize" BIGINT,
    "expiresAt" TIMESTAMP(3),
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AccountantPackage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AccountantPackage_shopDomain_createdAt_idx" ON "AccountantPackage"("shopDomain", "createdAt");

-- CreateIndex
CREATE INDEX "AccountantPackage_state_nextAttemptAt_idx" ON "AccountantPackage"("state", "nextAttemptAt");

-- AddForeignKey
ALTER TABLE "AccountantPackage" ADD CONSTRAINT "AccountantPackage_shopDomain_fkey" FOREIGN KEY ("shopDomain") REFERENCES "Shop"("domain") ON DELETE CASCADE ON UPDATE CASCADE;

