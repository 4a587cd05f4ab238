-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_OrderWriteBack" (
    "invoiceId" TEXT NOT NULL PRIMARY KEY,
    "shopDomain" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "written" JSONB,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME,
    "leaseOwner" TEXT,
    "leaseUntil" DATETIME,
    "lastError" TEXT,
    "writtenAt" DATETIME,
    "updatedAt" DATETIME NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "OrderWriteBack_invoiceId_fkey" FOREIGN KEY ("invoiceId") REFERENCES "Invoice" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_OrderWriteBack" ("attempts", "invoiceId", "lastError", "leaseOwner", "leaseUntil", "nextAttemptAt", "shopDomain", "status", "updatedAt", "written", "writtenAt") SELECT "attempts", "invoiceId", "lastError", "leaseOwner", "leaseUntil", "nextAttemptAt", "shopDomain", "status", "updatedAt", "written", "writtenAt" FROM "OrderWriteBack";
DROP TABLE "OrderWriteBack";
ALTER TABLE "new_OrderWriteBack" RENAME TO "OrderWriteBack";
CREATE INDEX "OrderWriteBack_nextAttemptAt_idx" ON "OrderWriteBack"("nextAttemptAt");
CREATE INDEX "OrderWriteBack_shopDomain_status_idx" ON "OrderWriteBack"("shopDomain", "status");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

