// The pages' shared card shapes: a titled section (SectionCard) and a Settings section (AnnotatedCard).
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { AppProvider, Badge, Text } from "@shopify/polaris";
import polarisEn from "@shopify/polaris/locales/en.json";
import { Window } from "happy-dom";
import { describe, expect, it } from "vitest";
import { SectionCard } from "../../app/ui/SectionCard";
import { AnnotatedCard } from "../../app/ui/AnnotatedCard";

// Rendered as the server renders it, then read as a browser would (happy-dom), to look at elements and not at HTML text.
const render = (node: ReactNode) => {
  const host = new Window().document.createElement("div");
  host.innerHTML = renderToStaticMarkup(<AppProvider i18n={polarisEn}>{node}</AppProvider>);
  return host;
};

describe("SectionCard", () => {
  it("is a Polaris card whose first piece is an h2 heading, then the content in order", () => {
    const host = render(
      <SectionCard title="Totals" titleId="totals-title">
        <Text as="p">first</Text>
        <Text as="p">second</Text>
      </SectionCard>,
    );
    const card = host.querySelector(".Polaris-ShadowBevel");
    expect(card).not.toBeNull();
    const stack = card!.querySelector(".Polaris-BlockStack")!;
    const [heading, ...content] = Array.from(stack.children);
    expect(heading.tagName).toBe("H2");
    expect(heading.id).toBe("totals-title");
    expect(heading.className).toContain("Polaris-Text--headingMd");
    expect(heading.textContent).toBe("Totals");
    expect(content.map((element) => [element.tagName, element.textContent])).toEqual([
      ["P", "first"],
      ["P", "second"],
    ]);
    expect(host.querySelectorAll("h1, h3, h4")).toHaveLength(0);
  });

  it("is an h3 in headingSm at level 3, for a card under a heading of the page", () => {
    const heading = render(<SectionCard title="1–31 May" level={3} />).querySelector("h3");
    expect(heading?.textContent).toBe("1–31 May");
    expect(heading?.className).toContain("Polaris-Text--headingSm");
    expect(heading?.id).toBe("");
  });

  it("puts a badge on the heading's line, next to the title or at the far end", () => {
    const next = render(<SectionCard title="Lines" badge={<Badge>3 lines</Badge>} />);
    const row = next.querySelector("h2")!.parentElement!;
    expect(row.className).toContain("Polaris-InlineStack");
    expect(row.textContent).toBe("Lines3 lines");
    expect(row.getAttribute("style")).not.toContain("space-between");
    const end = render(<SectionCard title="Lines" badge={<Badge>3 lines</Badge>} badgeAtEnd />);
    expect(end.querySelector("h2")!.parentElement!.getAttribute("style")).toContain("space-between");
  });

  it("spaces its content 300 by default and 200 when asked", () => {
    const gap = (host: ReturnType<typeof render>) => host.querySelector(".Polaris-BlockStack")!.getAttribute("style");
    expect(gap(render(<SectionCard title="A" />))).toContain("space-300");
    expect(gap(render(<SectionCard title="A" gap="200" />))).toContain("space-200");
  });
});

describe("AnnotatedCard", () => {
  it("is an annotated section: its title the heading beside a card of fields, with the section's id", () => {
    const host = render(
      <AnnotatedCard id="payment" title="Payment" description="How payments map" gap="300" contentId="payment-methods">
        <Text as="p">a field</Text>
      </AnnotatedCard>,
    );
    expect(host.querySelector("#payment")).not.toBeNull();
    expect(host.querySelector("h2")?.textContent).toBe("Payment");
    expect(host.textContent).toContain("How payments map");
    const stack = host.querySelector("#payment-methods")!;
    expect(stack.className).toContain("Polaris-BlockStack");
    expect(stack.getAttribute("style")).toContain("space-300");
    expect(stack.closest(".Polaris-ShadowBevel")).not.toBeNull();
    expect(stack.textContent).toBe("a field");
  });
});
