// Expand now, contract later (docs/decisions/0047-migration-expand-contract.md, docs/operations.md "Rolling
// deploys"): during a rolling deploy the previous release runs on the schema the new release has already migrated,
// so a migration must not drop or rename a table or column, change a column's type, make a column required, take
// the default of a required column away, or add a required column without a default to an existing table, unless
// its first lines mark it as a contract step naming each such object:
//   -- contract: Invoice.legacyTotal, OldTable no longer read since release 2027.01
// The check replays each provider's migrations in order, keeping every table's columns, so SQLite's table rebuild
// (CREATE TABLE "new_X" …; INSERT INTO "new_X" … SELECT … FROM "X"; DROP TABLE "X"; ALTER TABLE "new_X" RENAME TO "X")
// is judged by what it changes between the old and the new definition, not as a drop and a rename.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { migrationsDir, readMigrations } from "../../app/db/migrate";
import {
  Cursor,
  TABLE_CONSTRAINT,
  parseColumn,
  scanStatements,
  splitTopLevel,
  type ColumnDef,
  type Dialect,
  type Name,
  type Token,
} from "./sql-scanner";

export interface MigrationInput {
  name: string;
  sql: string;
  /** The models the migration leads to (its folder's schema.snapshot.prisma), when known. */
  models?: string;
}

export type FindingKind =
  | "drops table"
  | "renames table"
  | "drops column"
  | "renames column"
  | "changes the type of column"
  | "makes column required"
  | "takes the default of required column"
  | "adds required column without default"
  | "cannot tell what this does to";

export interface Finding {
  kind: FindingKind;
  /** `Table` or `Table.column`, as the contract marker names it. */
  object: string;
  detail?: string;
  line: number;
}

export interface Verdict {
  migration: string;
  findings: Finding[];
  /** The objects its contract marker names, or null when it is not a contract step. */
  contract: string[] | null;
  /** What the check refuses: findings not named by a contract marker, and faults of the marker itself. */
  refused: string[];
}

export const describeFinding = (f: Finding) =>
  `line ${f.line}: ${f.kind} ${f.object}${f.detail ? ` (${f.detail})` : ""}`;

interface Table extends Name {
  /** null: not known (made outside the migrations read, or by CREATE TABLE … AS). */
  columns: Map<string, ColumnDef> | null;
}

interface Copy {
  target: string;
  source: string;
  /** target column key → source column key, or null when an expression fills it. */
  pairs: Map<string, string | null>;
}

/** The object of a finding about a statement the check cannot read: no marker can name it. */
const STATEMENT = "the statement at line";

const IGNORED = [
  "PRAGMA", "UPDATE", "DELETE", "INSERT", "REPLACE", "SELECT", "WITH", "COMMENT", "DO", "BEGIN", "COMMIT", "END",
  "SET", "ANALYZE", "VACUUM", "REINDEX", "GRANT", "REVOKE", "TRUNCATE", "NOTIFY", "LOCK", "SAVEPOINT", "RELEASE",
]; // prettier-ignore

export interface Checked {
  verdicts: Verdict[];
  /** The tables the migrations lead to, each with its columns (in order), as the check followed them. */
  tables: Map<string, string[] | null>;
}

/** Replays one provider's migrations in order; a verdict for each. */
export function checkMigrations(dialect: Dialect, migrations: MigrationInput[]): Checked {
  const tables = new Map<string, Table>();
  const verdicts = migrations.map((migration, index) => {
    let scanned: ReturnType<typeof scanStatements>;
    try {
      scanned = scanStatements(migration.sql, dialect);
    } catch (error) {
      throw new Error(`${migration.name}: ${(error as Error).message}`, { cause: error });
    }
    const { statements, leadingComments } = scanned;
    const findings = analyse(dialect, tables, statements);
    const { names: named, error } = readMarker(leadingComments);
    const refused: string[] = error ? [error] : [];
    for (const finding of findings)
      if (!named?.includes(finding.object))
        refused.push(
          `${describeFinding(finding)}: ` +
            (finding.object.startsWith(STATEMENT)
              ? "the check cannot read this statement; write it as plain DDL it reads (scripts/lib/migration-safety.ts)"
              : named
                ? "not named by the contract marker"
                : "the previous release, still running during a rolling deploy, would break: expand now and contract " +
                  `in a later release, marked "-- contract: ${finding.object} no longer read since release …"`),
        );
    for (const object of named ?? []) {
      if (!findings.some((f) => f.object === object))
        refused.push(`the contract marker names ${object}, which this migration does not drop or change`);
      const gone = findings.some((f) => f.object === object && /^(drops|renames)/.test(f.kind));
      const snapshots: [string, string | undefined][] = [
        ["the previous migration's models (the release before still reads them)", migrations[index - 1]?.models],
        ["this migration's models", migration.models],
      ];
      for (const [which, models] of snapshots)
        if (gone && models && inModels(modelColumns(models), object))
          refused.push(`the contract marker names ${object}, which is still in ${which}`);
    }
    return { migration: migration.name, findings, contract: named, refused };
  });
  const columns = (table: Table) => (table.columns ? [...table.columns.values()].map((column) => column.name) : null);
  return { verdicts, tables: new Map([...tables.values()].map((table) => [table.name, columns(table)])) };
}

/** A provider's migrations as `npm run db:migrate` applies them, with the models each leads to. */
export function readMigrationHistory(dialect: Dialect, root = process.cwd()): MigrationInput[] {
  return readMigrations(dialect, root).map(({ name, sql }) => {
    const snapshot = path.join(migrationsDir(dialect, root), name, "schema.snapshot.prisma");
    return { name, sql, models: existsSync(snapshot) ? readFileSync(snapshot, "utf8") : undefined };
  });
}

const MARKER = /^--\s*contract:\s*(.*?)\s+no longer read since\s+(\S.*)$/i;
const OBJECT = /^"?([A-Za-z_][\w$]*)"?(?:\."?([A-Za-z_][\w$]*)"?)?$/;

function readMarker(comments: string[]): { names: string[] | null; error?: string } {
  const line = comments.find((comment) => /^--\s*contract\b/i.test(comment));
  if (!line) return { names: null };
  const match = MARKER.exec(line);
  const names = match?.[1].split(/\s*,\s*/).map((name) => OBJECT.exec(name));
  if (!match || !names || names.some((name) => !name))
    return {
      names: null,
      error: `the contract marker "${line}" is not "-- contract: Table.column, Table no longer read since release X"`,
    };
  return { names: names.map((m) => (m![2] ? `${m![1]}.${m![2]}` : m![1])) };
}

/** Each model's table and column names (after @@map and @map), relation fields left out. */
export function modelColumns(schema: string): Map<string, Set<string>> {
  const blocks = [...schema.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)];
  const modelNames = new Set(blocks.map((block) => block[1]));
  const result = new Map<string, Set<string>>();
  for (const [, model, body] of blocks) {
    const table = /@@map\(\s*"([^"]+)"/.exec(body)?.[1] ?? model;
    const columns = new Set<string>();
    for (const line of body.split("\n")) {
      const field = /^\s*(\w+)\s+(\w+)(\[\])?\??(.*)$/.exec(line);
      if (!field || modelNames.has(field[2])) continue;
      columns.add(/@map\(\s*"([^"]+)"/.exec(field[4])?.[1] ?? field[1]);
    }
    result.set(table, columns);
  }
  return result;
}

function inModels(models: Map<string, Set<string>>, object: string): boolean {
  const [table, column] = object.split(".");
  return column ? Boolean(models.get(table)?.has(column)) : models.has(table);
}

function analyse(dialect: Dialect, tables: Map<string, Table>, statements: { tokens: Token[]; line: number }[]) {
  const findings: Finding[] = [];
  const created = new Set<string>(); // tables this migration made: nothing running reads them yet
  const dropped = new Map<string, { table: Table; line: number }>(); // existing tables dropped, maybe rebuilt
  const copies: Copy[] = [];

  for (const { tokens, line } of statements) {
    const c = new Cursor(tokens, dialect);
    const flag = (kind: FindingKind, object: string, detail?: string) => findings.push({ kind, object, detail, line });
    const opening = tokens
      .slice(0, 8)
      .map((token) => token.text)
      .join(" ");
    const unknown = (object: string) => flag("cannot tell what this does to", object, opening);
    try {
      if (c.accept("CREATE")) {
        c.accept("OR", "REPLACE");
        while (c.accept("TEMP") || c.accept("TEMPORARY") || c.accept("UNLOGGED") || c.accept("VIRTUAL")) continue;
        if (!c.accept("TABLE")) continue;
        const ifNew = c.accept("IF", "NOT", "EXISTS");
        const name = c.name();
        if (ifNew && tables.has(name.key)) continue;
        tables.set(name.key, { ...name, columns: c.isPunct("(") ? columnsOf(c.group(), dialect) : null });
        created.add(name.key);
      } else if (c.accept("DROP")) {
        if (!c.accept("TABLE")) continue;
        c.accept("IF", "EXISTS");
        for (const part of splitTopLevel(c.rest())) {
          const name = new Cursor(part, dialect).name();
          const table = tables.get(name.key) ?? { ...name, columns: null };
          tables.delete(name.key);
          if (!created.delete(name.key)) dropped.set(name.key, { table, line });
        }
      } else if (c.accept("INSERT") || c.accept("REPLACE")) {
        const copy = copyOf(c, tables);
        if (copy) copies.push(copy);
      } else if (c.accept("ALTER")) {
        if (!c.accept("TABLE")) continue;
        c.accept("IF", "EXISTS");
        c.accept("ONLY");
        const name = c.name();
        const table = tables.get(name.key) ?? { ...name, columns: null };
        tables.set(name.key, table);
        const isNew = created.has(name.key);
        if (c.accept("RENAME", "TO")) {
          const to = c.name();
          tables.delete(name.key);
          const old = dropped.get(to.key);
          if (old && isNew) {
            // SQLite's table rebuild: judged by what changes between the old definition and the new one.
            dropped.delete(to.key);
            const copy = copies.find((x) => x.target === name.key && x.source === to.key);
            for (const f of compareRebuild(old.table, table, copy)) flag(f.kind, f.object, f.detail);
            tables.set(to.key, { ...to, columns: table.columns });
            created.delete(name.key);
          } else {
            if (!isNew) flag("renames table", table.name, `to ${to.name}`);
            tables.set(to.key, { ...to, columns: table.columns });
            if (isNew) {
              created.delete(name.key);
              created.add(to.key);
            }
          }
          continue;
        }
        for (const action of splitTopLevel(c.rest())) {
          const a = new Cursor(action, dialect);
          const found = alterAction(a, table, dialect);
          if (!found) unknown(table.name);
          else if (!isNew && found !== true) flag(found.kind, `${table.name}.${found.column}`, found.detail);
          if (found && found !== true) found.apply();
        }
      } else if (!c.isWord(0, ...IGNORED)) {
        unknown(`${STATEMENT} ${line}`);
      }
    } catch (error) {
      unknown(`${STATEMENT} ${line}: ${(error as Error).message}`);
    }
  }
  for (const { table, line } of dropped.values()) findings.push({ kind: "drops table", object: table.name, line });
  return findings;
}

function columnsOf(body: Token[], dialect: Dialect): Map<string, ColumnDef> {
  const columns = new Map<string, ColumnDef>();
  for (const part of splitTopLevel(body)) {
    const c = new Cursor(part, dialect);
    if (!c.isWord(0, ...TABLE_CONSTRAINT)) {
      const column = parseColumn(part, dialect);
      columns.set(column.key, column);
      continue;
    }
    // A table's PRIMARY KEY (…) makes its columns NOT NULL.
    while (!c.done && !c.isWord(0, "PRIMARY")) c.at += 1;
    if (!c.accept("PRIMARY", "KEY") || !c.isPunct("(")) continue;
    for (const key of splitTopLevel(c.group())) {
      const column = columns.get(new Cursor(key, dialect).name().key);
      if (column) column.notNull = true;
    }
  }
  return columns;
}

/** INSERT INTO target [(columns)] SELECT items FROM source: which source column fills each target column. */
function copyOf(c: Cursor, tables: Map<string, Table>): Copy | null {
  while (!c.done && !c.accept("INTO")) c.at += 1;
  if (c.done) return null;
  const target = c.name();
  const targets = c.isPunct("(")
    ? splitTopLevel(c.group()).map((part) => new Cursor(part, c.dialect).name().key)
    : [...(tables.get(target.key)?.columns?.keys() ?? [])];
  if (!c.accept("SELECT")) return null;
  if (!c.accept("DISTINCT")) c.accept("ALL");
  const items: Token[] = [];
  for (let depth = 0; !c.done && !(depth === 0 && c.isWord(0, "FROM")); c.at += 1) {
    if (c.isPunct("(")) depth += 1;
    if (c.isPunct(")")) depth -= 1;
    items.push(c.peek()!);
  }
  if (!c.accept("FROM") || c.done) return null;
  const source = c.name();
  const parts = splitTopLevel(items);
  const sources =
    parts.length === 1 && parts[0].length === 1 && parts[0][0].text === "*"
      ? [...(tables.get(source.key)?.columns?.keys() ?? [])]
      : parts.map((part) => {
          // A bare (or qualified) column, maybe with an alias; anything else is an expression.
          const item = new Cursor(part, c.dialect);
          try {
            const name = item.name();
            if (item.accept("AS")) item.name();
            return item.done ? name.key : null;
          } catch {
            return null;
          }
        });
  return { target: target.key, source: source.key, pairs: new Map(targets.map((t, k) => [t, sources[k] ?? null])) };
}

function compareRebuild(old: Table, next: Table, copy: Copy | undefined) {
  const out: { kind: FindingKind; object: string; detail?: string }[] = [];
  if (!old.columns || !next.columns) {
    out.push({ kind: "cannot tell what this does to", object: old.name, detail: "a rebuild of a table not known" });
    return out;
  }
  const renamedTo = new Map<string, string>(); // old column key → new column key
  for (const [target, source] of copy?.pairs ?? [])
    if (source && source !== target && old.columns.has(source) && !old.columns.has(target))
      renamedTo.set(source, target);
  for (const [key, column] of old.columns) {
    const object = `${old.name}.${column.name}`;
    const now = next.columns.get(key);
    if (!now) {
      const to = renamedTo.get(key);
      if (to) out.push({ kind: "renames column", object, detail: `to ${next.columns.get(to)?.name ?? to}` });
      else out.push({ kind: "drops column", object });
      continue;
    }
    const from = copy?.pairs.get(key);
    if (from !== key && from !== null)
      out.push({ kind: "drops column", object, detail: "the rebuild does not copy its values" });
    out.push(...changes(column, now, object));
  }
  for (const [key, column] of next.columns)
    if (!old.columns.has(key) && ![...renamedTo.values()].includes(key) && column.notNull && !column.hasDefault)
      out.push({ kind: "adds required column without default", object: `${old.name}.${column.name}` });
  return out;
}

function changes(before: ColumnDef, after: ColumnDef, object: string) {
  const out: { kind: FindingKind; object: string; detail?: string }[] = [];
  if (before.type !== after.type)
    out.push({ kind: "changes the type of column", object, detail: `${before.type} to ${after.type}` });
  if (!before.notNull && after.notNull) out.push({ kind: "makes column required", object });
  else if (before.notNull && after.notNull && before.hasDefault && !after.hasDefault)
    out.push({ kind: "takes the default of required column", object });
  return out;
}

interface ColumnChange {
  kind: FindingKind;
  /** The column's name as the table defines it (as written when the table is not known). */
  column: string;
  detail?: string;
  apply: () => void;
}

/**
 * One action of ALTER TABLE: true when it cannot hurt the previous release (a constraint, a nullable column …, applied
 * to the table's columns already), a change to report and apply, or null when it is not understood.
 */
function alterAction(a: Cursor, table: Table, dialect: Dialect): true | ColumnChange | null {
  const columns = table.columns;
  const harmless = ["VALIDATE", "ENABLE", "DISABLE", "OWNER", "REPLICA", "CLUSTER", "FORCE", "NO", "INHERIT"];
  if (a.isWord(0, ...harmless) || a.accept("RENAME", "CONSTRAINT") || a.accept("ALTER", "CONSTRAINT")) return true;
  if (a.accept("SET") && (a.isPunct("(") || a.isWord(0, "LOGGED", "UNLOGGED", "TABLESPACE", "ACCESS", "WITHOUT")))
    return true;
  a.at = 0;
  if (a.accept("RENAME")) {
    a.accept("COLUMN");
    const from = a.name();
    if (!a.accept("TO")) return null;
    const to = a.name();
    const column = columns?.get(from.key);
    const apply = () => {
      if (!column) return;
      columns!.delete(from.key);
      columns!.set(to.key, { ...column, ...to });
    };
    return { kind: "renames column", column: column?.name ?? from.name, detail: `to ${to.name}`, apply };
  }
  if (a.accept("ADD")) {
    if (a.isWord(0, ...TABLE_CONSTRAINT)) return true;
    a.accept("COLUMN");
    a.accept("IF", "NOT", "EXISTS");
    const column = parseColumn(a.rest(), dialect);
    const apply = () => void columns?.set(column.key, column);
    if (column.notNull && !column.hasDefault)
      return { kind: "adds required column without default", column: column.name, apply };
    apply();
    return true;
  }
  if (a.accept("DROP")) {
    if (a.accept("CONSTRAINT")) return true;
    a.accept("COLUMN");
    a.accept("IF", "EXISTS");
    const name = a.name();
    const column = columns?.get(name.key);
    return { kind: "drops column", column: column?.name ?? name.name, apply: () => void columns?.delete(name.key) };
  }
  if (!a.accept("ALTER")) return null;
  a.accept("COLUMN");
  const name = a.name();
  const column = columns?.get(name.key) ?? { ...name, type: "", notNull: true, hasDefault: false };
  const change = (kind: FindingKind, apply: () => void, detail?: string): ColumnChange => ({
    kind,
    column: column.name,
    detail,
    apply,
  });
  if (a.accept("SET", "DATA", "TYPE") || a.accept("TYPE")) {
    // The type runs to USING, COLLATE or the end: parsed as a column definition's type.
    const rest = a.rest();
    const using = rest.findIndex((token) => token.kind === "word" && token.value.toUpperCase() === "USING");
    const typed = [{ kind: "ident", text: "x", value: "x" } as Token, ...(using < 0 ? rest : rest.slice(0, using))];
    const type = parseColumn(typed, dialect).type;
    return change("changes the type of column", () => (column.type = type), `to ${type}`);
  }
  if (a.accept("SET", "NOT", "NULL")) return change("makes column required", () => (column.notNull = true));
  if (a.accept("DROP", "NOT", "NULL")) {
    column.notNull = false;
    return true;
  }
  if (a.accept("SET", "DEFAULT")) {
    column.hasDefault = true;
    return true;
  }
  if (a.accept("DROP", "DEFAULT")) {
    // A column not known is taken as required: the check errs on the side of refusing.
    if (column.notNull) return change("takes the default of required column", () => (column.hasDefault = false));
    column.hasDefault = false;
    return true;
  }
  if (a.isWord(0, "SET", "RESET") && (a.isWord(1, "STATISTICS", "STORAGE", "COMPRESSION") || a.isPunct("(", 1)))
    return true;
  return null;
}
