// Downloads a file the app serves (a PDF, a CSV) from inside the embedded admin. A fetch, not a link: inside the
// Shopify admin only fetches carry the session token (App Bridge adds it), so the file is fetched and handed to
// the browser as a download named as the server says.
import { useAppBridge } from "@shopify/app-bridge-react";
import { useCallback, useState } from "react";
import { useT } from "../i18n/react";

/** The file name of a Content-Disposition header, or null. */
export function fileNameOf(disposition: string | null): string | null {
  const name = /filename="?([^";]+)"?/i.exec(disposition ?? "")?.[1]?.trim();
  return name && /^[A-Za-z0-9_.-]+$/.test(name) ? name : null;
}

export interface FileDownload {
  /** `key` names what is busy (a row, a button); `failure` turns an HTTP status into the toast's text. */
  download: (key: string, path: string, fallbackName: string, failure?: (status: number) => string) => Promise<void>;
  busy: string | null;
}

export function useFileDownload(): FileDownload {
  const shopify = useAppBridge();
  const t = useT();
  const [busy, setBusy] = useState<string | null>(null);
  const download = useCallback<FileDownload["download"]>(
    async (key, path, fallbackName, failure) => {
      setBusy(key);
      try {
        const response = await fetch(path);
        if (!response.ok) {
          shopify.toast.show(failure?.(response.status) ?? t("download.failed"), { isError: true });
          return;
        }
        const url = URL.createObjectURL(await response.blob());
        const link = document.createElement("a");
        link.href = url;
        link.download = fileNameOf(response.headers.get("content-disposition")) ?? fallbackName;
        document.body.appendChild(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), 60_000);
      } catch {
        shopify.toast.show(failure?.(0) ?? t("download.failed"), { isError: true });
      } finally {
        setBusy(null);
      }
    },
    [shopify, t],
  );
  return { download, busy };
}
