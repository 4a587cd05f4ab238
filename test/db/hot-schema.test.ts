// The hand-written SQL of app/db/ is built from the schema's metadata (generated/prisma/fields.ts, written at generate
// time from prisma/models.prisma): it must name exactly the columns Prisma's generated client knows, in its order. And
// it decides no business rule: the write_orders scope and the default trigger are the callers' (decision 0041), and the
// invoice states it writes or tests come from the state machine (app/invoice-state/transitions.ts), never a literal.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Prisma } from "#prisma/sqlite";
import { SCALAR_FIELDS } from "#prisma/fields";
import { scalarFields, type ModelName } from "../../app/db/schema";
import { INVOICE_STATES } from "../../app/invoice-state/transitions";

describe("the schema's metadata for the hand-written SQL", () => {
  it("has every model of the generated client, with its scalar fields in the client's order", () => {
    expect(Object.keys(SCALAR_FIELDS).sort()).toEqual(Object.values(Prisma.ModelName).sort());
    for (const model of Object.values(Prisma.ModelName) as ModelName[]) {
      const enumName = `${model}ScalarFieldEnum` as keyof typeof Prisma;
      expect(
        scalarFields(model).map((field) => field.name),
        model,
      ).toEqual(Object.values(Prisma[enumName] as Record<string, string>));
    }
  });

  it("knows the JSON and date columns of Invoice", () => {
    const types = Object.fromEntries(scalarFields("Invoice").map((field) => [field.name, field.type]));
    expect(types).toMatchObject({
      orderSnapshot: "Json",
      requestBody: "Json",
      closure: "Json",
      nextAttemptAt: "DateTime",
      remoteId: "Int",
      isTest: "Boolean",
    });
  });

  it("leaves business rules to the callers: no scope name, default trigger, state literal or private Prisma field in app/db/", () => {
    // An invoice state compared with, assigned to or chosen for the state column (WebhookDelivery's result
    // "processing" is another vocabulary and stays).
    const stateLiteral = new RegExp(`(?:"state"\\s*=\\s*|THEN\\s+|state:\\s*)['"](?:${INVOICE_STATES.join("|")})['"]`);
    for (const file of [
      "hot.server.ts",
      "hot-sql.ts",
      "hot-sqlite.server.ts",
      "hot-postgres.server.ts",
      "hot-prisma.server.ts",
      "schema.ts",
    ]) {
      const text = readFileSync(new URL(`../../app/db/${file}`, import.meta.url), "utf8");
      expect(text, file).not.toMatch(/write_orders|"paid"|'paid'|_runtimeDataModel/);
      expect(text, file).not.toMatch(stateLiteral);
    }
  });
});
