// Bulk query operations as Shopify runs them (shopify.dev/docs/api/usage/bulk-operations/queries): the rules a
// query given to `bulkOperationRunQuery` must follow, how many may run at once for an API version, and the JSONL
// file an operation produces (one line per node; the nodes of a nested connection are lines of their own with
// `__parentId`, the id of the node they belong to).
import {
  getNamedType,
  isListType,
  isNonNullType,
  Kind,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type FieldNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";

/** Bulk query operations an app may run at once per shop: one before API 2026-01, five from it. */
export function bulkQueryLimit(apiVersion: string): number {
  if (apiVersion === "unstable") return 5;
  return apiVersion >= "2026-01" ? 5 : 1;
}

export const MAX_BULK_CONNECTIONS = 5;
export const MAX_BULK_NESTING = 2;

const isConnectionName = (name: string) => name.endsWith("Connection");

function isList(type: GraphQLOutputType): boolean {
  return isListType(isNonNullType(type) ? type.ofType : type);
}

function fieldOf(type: GraphQLCompositeType, name: string): GraphQLField<unknown, unknown> | undefined {
  return "getFields" in type ? (type.getFields() as Record<string, GraphQLField<unknown, unknown>>)[name] : undefined;
}

export interface CheckedBulkQuery {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** The root field (a connection), by its response key. */
  root: string;
}

/**
 * The query as Shopify accepts it for a bulk operation, or the message of the user error Shopify answers with.
 * Rules: a valid query (no variables: the operation takes a string); one top-level field, a connection, and not
 * `node`/`nodes`; at least one and at most five connections; connections nested at most two levels; no
 * connection inside a list field.
 */
export function checkBulkQuery(schema: GraphQLSchema, text: string): CheckedBulkQuery | { error: string } {
  let document: DocumentNode;
  try {
    document = parse(text);
  } catch (error) {
    return { error: `Invalid bulk query: ${(error as Error).message}` };
  }
  const errors = validate(schema, document, specifiedRules);
  if (errors.length) return { error: `Invalid bulk query: ${errors[0].message}` };
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (operations.length !== 1 || operations[0].operation !== "query")
    return { error: "Bulk queries must contain exactly one query operation." };
  const operation = operations[0];
  if (operation.variableDefinitions?.length) return { error: "Bulk queries cannot use variables." };
  const roots = operation.selectionSet.selections.filter(
    (s): s is FieldNode => s.kind === Kind.FIELD && s.name.value !== "__typename",
  );
  if (roots.length !== 1 || roots.length !== operation.selectionSet.selections.length)
    return { error: "Bulk queries must contain exactly one top-level field." };
  const root = roots[0];
  if (root.name.value === "node" || root.name.value === "nodes")
    return { error: "The top-level `node` and `nodes` fields cannot be used in bulk queries." };
  const queryType = schema.getQueryType()!;
  const rootField = queryType.getFields()[root.name.value];
  if (!rootField || !isConnectionName(getNamedType(rootField.type).name))
    return { error: "Bulk queries must have a connection as their top-level field." };

  let connections = 0;
  let problem: string | null = null;
  // depth: how many connections enclose this selection; insideList: a list field encloses it.
  const walk = (
    selectionSet: SelectionSetNode | undefined,
    type: GraphQLCompositeType,
    depth: number,
    insideList: boolean,
  ) => {
    if (!selectionSet || problem) return;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const on = selection.typeCondition
          ? (schema.getType(selection.typeCondition.name.value) as GraphQLCompositeType)
          : type;
        walk(selection.selectionSet, on, depth, insideList);
        continue;
      }
      if (selection.kind !== Kind.FIELD) {
        problem = "Fragment spreads are not supported in bulk queries.";
        return;
      }
      const field = fieldOf(type, selection.name.value);
      if (!field) continue;
      const named = getNamedType(field.type);
      if (isConnectionName(named.name)) {
        connections++;
        if (insideList) {
          problem = `Queries that contain a connection field within a list field are not currently supported (${selection.name.value}).`;
          return;
        }
        if (depth + 1 > MAX_BULK_NESTING) {
          problem = `Bulk queries cannot contain connections with a nesting depth greater than ${MAX_BULK_NESTING}.`;
          return;
        }
        walk(selection.selectionSet, named as GraphQLCompositeType, depth + 1, false);
      } else if (selection.selectionSet) {
        // A connection's own `edges`/`nodes` lists are how its nodes are reached, not list fields.
        const own = isConnectionName(type.name) || type.name.endsWith("Edge");
        walk(selection.selectionSet, named as GraphQLCompositeType, depth, insideList || (!own && isList(field.type)));
      }
    }
  };
  walk(operation.selectionSet, queryType, 0, false);
  if (problem) return { error: problem };
  if (connections < 1) return { error: "Bulk queries must contain at least one connection." };
  if (connections > MAX_BULK_CONNECTIONS)
    return { error: `Bulk queries cannot contain more than ${MAX_BULK_CONNECTIONS} connections.` };
  return { document, operation, root: root.alias?.value ?? root.name.value };
}

type Json = Record<string, unknown>;

/** The nodes of a connection answer, whether it was selected through `edges { node }` or `nodes`. */
function nodesOf(connection: unknown): Json[] {
  if (!connection || typeof connection !== "object") return [];
  const value = connection as { nodes?: Json[]; edges?: Array<{ node?: Json }> };
  if (Array.isArray(value.nodes)) return value.nodes;
  if (Array.isArray(value.edges))
    return value.edges.map((edge) => edge.node).filter((node): node is Json => Boolean(node));
  return [];
}

/**
 * The JSONL lines of an executed bulk query: each node of the root connection is one line without its nested
 * connections; each node of a nested connection is a line of its own with `__parentId`. Parents come first, then
 * their children (`groupObjects: false` promises no order; a reader must not rely on one). `objects` counts lines.
 */
export function jsonlLines(
  schema: GraphQLSchema,
  checked: CheckedBulkQuery,
  data: Json,
): { lines: string[]; roots: number } {
  const parents: string[] = [];
  const children: string[] = [];
  const queryType = schema.getQueryType()!;
  const rootSelection = checked.operation.selectionSet.selections[0] as FieldNode;
  const rootType = getNamedType(queryType.getFields()[rootSelection.name.value].type) as GraphQLCompositeType;

  /** A node's own fields, with nested connections taken out and written as child lines. */
  const flatten = (
    node: Json,
    selection: SelectionSetNode | undefined,
    type: GraphQLCompositeType,
    parentId: string | null,
    out: string[],
  ) => {
    const own: Json = {};
    const nested: Array<{ nodes: Json[]; selection: SelectionSetNode | undefined; type: GraphQLCompositeType }> = [];
    const collect = (set: SelectionSetNode | undefined, on: GraphQLCompositeType) => {
      for (const s of set?.selections ?? []) {
        if (s.kind === Kind.INLINE_FRAGMENT) {
          collect(
            s.selectionSet,
            s.typeCondition ? (schema.getType(s.typeCondition.name.value) as GraphQLCompositeType) : on,
          );
          continue;
        }
        if (s.kind !== Kind.FIELD) continue;
        const key = s.alias?.value ?? s.name.value;
        const field = fieldOf(on, s.name.value);
        const named = field ? getNamedType(field.type) : null;
        if (named && isConnectionName(named.name))
          nested.push({
            nodes: nodesOf(node[key]),
            selection: nodeSelection(s.selectionSet),
            type: nodeType(named as GraphQLCompositeType),
          });
        else if (key in node) own[key] = node[key];
      }
    };
    collect(selection, type);
    if (parentId) own.__parentId = parentId;
    out.push(JSON.stringify(own));
    const id = typeof node.id === "string" ? node.id : null;
    for (const connection of nested)
      for (const child of connection.nodes) flatten(child, connection.selection, connection.type, id, children);
  };
  const nodeType = (connection: GraphQLCompositeType) =>
    getNamedType(fieldOf(connection, "nodes")!.type) as GraphQLCompositeType;
  const nodeSelection = (set: SelectionSetNode | undefined): SelectionSetNode | undefined => {
    for (const s of set?.selections ?? []) {
      if (s.kind !== Kind.FIELD) continue;
      if (s.name.value === "nodes") return s.selectionSet;
      if (s.name.value === "edges") {
        for (const inner of s.selectionSet?.selections ?? [])
          if (inner.kind === Kind.FIELD && inner.name.value === "node") return inner.selectionSet;
      }
    }
    return undefined;
  };
  const roots = nodesOf(data[checked.root]);
  for (const node of roots) flatten(node, nodeSelection(rootSelection.selectionSet), nodeType(rootType), null, parents);
  return { lines: [...parents, ...children], roots: roots.length };
}
