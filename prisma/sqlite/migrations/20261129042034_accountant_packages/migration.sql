-- CreateTable
CREATE TABLE "AccountantPackage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopDomain" TEXT NOT NULL,
    "fromDate" TEXT NOT NULL,
    "toDate" TEXT NOT NULL,
    "locale" TEXT NOT NULL DEFAULT 'tr',
    "state" TEXT NOT NULL DEFAULT 'queued',
    "total" INTEGER NOT NULL DEFAULT 0,
    "pdfDone" INTEGER NOT NULL DEFAULT 0,
    "pdfFailed" INTEGER NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME,
    "leaseOwner" TEXT,
    "leaseUntil" DATETIME,
    "lastError" TEXT,
    "fileSize" BIGINT,
    "expiresAt" DATETIME,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "AccountantPackage_shopDomain_fkey" FOREIGN KEY ("shopDomain") REFERENCES "Shop" ("domain") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "AccountantPackage_shopDomain_createdAt_idx" ON "AccountantPackage"("shopDomain", "createdAt");

-- CreateIndex
CREATE INDEX "AccountantPackage_state_nextAttemptAt_idx" ON "AccountantPackage"("state", "nextAttemptAt");

