// The app's bare address. Shopify opens the app at /app?shop=...; anyone else gets a short explanation.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  if (url.searchParams.get("shop")) throw redirect(`/app?${url.searchParams.toString()}`);
  return null;
};

export default function Index() {
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", maxWidth: 640, margin: "4rem auto", lineHeight: 1.5 }}>
      <h1>e-Fatura for Shopify</h1>
      <p>
        Every paid order becomes a legal Turkish e-invoice or e-archive invoice. Open the app from your Shopify admin.
      </p>
      <p lang="tr">
        Her ödenmiş sipariş yasal bir e-Fatura ya da e-Arşiv faturasına dönüşür. Uygulamayı Shopify yönetim panelinizden
        açın.
      </p>
    </main>
  );
}
