-- CreateTable
CREATE TABLE "AccountantPackageChunk" (
    "packageId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "bytes" BLOB NOT NULL,

    PRIMARY KEY ("packageId", "seq"),
    CONSTRAINT "AccountantPackageChunk_packageId_fkey" FOREIGN KEY ("packageId") REFERENCES "AccountantPackage" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
