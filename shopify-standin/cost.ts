// Query cost as Shopify documents it (shopify.dev/docs/api/usage/rate-limits#graphql-admin-api-rate-limits):
// scalars and enums 0, an object 1, a connection 2 plus `first`/`last` times the cost of one node, a mutation's
// root field 10. The requested cost is computed before running (from the arguments), the actual cost from the
// answer (from the nodes really returned). Plain lists of objects count one element (their size is unknown).
import {
  getNamedType,
  isLeafType,
  isObjectType,
  isInterfaceType,
  valueFromAST,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  Kind,
} from "graphql";

interface Context {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

const isConnection = (name: string) => name.endsWith("Connection");

function fieldsOf(type: GraphQLCompositeType): Record<string, GraphQLField<unknown, unknown>> {
  return isObjectType(type) || isInterfaceType(type) ? type.getFields() : {};
}

function argument(
  field: GraphQLField<unknown, unknown>,
  node: { arguments?: readonly { name: { value: string }; value: never }[] },
  name: string,
  ctx: Context,
): unknown {
  const def = field.args.find((a) => a.name === name);
  const ast = node.arguments?.find((a) => a.name.value === name);
  if (!def || !ast) return undefined;
  return valueFromAST(ast.value, def.type, ctx.variables as never);
}

/** Each selected field with its definition and the type it is selected on (fragments flattened). */
function* selected(
  selectionSet: SelectionSetNode,
  type: GraphQLCompositeType,
  ctx: Context,
): Generator<{ key: string; node: never; field: GraphQLField<unknown, unknown> }> {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const field = fieldsOf(type)[selection.name.value];
      if (field) yield { key: selection.alias?.value ?? selection.name.value, node: selection as never, field };
    } else {
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : ctx.fragments[selection.name.value];
      if (!fragment) continue;
      const on = fragment.typeCondition
        ? (ctx.schema.getType(fragment.typeCondition.name.value) as GraphQLCompositeType)
        : type;
      yield* selected(fragment.selectionSet, on, ctx);
    }
  }
}

function requestedOf(selectionSet: SelectionSetNode | undefined, type: GraphQLCompositeType, ctx: Context): number {
  if (!selectionSet) return 0;
  let total = 0;
  for (const { node, field } of selected(selectionSet, type, ctx)) {
    const named = getNamedType(field.type);
    if (isLeafType(named)) continue;
    const sub = (node as { selectionSet?: SelectionSetNode }).selectionSet;
    if (isConnection(named.name)) {
      const size = Number(argument(field, node, "first", ctx) ?? argument(field, node, "last", ctx) ?? 0);
      total += 2 + size * nodeCost(sub, named as GraphQLCompositeType, ctx);
    } else if (named.name === "PageInfo" || named.name.endsWith("Edge")) {
      total += requestedOf(sub, named as GraphQLCompositeType, ctx);
    } else {
      total += 1 + requestedOf(sub, named as GraphQLCompositeType, ctx);
    }
  }
  return total;
}

/** The cost of one node of a connection: `edges { node }` and `nodes` each count the node once. */
function nodeCost(selectionSet: SelectionSetNode | undefined, connection: GraphQLCompositeType, ctx: Context): number {
  if (!selectionSet) return 0;
  let cost = 0;
  for (const { node, field } of selected(selectionSet, connection, ctx)) {
    const sub = (node as { selectionSet?: SelectionSetNode }).selectionSet;
    const named = getNamedType(field.type) as GraphQLCompositeType;
    if (field.name === "nodes") cost += 1 + requestedOf(sub, named, ctx);
    if (field.name === "edges" && sub) {
      for (const inner of selected(sub, named, ctx)) {
        if (inner.field.name === "node")
          cost +=
            1 +
            requestedOf(
              (inner.node as { selectionSet?: SelectionSetNode }).selectionSet,
              getNamedType(inner.field.type) as GraphQLCompositeType,
              ctx,
            );
      }
    }
  }
  return cost;
}

function actualOf(
  selectionSet: SelectionSetNode | undefined,
  type: GraphQLCompositeType,
  data: unknown,
  ctx: Context,
): number {
  if (!selectionSet || data === null || typeof data !== "object") return 0;
  let total = 0;
  const record = data as Record<string, unknown>;
  for (const { key, node, field } of selected(selectionSet, type, ctx)) {
    const named = getNamedType(field.type);
    const value = record[key];
    if (isLeafType(named) || value === null || value === undefined) continue;
    const sub = (node as { selectionSet?: SelectionSetNode }).selectionSet;
    const composite = named as GraphQLCompositeType;
    if (isConnection(named.name)) total += 2 + connectionActual(sub, composite, value, ctx);
    else if (Array.isArray(value))
      total += value.length ? 1 + Math.max(...value.map((item) => actualOf(sub, composite, item, ctx))) : 0;
    else total += 1 + actualOf(sub, composite, value, ctx);
  }
  return total;
}

/** The nodes a connection really returned, each counted once (through `edges { node }` or `nodes`). */
function connectionActual(
  selectionSet: SelectionSetNode | undefined,
  connection: GraphQLCompositeType,
  data: unknown,
  ctx: Context,
): number {
  if (!selectionSet || data === null || typeof data !== "object") return 0;
  const record = data as Record<string, unknown>;
  let total = 0;
  for (const { key, node, field } of selected(selectionSet, connection, ctx)) {
    const sub = (node as { selectionSet?: SelectionSetNode }).selectionSet;
    const named = getNamedType(field.type) as GraphQLCompositeType;
    const items = Array.isArray(record[key]) ? (record[key] as unknown[]) : [];
    if (field.name === "nodes")
      total += items.reduce((sum: number, item) => sum + 1 + actualOf(sub, named, item, ctx), 0);
    if (field.name === "edges" && sub) {
      for (const inner of selected(sub, named, ctx)) {
        if (inner.field.name !== "node") continue;
        const nodeType = getNamedType(inner.field.type) as GraphQLCompositeType;
        const nodeSelection = (inner.node as { selectionSet?: SelectionSetNode }).selectionSet;
        total += items.reduce(
          (sum: number, edge) =>
            sum + 1 + actualOf(nodeSelection, nodeType, (edge as Record<string, unknown>)?.[inner.key], ctx),
          0,
        );
      }
    }
  }
  return total;
}

export function operationCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  data?: unknown,
) {
  const ctx: Context = { schema, fragments, variables };
  const root = (operation.operation === "mutation" ? schema.getMutationType() : schema.getQueryType())!;
  const mutationCost =
    operation.operation === "mutation" ? 10 * [...selected(operation.selectionSet, root, ctx)].length : 0;
  const requested = mutationCost + requestedOf(operation.selectionSet, root, ctx);
  const actual = data === undefined ? null : mutationCost + actualOf(operation.selectionSet, root, data, ctx);
  return { requested, actual };
}
