// A stored problem ({code, params}) in plain words: the pipeline's codes first, then the mapping's.
import type { Locale } from "../i18n/i18n";
import { pipelineProblemMessage } from "../pipeline/problems";
import { problemMessage } from "../orders/problems";

export function problemText(problem: { code: string; params?: Record<string, string | number> }, locale: Locale): string {
  return pipelineProblemMessage(problem, locale) ?? problemMessage(problem, locale);
}
