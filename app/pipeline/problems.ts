// Problems found while sending an invoice (as opposed to mapping one: app/orders/problems.ts). Each code
// is stable and has a Turkish and an English text that says what to do.
import type { Locale } from "../i18n/i18n";

export interface PipelineProblem {
  code: PipelineProblemCode;
  params?: Record<string, string | number>;
  severity: "error" | "warning";
}

const messages = {
  "settings.missing_api_key": {
    en: "No API key of the invoicing service is saved. Enter it under Settings → Connection.",
    tr: "Fatura servisinin API anahtarı kayıtlı değil. Ayarlar → Bağlantı bölümünden girin.",
  },
  "settings.missing_api_key_unreadable": {
    en: "The saved API key can no longer be read (the app's encryption key was changed). Enter the API key again under Settings → Connection, then retry.",
    tr: "Kayıtlı API anahtarı artık okunamıyor (uygulamanın şifreleme anahtarı değişmiş). API anahtarını Ayarlar → Bağlantı bölümüne yeniden girip tekrar deneyin.",
  },
  "settings.missing_sale_channel": {
    en: "No sales channel is chosen. Pick one under Settings → Connection.",
    tr: "Satış kanalı seçilmemiş. Ayarlar → Bağlantı bölümünden seçin.",
  },
  "settings.missing_invoice_integration": {
    en: "No invoice account (integration) is chosen for live invoicing. Pick one under Settings → Connection.",
    tr: "Canlı faturalama için fatura hesabı (entegrasyon) seçilmemiş. Ayarlar → Bağlantı bölümünden seçin.",
  },
  "settings.missing_dummy_integration": {
    en: "Test mode is on but no test (dummy) integration is chosen. Pick it under Settings → Connection, or turn test mode off.",
    tr: "Test modu açık ama test (dummy) entegrasyonu seçilmemiş. Ayarlar → Bağlantı bölümünden seçin ya da test modunu kapatın.",
  },
  "settings.api_key_rejected": {
    en: "The invoicing service rejected the API key. Copy a valid key from the service's panel into Settings, then retry.",
    tr: "Fatura servisi API anahtarını kabul etmedi. Paneldeki geçerli anahtarı Ayarlar'a girip yeniden deneyin.",
  },
  "settings.base_url_not_allowed": {
    en: "The service address in Settings is not one the app may send your API key to. Enter the invoicing service's own address (https://app.faturaentegrator.com/api) with your API key, then retry.",
    tr: "Ayarlar'daki servis adresi, API anahtarınızın gönderilebileceği bir adres değil. Fatura servisinin kendi adresini (https://app.faturaentegrator.com/api) API anahtarınızla girip yeniden deneyin.",
  },
  "settings.not_found_at_service": {
    en: "The service answered 'not found' ({details}). Check the service address, the sales channel and the invoice account in Settings.",
    tr: "Servis 'bulunamadı' yanıtı verdi ({details}). Ayarlar'daki servis adresini, satış kanalını ve fatura hesabını kontrol edin.",
  },
  "service.rejected": {
    en: "The invoicing service rejected the invoice: {details}. Fix the order or the settings, then retry.",
    tr: "Fatura servisi faturayı reddetti: {details}. Siparişi veya ayarları düzeltip yeniden deneyin.",
  },
  "service.duplicate_unresolved": {
    en: "The service says an invoice already exists for this order, but it could not be found by the order number. Check the invoicing panel.",
    tr: "Servis bu sipariş için zaten bir fatura olduğunu söylüyor ama sipariş numarasıyla bulunamadı. Fatura panelini kontrol edin.",
  },
  "service.unavailable": {
    en: "The invoicing service could not be reached after {attempts} attempts ({details}). Retry when it is back.",
    tr: "Fatura servisine {attempts} denemede ulaşılamadı ({details}). Servis düzelince yeniden deneyin.",
  },
  "service.formalisation_failed": {
    en: "The tax authority step failed: {details}. Correct the data in the invoicing panel or the order, then issue a new invoice there.",
    tr: "GİB'e gönderim başarısız oldu: {details}. Bilgileri fatura panelinde veya siparişte düzeltip faturayı yeniden düzenleyin.",
  },
  "invoice.unexpected_error": {
    en: "Sending this invoice failed {attempts} times with an unexpected error ({details}). Retry; if it fails again, contact the app's support.",
    tr: "Bu fatura {attempts} kez beklenmeyen bir hatayla gönderilemedi ({details}). Yeniden deneyin; yine olmazsa uygulamanın desteğine başvurun.",
  },
  "invoice.status_unknown": {
    en: "The service has not finished this invoice for a long time. Check it in the invoicing panel.",
    tr: "Servis bu faturayı uzun süredir tamamlamadı. Fatura panelinden kontrol edin.",
  },
  "invoice.missing_at_service": {
    en: "The invoice can no longer be found at the service (deleted?). Check the invoicing panel.",
    tr: "Fatura serviste artık bulunamıyor (silinmiş olabilir). Fatura panelini kontrol edin.",
  },
  "invoice.cancelled_after_invoicing": {
    en: "The order was cancelled in Shopify after its invoice was formalised, so the app could no longer delete it. 'After the sale' on this page says what applies to this invoice.",
    tr: "Sipariş, faturası resmileştikten sonra Shopify'da iptal edildi; uygulama faturayı artık silemez. Bu sayfadaki 'Satış sonrası' bölümü bu fatura için ne yapılacağını söyler.",
  },
  "order.edited_unread": {
    en: "The order was edited in Shopify and could not be read again ({details}). The invoice waits for the order as it stands and is retried on its own.",
    tr: "Sipariş Shopify'da düzenlendi ve yeniden okunamadı ({details}). Fatura siparişin son hâlini bekliyor; kendiliğinden yeniden denenecek.",
  },
  "invoice.withdraw_refused": {
    en: "The invoice had to be withdrawn after a refund or cancellation, but the service refused to delete it ({details}). 'After the sale' on this page says what applies.",
    tr: "İade veya iptal sonrası faturanın geri çekilmesi gerekiyordu ama servis silmeyi reddetti ({details}). Bu sayfadaki 'Satış sonrası' bölümü ne yapılacağını söyler.",
  },
  "invoice.total_mismatch": {
    en: "The service's grand total {remote} differs from the amount paid {paid}. Check the invoice before sending it to the customer.",
    tr: "Servisin hesapladığı genel toplam {remote}, ödenen tutardan {paid} farklı. Faturayı müşteriye göndermeden önce kontrol edin.",
  },
  "waybill.not_found": {
    en: "The invoicing service refused waybill {waybillId}: it is an incoming waybill or not one of this account's. Check it in the invoicing panel.",
    tr: "Fatura servisi {waybillId} numaralı irsaliyeyi reddetti: gelen bir irsaliye ya da bu hesaba ait değil. Fatura panelinden kontrol edin.",
  },
  "waybill.already_invoiced": {
    en: "Waybill {waybillId} was invoiced elsewhere (invoice {invoiceId} at the service), not by this app. Check the invoicing panel; nothing more was posted.",
    tr: "{waybillId} numaralı irsaliye başka yerden faturalanmış (serviste {invoiceId} numaralı fatura), bu uygulamadan değil. Fatura panelini kontrol edin; başka bir şey gönderilmedi.",
  },
  "waybill.form_invalid": {
    en: "The invoice of this waybill could not be built ({details}). Open Invoice from a waybill, enter the waybill again and correct it.",
    tr: "Bu irsaliyenin faturası oluşturulamadı ({details}). İrsaliyeden fatura sayfasında irsaliyeyi yeniden girip düzeltin.",
  },
} as const satisfies Record<string, { en: string; tr: string }>;

export type PipelineProblemCode = keyof typeof messages;

export function isPipelineProblemCode(code: string): code is PipelineProblemCode {
  return code in messages;
}

export function pipelineProblemMessage(problem: { code: string; params?: Record<string, string | number> }, locale: Locale): string | null {
  if (!isPipelineProblemCode(problem.code)) return null;
  const template: string = messages[problem.code][locale];
  return template.replace(/\{(\w+)\}/g, (match, name: string) => (problem.params && name in problem.params ? String(problem.params[name]) : match));
}

export function problem(code: PipelineProblemCode, params?: Record<string, string | number>, severity: "error" | "warning" = "error"): PipelineProblem {
  return { code, ...(params ? { params } : {}), severity };
}
