// The Admin API stand-in is held to Shopify's published schema of the version the app declares, field by field:
// every type it declares exists there with the same kind; every field and argument has the same type (nullability
// and lists included); every argument or input field Shopify requires is required here too; its enums and unions
// hold no value Shopify lacks. So the stand-in can never accept a query Shopify would refuse.
import {
  buildSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLSchema,
} from "graphql";
import { describe, expect, it } from "vitest";
import { SCHEMA_SDL } from "../../shopify-standin/schema";
import { publishedAdminSchema } from "../../scripts/lib/shopify-schema";

const standin = buildSchema(SCHEMA_SDL);

function kind(type: GraphQLNamedType): string {
  if (isObjectType(type)) return "object";
  if (isInterfaceType(type)) return "interface";
  if (isUnionType(type)) return "union";
  if (isEnumType(type)) return "enum";
  if (isInputObjectType(type)) return "input";
  if (isScalarType(type)) return "scalar";
  return "unknown";
}

const required = (arg: GraphQLArgument | GraphQLInputField) =>
  isNonNullType(arg.type) && arg.defaultValue === undefined;

/** Every way the stand-in differs from the published schema, and how many fields, arguments and values it compared. */
function differences(ours: GraphQLSchema, theirs: GraphQLSchema): { problems: string[]; fields: number } {
  const problems: string[] = [];
  let fields = 0;
  for (const type of Object.values(ours.getTypeMap())) {
    if (type.name.startsWith("__")) continue;
    const published = theirs.getType(type.name);
    if (!published) {
      problems.push(`${type.name}: no such type`);
      continue;
    }
    if (kind(type) !== kind(published)) {
      problems.push(`${type.name}: a ${kind(type)} here, a ${kind(published)} at Shopify`);
      continue;
    }
    if ((isObjectType(type) || isInterfaceType(type)) && (isObjectType(published) || isInterfaceType(published))) {
      const theirFields = published.getFields();
      const theirInterfaces = published.getInterfaces().map((i) => i.name);
      for (const iface of type.getInterfaces())
        if (!theirInterfaces.includes(iface.name)) problems.push(`${type.name}: does not implement ${iface.name}`);
      for (const field of Object.values(type.getFields()) as GraphQLField<unknown, unknown>[]) {
        fields++;
        const theirs = theirFields[field.name];
        if (!theirs) {
          problems.push(`${type.name}.${field.name}: no such field`);
          continue;
        }
        if (String(field.type) !== String(theirs.type))
          problems.push(`${type.name}.${field.name}: ${field.type} here, ${theirs.type} at Shopify`);
        for (const arg of field.args) {
          const theirArg = theirs.args.find((a) => a.name === arg.name);
          if (!theirArg) problems.push(`${type.name}.${field.name}(${arg.name}): no such argument`);
          else if (String(arg.type) !== String(theirArg.type))
            problems.push(`${type.name}.${field.name}(${arg.name}): ${arg.type} here, ${theirArg.type} at Shopify`);
        }
        for (const theirArg of theirs.args) {
          if (required(theirArg) && !field.args.some((a) => a.name === theirArg.name))
            problems.push(`${type.name}.${field.name}(${theirArg.name}): required at Shopify, missing here`);
        }
      }
    } else if (isInputObjectType(type) && isInputObjectType(published)) {
      const theirFields = published.getFields();
      const ourFields = type.getFields();
      for (const field of Object.values(ourFields)) {
        fields++;
        const theirs = theirFields[field.name];
        if (!theirs) problems.push(`${type.name}.${field.name}: no such input field`);
        else if (String(field.type) !== String(theirs.type))
          problems.push(`${type.name}.${field.name}: ${field.type} here, ${theirs.type} at Shopify`);
      }
      for (const theirs of Object.values(theirFields)) {
        if (required(theirs) && !ourFields[theirs.name])
          problems.push(`${type.name}.${theirs.name}: required at Shopify, missing here`);
      }
    } else if (isEnumType(type) && isEnumType(published)) {
      const theirValues = new Set(published.getValues().map((v) => v.name));
      for (const value of type.getValues())
        if (!theirValues.has(value.name)) problems.push(`${type.name}.${value.name}: no such enum value`);
    } else if (isUnionType(type) && isUnionType(published)) {
      const members = published.getTypes().map((t) => t.name);
      for (const member of type.getTypes())
        if (!members.includes(member.name)) problems.push(`${type.name}: ${member.name} is not a member at Shopify`);
    }
  }
  return { problems, fields };
}

describe("the Admin API stand-in against Shopify's published schema", () => {
  it("declares nothing Shopify's schema of the app's version lacks or types differently", () => {
    const { problems, fields } = differences(standin, publishedAdminSchema());
    expect(problems).toEqual([]);
    expect(fields).toBeGreaterThan(200);
  });

  it("uses Shopify's root type names", () => {
    expect(standin.getQueryType()?.name).toBe(publishedAdminSchema().getQueryType()?.name);
    expect(standin.getMutationType()?.name).toBe(publishedAdminSchema().getMutationType()?.name);
  });

  it("is a check that can fail: a nullable field made non-null, a missing required argument, an invented enum value", () => {
    const drifted = buildSchema(
      SCHEMA_SDL.replace("cancelledAt: DateTime\n", "cancelledAt: DateTime!\n")
        .replace(/enum OrderSortKeys \{ /, "enum OrderSortKeys { INVENTED ")
        .replace(/metafieldsSet\(metafields: \[MetafieldsSetInput!\]!\)/, "metafieldsSet"),
    );
    const { problems } = differences(drifted, publishedAdminSchema());
    expect(problems).toEqual(
      expect.arrayContaining([
        "Order.cancelledAt: DateTime! here, DateTime at Shopify",
        "OrderSortKeys.INVENTED: no such enum value",
        "Mutation.metafieldsSet(metafields): required at Shopify, missing here",
      ]),
    );
  });
});
