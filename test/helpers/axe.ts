// axe-core (Deque's accessibility rules, from npm) injected into a page of the app: the violations a merchant
// using a screen reader or a keyboard would meet. Moderate, serious and critical ones in the app's own markup fail the
// browser tests (issue 36, point 9); minor ones are not counted.
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

// The local admin's own chrome (its navigation bar, toasts and save bar) stands in for the Shopify admin, which
// draws them outside the app's iframe: not the app's markup, so not scanned.
const HOST_CHROME = ["ui-nav-menu", "[data-local-toast]", "ui-save-bar", "[data-local-dialog]"];

/** The page's moderate, serious and critical axe violations (WCAG 2.x A/AA and best practices), up to 5 nodes each. */
export async function axeViolations(page: Page): Promise<AxeFinding[]> {
  await page.addScriptTag({ path: axePath });
  const found = await page.evaluate(async (exclude) => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: unknown,
            options: unknown,
          ) => Promise<{
            violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }>;
          }>;
        };
      }
    ).axe;
    const present = exclude.filter((selector) => document.querySelector(selector));
    const result = await axe.run(present.length ? { exclude: present.map((selector) => [selector]) } : document, {
      resultTypes: ["violations"],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.map(String).join(" ")),
    }));
  }, HOST_CHROME);
  return found.filter((v) => v.impact === "moderate" || v.impact === "serious" || v.impact === "critical");
}
