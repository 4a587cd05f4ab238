// GET /accountant-package/{token}: a finished accountant package's ZIP. No session: the token, signed for one shop's
// package and valid for minutes (app/accountant/packages.server.ts), is the permission; the browser downloads the file
// straight from disk, never through the page's memory. Anything wrong (forged, expired, another shop's, deleted) is 404.
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { packageForDownload } from "../accountant/packages.server";

export const loader = async ({ params }: LoaderFunctionArgs) => {
  const grant = await packageForDownload(params.token ?? "");
  if (!grant.ok) return new Response("Not Found", { status: 404, headers: { "Cache-Control": "no-store" } });
  const body = Readable.toWeb(createReadStream(grant.path)) as ReadableStream<Uint8Array>;
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${grant.fileName}"`,
      "Content-Length": String(grant.size),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
};
