// Downloads an invoice's formal PDF through the app (GET /app/invoices/{id}/pdf), named as the server says (the
// serial number).
import { useCallback } from "react";
import { useT } from "../i18n/react";
import { useFileDownload } from "../ui/useFileDownload";

export function pdfPath(invoiceId: string): string {
  return `/app/invoices/${encodeURIComponent(invoiceId)}/pdf`;
}

export function usePdfDownload(): { download: (invoiceId: string) => Promise<void>; busy: string | null } {
  const t = useT();
  const file = useFileDownload();
  const { download: fetchFile } = file;
  const download = useCallback(
    (invoiceId: string) =>
      fetchFile(invoiceId, pdfPath(invoiceId), "fatura.pdf", (status) =>
        status === 409 ? t("pdf.notReady") : status === 404 ? t("detail.notFound") : t("pdf.failed"),
      ),
    [fetchFile, t],
  );
  return { download, busy: file.busy };
}
