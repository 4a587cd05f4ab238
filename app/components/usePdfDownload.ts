// Downloads an invoice's formal PDF through the app (GET /app/invoices/{id}/pdf). A fetch, not a link: inside
// the Shopify admin only fetches carry the session token (App Bridge adds it), so the file is fetched and
// handed to the browser as a download named as the server says (the serial number).
import { useAppBridge } from "@shopify/app-bridge-react";
import { useCallback, useState } from "react";
import { useT } from "../i18n/react";

export function pdfPath(invoiceId: string): string {
  return `/app/invoices/${encodeURIComponent(invoiceId)}/pdf`;
}

/** The file name of a Content-Disposition header, or null. */
export function fileNameOf(disposition: string | null): string | null {
  const name = /filename="?([^";]+)"?/i.exec(disposition ?? "")?.[1]?.trim();
  return name && /^[A-Za-z0-9_.-]+$/.test(name) ? name : null;
}

export function usePdfDownload(): { download: (invoiceId: string) => Promise<void>; busy: string | null } {
  const shopify = useAppBridge();
  const t = useT();
  const [busy, setBusy] = useState<string | null>(null);
  const download = useCallback(
    async (invoiceId: string) => {
      setBusy(invoiceId);
      try {
        const response = await fetch(pdfPath(invoiceId));
        if (!response.ok) {
          shopify.toast.show(response.status === 409 ? t("pdf.notReady") : response.status === 404 ? t("detail.notFound") : t("pdf.failed"), { isError: true });
          return;
        }
        const url = URL.createObjectURL(await response.blob());
        const link = document.createElement("a");
        link.href = url;
        link.download = fileNameOf(response.headers.get("content-disposition")) ?? "fatura.pdf";
        document.body.appendChild(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), 60_000);
      } catch {
        shopify.toast.show(t("pdf.failed"), { isError: true });
      } finally {
        setBusy(null);
      }
    },
    [shopify, t],
  );
  return { download, busy };
}
