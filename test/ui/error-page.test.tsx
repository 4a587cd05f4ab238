// The root error boundary's page: Polaris, Turkish and English at once.
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ErrorPage } from "../../app/ui/ErrorPage";
import { ErrorBoundary } from "../../app/root";

describe("the root error page", () => {
  it("says what happened in Turkish and in English, on a Polaris page", () => {
    const html = renderToString(<ErrorPage status={500} />);
    expect(html).toContain("Polaris-Page");
    expect(html).toContain("Bir sorun oluştu");
    expect(html).toContain("Something went wrong");
    expect(html).toContain("hata 500");
    expect(html).toContain("error 500");
    expect(html).toContain('href="/app"');
  });

  it("tells a missing page apart, in both languages", () => {
    const html = renderToString(<ErrorPage status={404} />);
    expect(html).toContain("Bu sayfa yok.");
    expect(html).toContain("This page does not exist.");
  });

  it("is the root route's error boundary", () => {
    expect(typeof ErrorBoundary).toBe("function");
  });
});
