// Why an order cannot be invoiced (errors) or what the invoice had to assume (warnings). Codes are stable:
// the pipeline stores them and the admin shows `problemMessage`, which says what to fix and where.

export interface Problem {
  /** One of PROBLEM_CODES. */
  code: string;
  params?: Record<string, string | number>;
  severity: "error" | "warning";
}

type Messages = { tr: string; en: string };

const catalogue = {
  "order.invalid_payload": {
    tr: "Shopify sipariş verisi okunamadı ({path}: {message}). Siparişi Shopify'da açıp tekrar faturalayın; sorun sürerse destekle iletişime geçin.",
    en: "The Shopify order data could not be read ({path}: {message}). Open the order in Shopify and invoice it again; contact support if it persists.",
  },
  "order.no_invoiceable_lines": {
    tr: "Siparişte faturalanacak kalem yok (tüm kalemler iade edilmiş, kaldırılmış ya da hediye çeki). Bu sipariş için fatura gerekmiyorsa yok sayın.",
    en: "The order has no items to invoice (all were refunded, removed or are gift cards). Ignore it if no invoice is needed.",
  },
  "order.currency_rate_unavailable": {
    tr: "{currency} para biriminde fatura için TRY kuru siparişten çıkarılamadı. Ayarlar > Fatura para birimi seçeneğini mağaza para birimine (TRY) çevirin veya faturayı panelden elle kesin.",
    en: "The TRY exchange rate for an invoice in {currency} cannot be derived from the order. Set Settings > Invoice currency to the shop currency (TRY), or issue this invoice by hand in the panel.",
  },
  "order.total_mismatch": {
    tr: "Faturalanan kalemlerin toplamı ({invoiced}) siparişin ödenen tutarıyla ({orderTotal}) uyuşmuyor (bahşiş, gümrük veya iade düzeltmesi olabilir). Faturayı göndermeden önce siparişi kontrol edin.",
    en: "The invoiced items add up to {invoiced} but the order's paid total is {orderTotal} (a tip, duties or a refund adjustment?). Check the order before sending the invoice.",
  },
  "order.vat_added_to_prices": {
    tr: "Siparişte KDV satırı yok ve Ayarlar > 'Fiyatlara KDV dahil' kapalı: fiyatların üzerine %{rate} KDV eklendi, fatura toplamı Shopify toplamından yüksek. Fiyatlarınız KDV dahilse bu ayarı açın.",
    en: "The order has no tax lines and Settings > 'Prices include VAT' is off: {rate}% VAT was added on top, so the invoice total exceeds the Shopify total. Turn the setting on if your prices include VAT.",
  },
  "order.refund_adjustments_ignored": {
    tr: "Siparişteki iade düzeltmeleri (ör. kargo iadesi) faturaya yansıtılmadı. Fatura tutarını kontrol edin.",
    en: "Refund adjustments on the order (e.g. a shipping refund) are not reflected on the invoice. Check the invoice amount.",
  },
  "order.issue_date_clamped": {
    tr: "Fatura tarihi, Türkiye saatine göre bugünden sonraya düşmesin diye {date} olarak alındı. Ayarlar > Saat dilimi doğru mu kontrol edin.",
    en: "The issue date was set to {date} so that it is not later than today in Turkey. Check the shop's time zone.",
  },
  "line.unsupported_tax_rate": {
    tr: "'{line}' kaleminin KDV oranı %{rate}; e-faturada yalnızca %0, 1, 10, 20 (ve eski %8, 18) geçerli. Shopify > Ayarlar > Vergiler'de bu ürünün vergi oranını düzeltin.",
    en: "Line '{line}' has a {rate}% tax rate; e-invoices accept only 0, 1, 10, 20 (and legacy 8, 18) %. Fix the product's tax rate in Shopify > Settings > Taxes and duties.",
  },
  "line.zero_rate_without_exemption": {
    tr: "'{line}' kalemi %0 KDV'li, fakat istisna kodu ve açıklaması ayarlanmamış. Ayarlar > KDV istisnası bölümünde istisna kodunu ve resmi açıklamasını girin (ör. 301 – 11/1-a Mal İhracatı).",
    en: "Line '{line}' has 0% VAT but no exemption code and text are set. Enter the exemption code and its official text under Settings > VAT exemption (e.g. 301 – 11/1-a Mal İhracatı).",
  },
  "line.negative_amount": {
    tr: "'{line}' kaleminin tutarı negatif ({amount}). Siparişteki indirimleri Shopify'da kontrol edin; bu sipariş için faturayı panelden elle kesin.",
    en: "Line '{line}' has a negative amount ({amount}). Check the order's discounts in Shopify; issue this invoice by hand in the panel.",
  },
  "customer.invalid_tax_number": {
    tr: "Alıcının vergi / T.C. kimlik numarası '{value}' geçersiz (siparişin '{source}' alanı). Vergi numarası 10 hanedir ve son hanesi kontrol hanesidir; T.C. kimlik numarası 11 hanedir, 0 ile başlamaz ve son iki hanesi kontrol haneleridir. Doğru numarayı müşteriden alıp siparişe girin ya da Ayarlar > Vergi numarası alanlarını kontrol edin; fatura bu düzeltilmeden gönderilmez.",
    en: "The buyer's tax / citizen number '{value}' is not valid (the order's '{source}' field). A tax number (VKN) has 10 digits, the last one a check digit; a T.C. citizen number has 11, never starts with 0, and ends with two check digits. Get the right number from the customer and put it on the order, or check Settings > Tax number fields; nothing is sent until then.",
  },
  "customer.invalid_tax_number_in_company": {
    tr: "Fatura adresinin Şirket alanındaki '{value}' numarası geçerli bir vergi / T.C. kimlik numarası değil (kontrol hanesi tutmuyor). Shopify'da siparişin fatura adresini düzeltin ya da Ayarlar'da 'Şirket unvanını fatura adresinden al' seçeneğini kapatın; fatura bu düzeltilmeden gönderilmez.",
    en: "The number '{value}' in the billing address's Company field is not a valid tax / citizen number (its check digit does not match). Correct the order's billing address in Shopify, or turn off Settings > 'Take the company title from the billing address'; nothing is sent until then.",
  },
  "customer.company_without_tax_office": {
    tr: "Alıcı şirket (vergi no {taxNumber}) ama vergi dairesi yok. Siparişe 'Vergi Dairesi' notu ekleyin ya da Ayarlar > Vergi dairesi alan adlarını ödeme sayfanızdaki alanla eşleştirin.",
    en: "The buyer is a company (tax number {taxNumber}) but no tax office is given. Add a 'Vergi Dairesi' note attribute to the order, or match Settings > Tax office fields to your checkout's field.",
  },
  "customer.company_without_title": {
    tr: "Alıcı şirket (vergi no {taxNumber}) ama şirket unvanı yok. Fatura adresindeki 'Şirket' alanına unvanı yazın.",
    en: "The buyer is a company (tax number {taxNumber}) but no company title is given. Enter the title in the billing address's Company field.",
  },
  "customer.missing_address": {
    tr: "Alıcının adresinde '{part}' eksik; fatura ve teslimat adresinde de yok. Siparişin adresini Shopify'da tamamlayın ya da Ayarlar > Varsayılan adres bölümünü doldurun.",
    en: "The buyer's address lacks '{part}', in both billing and shipping address. Complete the order's address in Shopify, or fill in Settings > Default address.",
  },
  "customer.address_from_shipping": {
    tr: "Fatura adresinde eksik olan '{parts}' teslimat adresinden alındı.",
    en: "'{parts}' missing from the billing address was taken from the shipping address.",
  },
  "customer.address_from_defaults": {
    tr: "Siparişte olmayan '{parts}' Ayarlar > Varsayılan adres bölümünden alındı.",
    en: "'{parts}' missing from the order was taken from Settings > Default address.",
  },
  "customer.missing_name": {
    tr: "Siparişte alıcı adı yok; fatura 'Nihai Tüketici' adına kesildi. Gerekirse siparişe fatura adresi ekleyin.",
    en: "The order has no buyer name; the invoice is made out to 'Nihai Tüketici' (final consumer). Add a billing address to the order if needed.",
  },
  "customer.foreign_buyer": {
    tr: "Alıcı Türkiye dışında ({country}); yabancı alıcı numarası {taxNumber} kullanıldı (Ayarlar > Yabancı alıcı numarası).",
    en: "The buyer is outside Turkey ({country}); the foreign-buyer number {taxNumber} was used (Settings > Foreign buyer number).",
  },
  "customer.foreign_tax_id": {
    tr: "Alıcının yabancı vergi numarası {taxId} faturanın açıklamasına yazıldı; vergi numarası alanında {taxNumber} gönderildi (e-Arşiv yurt dışı uygulaması).",
    en: "The buyer's foreign tax ID {taxId} is written in the invoice's note; the tax number field carries {taxNumber} (e-Archive practice for buyers abroad).",
  },
  "order.export_zero_rated": {
    tr: "Yurt dışına ({country}) gönderilen ve vergi alınmayan sipariş ihracat olarak %0 KDV ve {code} istisnasıyla (İSTİSNA) faturalandı; varsayılan %{rate} oranı uygulanmadı. Kod ve açıklama Ayarlar > KDV bölümünde.",
    en: "The order ships abroad ({country}) and no tax was collected: it is invoiced as an export at 0 % VAT with exemption {code} (type ISTISNA), not at the default {rate}% rate. The code and its text are under Settings > VAT.",
  },
  "payment.unknown_method": {
    tr: "'{gateway}' ödeme yöntemi tanınmadı ve 'diğer' olarak gönderildi. Ayarlar > Ödeme yöntemi eşleştirmesine bu ödeme sağlayıcısını ekleyin.",
    en: "Payment gateway '{gateway}' is not recognised and was sent as 'other'. Add it to Settings > Payment method mapping.",
  },
  "shipment.no_carrier": {
    tr: "Kargolu sipariş için kargo firması bulunamadı (takip firması: '{trackingCompany}'). Ayarlar > Kargo firmaları tablosuna bu firmayı ekleyin ya da Ayarlar > Varsayılan kargo firmasını (unvan ve vergi no) girin.",
    en: "No carrier found for this shipped order (tracking company: '{trackingCompany}'). Add it to Settings > Carriers, or set Settings > Default carrier (title and tax number).",
  },
  "shipment.unknown_carrier": {
    tr: "'{trackingCompany}' kargo tablosunda yok; varsayılan kargo firması {carrier} kullanıldı. Doğru değilse Ayarlar > Kargo firmaları tablosuna ekleyin.",
    en: "'{trackingCompany}' is not in the carrier table; the default carrier {carrier} was used. If that is wrong, add it to Settings > Carriers.",
  },
  "totals.rounding_difference": {
    tr: "Kuruş yuvarlaması nedeniyle fatura toplamı ödenen tutardan {difference} farklı (izin verilen en fazla 0,01).",
    en: "Because of kuruş rounding the invoice total differs from the amount paid by {difference} (at most 0.01 is allowed).",
  },
  "totals.difference_over_limit": {
    tr: "Fatura toplamı ({grandTotal}) ödenen tutardan ({paid}) {difference} farklı; 0,01'den fazla fark kabul edilmez. Siparişi kontrol edip faturayı panelden elle kesin ve destekle iletişime geçin.",
    en: "The invoice total ({grandTotal}) differs from the amount paid ({paid}) by {difference}; more than 0.01 is not accepted. Check the order, issue the invoice by hand in the panel and contact support.",
  },
  "settings.invalid": {
    tr: "Fatura ayarlarında geçersiz değer ({path}: {message}). Ayarlar sayfasında bu alanı düzeltin.",
    en: "An invoicing setting is not valid ({path}: {message}). Correct this field on the Settings page.",
  },
} satisfies Record<string, Messages>;

export type ProblemCode = keyof typeof catalogue;
export const PROBLEM_CODES = Object.keys(catalogue) as ProblemCode[];

export function problem(code: ProblemCode, severity: Problem["severity"], params?: Problem["params"]): Problem {
  return params ? { code, params, severity } : { code, severity };
}
export const error = (code: ProblemCode, params?: Problem["params"]) => problem(code, "error", params);
export const warning = (code: ProblemCode, params?: Problem["params"]) => problem(code, "warning", params);

/** The merchant-facing text of a problem, `{name}` placeholders filled from its params. */
export function problemMessage(p: Pick<Problem, "code" | "params">, locale: "tr" | "en"): string {
  const entry = (catalogue as Record<string, Messages>)[p.code];
  if (!entry) return p.code;
  return entry[locale].replace(/\{(\w+)\}/g, (match, name: string) =>
    p.params && name in p.params ? String(p.params[name]) : match,
  );
}
