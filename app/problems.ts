// Why an invoice cannot be made or sent (errors), or what it had to assume (warnings): found while mapping an
// order (app/orders) or while sending it (app/invoices). One type, one factory. Codes are stable: invoices store
// them. Their texts, in Turkish and English, are the i18n catalogues' `problem.<code>` keys and say what to fix
// and where; `{name}` placeholders are filled from the problem's params.
import { en } from "./i18n/en";
import { translate, translateKey, type Locale, type MessageKey } from "./i18n/i18n";

export type ProblemCode = MessageKey extends infer K ? (K extends `problem.${infer Code}` ? Code : never) : never;
export type ProblemParams = Record<string, string | number>;

export interface Problem {
  code: ProblemCode;
  params?: ProblemParams;
  severity: "error" | "warning";
}

export const PROBLEM_CODES = Object.keys(en)
  .filter((key) => key.startsWith("problem."))
  .map((key) => key.slice("problem.".length)) as ProblemCode[];

export function problem(code: ProblemCode, params?: ProblemParams, severity: Problem["severity"] = "error"): Problem {
  return params ? { code, params, severity } : { code, severity };
}

/** Why a try failed, in words: the service's error kind (with its HTTP status when it answered), or the app's own. */
export function reasonText(reason: unknown, locale: Locale): string | null {
  if (!reason || typeof reason !== "object") return null;
  const { kind, status } = reason as { kind?: unknown; status?: unknown };
  if (typeof kind !== "string") return null;
  const said = translateKey(locale, `reason.${kind}`, translate(locale, "reason.unexpected"));
  return typeof status === "number" ? `${said} (HTTP ${status})` : said;
}

/**
 * The merchant-facing text of a problem; a code no catalogue knows (an old stored one) is shown as it is. A problem
 * that records why a try failed (`reasonKind`, `reasonStatus`) says it in the merchant's language, not the error's
 * own English line.
 */
export function problemText(p: { code: string; params?: ProblemParams }, locale: Locale): string {
  const params =
    p.params && typeof p.params.reasonKind === "string"
      ? { ...p.params, details: reasonText({ kind: p.params.reasonKind, status: p.params.reasonStatus }, locale)! }
      : p.params;
  return translateKey(locale, `problem.${p.code}`, p.code, params);
}

/** Problems as stored in a JSON column, read defensively: anything that is not a problem is left out. */
export function problemsFrom(value: unknown): Problem[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    if (!item || typeof item !== "object" || typeof (item as { code?: unknown }).code !== "string") return [];
    const p = item as { code: ProblemCode; params?: unknown; severity?: unknown };
    const params = p.params && typeof p.params === "object" ? (p.params as ProblemParams) : undefined;
    return [problem(p.code, params, p.severity === "warning" ? "warning" : "error")];
  });
}
