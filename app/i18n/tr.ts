import type { en } from "./en";

export const tr: Record<keyof typeof en, string> = {
  "app.title": "e-Faturalar",
  "nav.invoices": "Faturalar",
  "nav.settings": "Ayarlar",
  "home.title": "Faturalar",
  "home.empty": "Henüz fatura yok. Ödenen siparişler faturalandıkça burada görünür.",
  "home.count": "{count} fatura",
  "error.generic": "Bir şeyler ters gitti. Lütfen tekrar deneyin.",
};
