// Test and live invoice accounts as the service flags them (app/settings/accounts.ts).
import { describe, expect, it } from "vitest";
import { accountErrors, accountKindOf, accountsFor, postRefusal } from "../../app/settings/accounts";

describe("invoice accounts and the service's test flag", () => {
  it("reads the flag leniently and says nothing when it is absent or odd", () => {
    expect([true, 1, "1", "true"].map((is_test) => accountKindOf({ is_test }))).toEqual([
      "test",
      "test",
      "test",
      "test",
    ]);
    expect([false, 0, "0", "false"].map((is_test) => accountKindOf({ is_test }))).toEqual([
      "live",
      "live",
      "live",
      "live",
    ]);
    expect([undefined, null, "yes", 2, {}].map((is_test) => accountKindOf({ is_test }))).toEqual([
      "unknown",
      "unknown",
      "unknown",
      "unknown",
      "unknown",
    ]);
  });

  it("refuses a live account that is a test account and a test account that is live; unknown ones pass", () => {
    const accounts = [
      { id: 1, kind: "live" as const },
      { id: 2, kind: "test" as const },
      { id: 3, kind: "unknown" as const },
    ];
    expect(accountErrors(accounts, { invoiceIntegrationId: 2, dummyIntegrationId: 1 })).toEqual({
      invoiceIntegrationId: "live_account_is_test",
      dummyIntegrationId: "test_account_is_live",
    });
    expect(accountErrors(accounts, { invoiceIntegrationId: 1, dummyIntegrationId: 2 })).toEqual({});
    expect(accountErrors(accounts, { invoiceIntegrationId: 3, dummyIntegrationId: 3 })).toEqual({});
    expect(accountErrors(accounts, { invoiceIntegrationId: 99, dummyIntegrationId: null })).toEqual({});
  });

  it("refuses a post live to a test account and a test post to a live account", () => {
    expect(postRefusal("test", false)).toBe("live_account_is_test");
    expect(postRefusal("live", true)).toBe("test_account_is_live");
    expect([
      postRefusal("live", false),
      postRefusal("test", true),
      postRefusal("unknown", false),
      postRefusal("unknown", true),
    ]).toEqual([null, null, null, null]);
  });

  it("each select lists the accounts of its kind (and unflagged ones), keeping the current choice visible", () => {
    const accounts = [
      { id: 1, kind: "live" as const },
      { id: 2, kind: "test" as const },
      { id: 3, kind: "unknown" as const },
    ];
    expect(accountsFor(accounts, "live", null).map((a) => a.id)).toEqual([1, 3]);
    expect(accountsFor(accounts, "test", null).map((a) => a.id)).toEqual([2, 3]);
    expect(accountsFor(accounts, "live", 2).map((a) => a.id)).toEqual([1, 2, 3]);
  });
});
