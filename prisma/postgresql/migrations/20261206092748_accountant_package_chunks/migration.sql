-- CreateTable
CREATE TABLE "AccountantPackageChunk" (
    "packageId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "bytes" BYTEA NOT NULL,

    CONSTRAINT "AccountantPackageChunk_pkey" PRIMARY KEY ("packageId","seq")
);

-- AddForeignKey
ALTER TABLE "AccountantPackageChunk" ADD CONSTRAINT "AccountantPackageChunk_packageId_fkey" FOREIGN KEY ("packageId") REFERENCES "AccountantPackage"("id") ON DELETE CASCADE ON UPDATE CASCADE;
