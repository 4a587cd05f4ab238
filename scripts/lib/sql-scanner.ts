// A small SQL statement scanner for the migration safety check (scripts/lib/migration-safety.ts,
// docs/decisions/0047-migration-expand-contract.md): it splits a migration into statements and tokens the way SQLite
// and PostgreSQL read them (quoted identifiers, string literals with their escapes, PostgreSQL's dollar quotes,
// comments, nested block comments on PostgreSQL), so a `;` or `--` inside a literal never cuts a statement. It parses
// only what the check needs: table and column definitions. Anything it cannot read is an error, never a guess.

export type Dialect = "sqlite" | "postgresql";

export interface Token {
  /** word: an unquoted keyword or name; ident: a quoted name; string: a literal (value without its quotes). */
  kind: "word" | "ident" | "string" | "number" | "punct";
  text: string;
  value: string;
}

export interface Statement {
  tokens: Token[];
  /** The line (1-based) the statement starts on. */
  line: number;
}

export interface Scanned {
  statements: Statement[];
  /** The `--` comment lines before the first statement, as written. */
  leadingComments: string[];
}

const WORD = /[A-Za-z_\u0080-\uffff][\w$\u0080-\uffff]*/y;
const NUMBER = /(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;
const DOLLAR_TAG = /\$(?:[A-Za-z_][\w]*)?\$/y;

export function scanStatements(sql: string, dialect: Dialect): Scanned {
  const statements: Statement[] = [];
  const leadingComments: string[] = [];
  let tokens: Token[] = [];
  let start = 0;
  let i = 0;
  const lineOf = (at: number) => sql.slice(0, at).split("\n").length;
  const fail = (what: string, at: number): never => {
    throw new Error(`${what} at line ${lineOf(at)}`);
  };
  const push = (token: Token, at: number) => {
    if (tokens.length === 0) start = at;
    tokens.push(token);
  };
  // A quoted run ending at `close`, a doubled `close` standing for itself; returns the index after the closing quote.
  const quoted = (open: number, close: string, backslash = false): [string, number] => {
    let value = "";
    let j = open + 1;
    for (;;) {
      if (j >= sql.length) fail(`unterminated ${close} quote`, open);
      const ch = sql[j];
      if (backslash && ch === "\\") {
        value += sql.slice(j, j + 2);
        j += 2;
      } else if (ch === close) {
        if (sql[j + 1] !== close || close === "]") return [value, j + 1];
        value += close;
        j += 2;
      } else {
        value += ch;
        j += 1;
      }
    }
  };

  while (i < sql.length) {
    const ch = sql[i];
    if (/\s/.test(ch)) {
      i += 1;
    } else if (sql.startsWith("--", i)) {
      const end = sql.indexOf("\n", i);
      const stop = end < 0 ? sql.length : end;
      if (statements.length === 0 && tokens.length === 0) leadingComments.push(sql.slice(i, stop).trimEnd());
      i = stop;
    } else if (sql.startsWith("/*", i)) {
      // PostgreSQL nests block comments; SQLite ends one at the first */.
      let depth = 1;
      let j = i + 2;
      while (depth > 0) {
        if (j >= sql.length) fail("unterminated block comment", i);
        if (sql.startsWith("*/", j)) {
          depth -= 1;
          j += 2;
        } else if (dialect === "postgresql" && sql.startsWith("/*", j)) {
          depth += 1;
          j += 2;
        } else j += 1;
      }
      i = j;
    } else if (ch === ";") {
      if (tokens.length > 0) statements.push({ tokens, line: lineOf(start) });
      tokens = [];
      i += 1;
    } else if (ch === "'") {
      const [value, next] = quoted(i, "'");
      push({ kind: "string", text: sql.slice(i, next), value }, i);
      i = next;
    } else if (dialect === "postgresql" && /[eE]/.test(ch) && sql[i + 1] === "'") {
      // E'…': backslash escapes.
      const [value, next] = quoted(i + 1, "'", true);
      push({ kind: "string", text: sql.slice(i, next), value }, i);
      i = next;
    } else if (ch === '"' || (dialect === "sqlite" && (ch === "`" || ch === "["))) {
      const [value, next] = quoted(i, ch === "[" ? "]" : ch);
      push({ kind: "ident", text: sql.slice(i, next), value }, i);
      i = next;
    } else if (dialect === "postgresql" && ch === "$" && ((DOLLAR_TAG.lastIndex = i), DOLLAR_TAG.test(sql))) {
      const tag = sql.slice(i, DOLLAR_TAG.lastIndex);
      const end = sql.indexOf(tag, DOLLAR_TAG.lastIndex);
      if (end < 0) fail(`unterminated ${tag} quote`, i);
      push({ kind: "string", text: sql.slice(i, end + tag.length), value: sql.slice(i + tag.length, end) }, i);
      i = end + tag.length;
    } else if (((WORD.lastIndex = i), WORD.test(sql))) {
      const text = sql.slice(i, WORD.lastIndex);
      push({ kind: "word", text, value: text }, i);
      i = WORD.lastIndex;
    } else if (((NUMBER.lastIndex = i), NUMBER.test(sql))) {
      const text = sql.slice(i, NUMBER.lastIndex);
      push({ kind: "number", text, value: text }, i);
      i = NUMBER.lastIndex;
    } else {
      push({ kind: "punct", text: ch, value: ch }, i);
      i += 1;
    }
  }
  if (tokens.length > 0) statements.push({ tokens, line: lineOf(start) });
  return { statements, leadingComments };
}

/** A name as the database compares it: SQLite ignores case; PostgreSQL folds unquoted names to lower case. */
export interface Name {
  name: string;
  key: string;
}

export function nameOf(token: Token, dialect: Dialect): Name {
  const key = dialect === "sqlite" || token.kind === "word" ? token.value.toLowerCase() : token.value;
  return { name: token.value, key };
}

/** A cursor over one statement's tokens. Keywords match unquoted words only, whatever their case. */
export class Cursor {
  constructor(
    readonly tokens: Token[],
    readonly dialect: Dialect,
    public at = 0,
  ) {}

  get done(): boolean {
    return this.at >= this.tokens.length;
  }

  peek(offset = 0): Token | undefined {
    return this.tokens[this.at + offset];
  }

  isWord(offset: number, ...words: string[]): boolean {
    const token = this.peek(offset);
    return token?.kind === "word" && words.includes(token.value.toUpperCase());
  }

  /** Consumes the keywords if they come next, in this order. */
  accept(...words: string[]): boolean {
    if (!words.every((word, k) => this.isWord(k, word))) return false;
    this.at += words.length;
    return true;
  }

  isPunct(text: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token?.kind === "punct" && token.text === text;
  }

  /** A possibly qualified name (`"public"."Invoice"`): its last part. */
  name(): Name {
    const token = this.peek();
    if (!token || (token.kind !== "word" && token.kind !== "ident"))
      throw new Error(`a name expected, not ${token?.text}`);
    this.at += 1;
    if (this.isPunct(".") && (this.peek(1)?.kind === "ident" || this.peek(1)?.kind === "word")) {
      this.at += 1;
      return this.name();
    }
    return nameOf(token, this.dialect);
  }

  /** The tokens of the parenthesised group that starts here, without its parentheses. */
  group(): Token[] {
    if (!this.isPunct("(")) throw new Error(`( expected, not ${this.peek()?.text}`);
    const from = this.at + 1;
    let depth = 0;
    do {
      if (this.done) throw new Error("unbalanced parentheses");
      if (this.isPunct("(")) depth += 1;
      else if (this.isPunct(")")) depth -= 1;
      this.at += 1;
    } while (depth > 0);
    return this.tokens.slice(from, this.at - 1);
  }

  rest(): Token[] {
    const rest = this.tokens.slice(this.at);
    this.at = this.tokens.length;
    return rest;
  }
}

/** Splits tokens at the commas outside parentheses and brackets. */
export function splitTopLevel(tokens: Token[]): Token[][] {
  const parts: Token[][] = [[]];
  let depth = 0;
  for (const token of tokens) {
    if (token.kind === "punct" && (token.text === "(" || token.text === "[")) depth += 1;
    if (token.kind === "punct" && (token.text === ")" || token.text === "]")) depth -= 1;
    if (depth === 0 && token.kind === "punct" && token.text === ",") parts.push([]);
    else parts.at(-1)!.push(token);
  }
  return parts.filter((part) => part.length > 0);
}

export interface ColumnDef extends Name {
  /** Upper-cased, spaced only between words: `TIMESTAMP(3)`, `DOUBLE PRECISION`, `TEXT[]`. */
  type: string;
  notNull: boolean;
  /** A value comes without the writer naming the column: DEFAULT, a generated or identity column, a serial type. */
  hasDefault: boolean;
}

const COLUMN_CONSTRAINT = ["CONSTRAINT", "NOT", "NULL", "DEFAULT", "PRIMARY", "UNIQUE", "REFERENCES", "CHECK"];
const COLUMN_CONSTRAINT_MORE = ["COLLATE", "GENERATED", "AS"];
export const TABLE_CONSTRAINT = ["CONSTRAINT", "PRIMARY", "UNIQUE", "FOREIGN", "CHECK", "EXCLUDE", "LIKE"];

/** One column definition (`"name" TYPE constraints…`), from CREATE TABLE or ADD COLUMN. */
export function parseColumn(tokens: Token[], dialect: Dialect): ColumnDef {
  const cursor = new Cursor(tokens, dialect);
  const name = nameOf(cursor.peek()!, dialect);
  cursor.at = 1;
  let type = "";
  const word = (token: Token | undefined) => token?.kind === "word" || token?.kind === "number";
  while (!cursor.done && !cursor.isWord(0, ...COLUMN_CONSTRAINT, ...COLUMN_CONSTRAINT_MORE)) {
    const token = cursor.peek()!;
    const previous = cursor.peek(-1);
    if (type && word(token) && cursor.at > 1 && word(previous)) type += " ";
    type += token.kind === "word" ? token.value.toUpperCase() : token.text;
    cursor.at += 1;
  }
  let notNull = false;
  let hasDefault = /^(SMALL|BIG)?SERIAL$/.test(type);
  let depth = 0;
  for (; !cursor.done; cursor.at += 1) {
    if (cursor.isPunct("(")) depth += 1;
    if (cursor.isPunct(")")) depth -= 1;
    if (depth > 0) continue;
    if (cursor.isWord(0, "NOT") && cursor.isWord(1, "NULL")) notNull = true;
    if (cursor.isWord(0, "PRIMARY")) {
      notNull = true;
      // SQLite's INTEGER PRIMARY KEY is the rowid: filled in when not given.
      if (dialect === "sqlite" && type === "INTEGER") hasDefault = true;
    }
    if (cursor.isWord(0, "DEFAULT", "GENERATED", "AS")) hasDefault = true;
  }
  return { ...name, type, notNull, hasDefault };
}
