// Links that come from the invoicing service (the PDF address) are shown to the merchant as links, so only web
// addresses pass: https, and http only for local runs (the sandbox). `javascript:`, `data:` and every other scheme,
// and addresses with credentials in them, become null and are not shown.
const MAX_LENGTH = 2048;

export function safeLink(value: unknown, options: { allowHttp: boolean }): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  const schemeOk = url.protocol === "https:" || (options.allowHttp && url.protocol === "http:");
  if (!schemeOk || url.username || url.password || !url.hostname) return null;
  return url.href;
}
