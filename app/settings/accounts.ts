// Test and live invoice accounts must never be swapped (issue 22, point 2). The service lists its invoice accounts
// (GET /api/integrations/invoice) with a test flag, `is_test`: a test ("dummy") account's invoices reach no tax
// authority and use no quota; a live one's are legal documents. Pure: what the flag says, and which choice it refuses.

/** What an account's flag says: a test account, a live one, or nothing (a service that does not send the flag). */
export type AccountKind = "test" | "live" | "unknown";

/** The flag read leniently (true/false, 1/0, "true"/"false", "1"/"0"); anything else says nothing. */
export function accountKindOf(item: { is_test?: unknown }): AccountKind {
  const flag = item.is_test;
  if (flag === true || flag === 1 || flag === "1" || flag === "true") return "test";
  if (flag === false || flag === 0 || flag === "0" || flag === "false") return "live";
  return "unknown";
}

/** The two ways the accounts can contradict the flag (the codes of `settings.error.*` and `problem.settings.*`). */
export type AccountProblem = "live_account_is_test" | "test_account_is_live";
export const ACCOUNT_PROBLEMS: readonly AccountProblem[] = ["live_account_is_test", "test_account_is_live"];

export interface KnownAccount {
  id: number;
  kind: AccountKind;
}

/**
 * The field errors of a choice of accounts: the live account must not be a test account and the test account must
 * not be a live one. An account the list does not have, or whose flag is unknown, is not refused here (the post's
 * own check and the service decide).
 */
export function accountErrors(
  accounts: KnownAccount[],
  chosen: { invoiceIntegrationId: number | null; dummyIntegrationId: number | null },
): Partial<Record<"invoiceIntegrationId" | "dummyIntegrationId", AccountProblem>> {
  const kind = (id: number | null) =>
    id === null ? "unknown" : (accounts.find((a) => a.id === id)?.kind ?? "unknown");
  return {
    ...(kind(chosen.invoiceIntegrationId) === "test" ? { invoiceIntegrationId: "live_account_is_test" as const } : {}),
    ...(kind(chosen.dummyIntegrationId) === "live" ? { dummyIntegrationId: "test_account_is_live" as const } : {}),
  };
}

/** What a post is refused for: posting live to a test account, or a test invoice to a live one. */
export function postRefusal(kind: AccountKind, testMode: boolean): AccountProblem | null {
  if (!testMode && kind === "test") return "live_account_is_test";
  if (testMode && kind === "live") return "test_account_is_live";
  return null;
}

/**
 * The accounts a select offers: the live select the accounts not flagged test, the test select those not flagged
 * live (an account without a flag in both, since nothing says which it is). The current choice stays listed even
 * when it is the wrong kind, so the page can say what is wrong with it.
 */
export function accountsFor<T extends { id: number; kind: AccountKind }>(
  accounts: T[],
  select: "live" | "test",
  current: number | null,
): T[] {
  const wrong: AccountKind = select === "live" ? "test" : "live";
  return accounts.filter((a) => a.kind !== wrong || a.id === current);
}
