// GET /accountant-package/{token}: a finished accountant package's ZIP. No session: the token, signed for one shop's
// package and valid for minutes (app/accountant/packages.server.ts), is the permission; the browser downloads the file
// straight from the package store (a file, or the database chunk by chunk), never through the page's memory. Anything
// wrong (forged, expired, another shop's, deleted) is 404; a package whose file is gone says so.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { packageForDownload } from "../accountant/packages.server";

export const loader = async ({ params }: LoaderFunctionArgs) => {
  const grant = await packageForDownload(params.token ?? "");
  if (!grant.ok)
    return new Response(grant.text, {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  return new Response(grant.body, {
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
