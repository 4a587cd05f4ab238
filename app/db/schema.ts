// The schema's metadata for the hand-written SQL of app/db/: each model's scalar fields and their Prisma types,
// written at generate time from prisma/models.prisma (scripts/prisma-schemas.ts, `generated/prisma/fields.ts`), so
// the column lists, what is JSON and how a raw row is read back as Prisma reads it all follow the schema.
import { SCALAR_FIELDS } from "#prisma/fields";

export type ModelName = keyof typeof SCALAR_FIELDS;
export type ScalarType = "String" | "Int" | "BigInt" | "Float" | "Decimal" | "Boolean" | "DateTime" | "Json" | "Bytes";
export interface ScalarField {
  name: string;
  type: ScalarType;
}

/** The model's scalar fields (its columns), in the schema's order. */
export function scalarFields(model: ModelName): ScalarField[] {
  return Object.entries(SCALAR_FIELDS[model]).map(([name, type]) => ({ name, type: type as ScalarType }));
}

/** The model's columns, and those of them that hold JSON. */
export function columnsOf(model: ModelName): { all: ReadonlySet<string>; json: ReadonlySet<string> } {
  const fields = scalarFields(model);
  return {
    all: new Set(fields.map((f) => f.name)),
    json: new Set(fields.filter((f) => f.type === "Json").map((f) => f.name)),
  };
}
