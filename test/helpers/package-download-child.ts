// Another machine's web process downloading an accountant package, for test/accountant/store.db.test.ts: it shares
// only the database with the test (its own ACCOUNTANT_PACKAGE_DIR, empty, given by the test's environment), calls the
// download route as the server does, writes the body to a file as it streams, and prints one JSON line: the status,
// the headers, and how many chunk queries the download made.
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import prisma from "../../app/db.server";
import { chunkStatements } from "../../app/accountant/chunks.server";
import { loader } from "../../app/routes/accountant-package.$token";
import { callRoute } from "./routes";

const [token, out] = process.argv.slice(2);
// Each chunk query counted (the store reads one chunk per call).
const statements = chunkStatements();
const read = statements.read.bind(statements);
let chunkQueries = 0;
statements.read = (packageId, seq) => {
  chunkQueries += 1;
  return read(packageId, seq);
};

const response = await callRoute(loader, new Request(`http://localhost/accountant-package/${token}`), { token });
if (response.body) await pipeline(Readable.fromWeb(response.body as never), createWriteStream(out));
process.stdout.write(
  `${JSON.stringify({ status: response.status, headers: Object.fromEntries(response.headers), chunkQueries })}\n`,
);
await prisma.$disconnect();
process.exit(0);
