// Every GraphQL document the app, its scripts and its extensions send to Shopify, found in their source as the
// TypeScript compiler reads it: a string or template that starts with `query`/`mutation` (after an optional
// `#graphql` marker), or the first argument of a call to something named `graphql`. Templates are evaluated: each
// `${…}` must be a constant the collector can follow (a const in the same file or one imported from another, a
// number, or another such template), so a document built at run time cannot escape the schema check: it is
// reported as unresolved and the test fails.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export interface CollectedDocument {
  /** Where the document is written, `file:line`. */
  at: string;
  text: string;
}

export interface Collection {
  documents: CollectedDocument[];
  /** Documents with a part the collector could not evaluate, `file:line: why`. */
  unresolved: string[];
}

const root = path.resolve(import.meta.dirname, "../..");
/** Where code that talks to Shopify lives; tests and the stand-in (which only answers) are not senders. */
export const SENDER_DIRS = ["app", "scripts", "server", "extensions"];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist" || name === "build" || name.startsWith(".")) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|tsx|js|jsx)$/.test(name) && !name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

const OPERATION = /^\s*(#graphql\s*)?(query|mutation|subscription)\b/;

class Evaluator {
  private readonly files = new Map<string, ts.SourceFile>();

  source(file: string): ts.SourceFile {
    let sf = this.files.get(file);
    if (!sf) {
      sf = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
      this.files.set(file, sf);
    }
    return sf;
  }

  /** The string a literal, template or constant evaluates to, or an Error saying what could not be followed. */
  evaluate(node: ts.Expression, sf: ts.SourceFile, depth = 0): string | Error {
    if (depth > 20) return new Error("constants nested too deep");
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node))
      return this.evaluate(node.expression, sf, depth);
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isNumericLiteral(node)) return node.text;
    if (ts.isTemplateExpression(node)) {
      let text = node.head.text;
      for (const span of node.templateSpans) {
        const part = this.evaluate(span.expression, sf, depth + 1);
        if (part instanceof Error) return part;
        text += part + span.literal.text;
      }
      return text;
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const left = this.evaluate(node.left, sf, depth + 1);
      if (left instanceof Error) return left;
      const right = this.evaluate(node.right, sf, depth + 1);
      return right instanceof Error ? right : left + right;
    }
    if (ts.isIdentifier(node)) return this.constant(node.text, sf, depth + 1);
    return new Error(`\`${node.getText(sf)}\` is not a constant`);
  }

  /** A `const NAME = …` of the file, or the constant it imports under that name. */
  private constant(name: string, sf: ts.SourceFile, depth: number): string | Error {
    for (const statement of sf.statements) {
      if (ts.isVariableStatement(statement) && statement.declarationList.flags & ts.NodeFlags.Const) {
        for (const decl of statement.declarationList.declarations) {
          if (ts.isIdentifier(decl.name) && decl.name.text === name && decl.initializer)
            return this.evaluate(decl.initializer, sf, depth);
        }
      }
      if (
        ts.isImportDeclaration(statement) &&
        statement.importClause?.namedBindings &&
        ts.isNamedImports(statement.importClause.namedBindings)
      ) {
        for (const element of statement.importClause.namedBindings.elements) {
          if (element.name.text !== name) continue;
          const from = (statement.moduleSpecifier as ts.StringLiteral).text;
          if (!from.startsWith(".")) return new Error(`\`${name}\` comes from the package ${from}`);
          const target = this.resolve(path.dirname(sf.fileName), from);
          if (!target) return new Error(`cannot find the module ${from}`);
          return this.constant((element.propertyName ?? element.name).text, this.source(target), depth);
        }
      }
    }
    return new Error(`\`${name}\` is not a constant of ${path.relative(root, sf.fileName)}`);
  }

  private resolve(dir: string, specifier: string): string | undefined {
    const base = path.resolve(dir, specifier);
    for (const candidate of [
      base,
      `${base}.ts`,
      `${base}.tsx`,
      path.join(base, "index.ts"),
      base.replace(/\.js$/, ".ts"),
    ]) {
      try {
        if (statSync(candidate).isFile()) return candidate;
      } catch {
        // not this one
      }
    }
    return undefined;
  }
}

function isGraphqlCallArgument(node: ts.Node): boolean {
  const call = node.parent;
  if (!call || !ts.isCallExpression(call) || call.arguments[0] !== node) return false;
  const callee = ts.isPropertyAccessExpression(call.expression)
    ? call.expression.name.text
    : ts.isIdentifier(call.expression)
      ? call.expression.text
      : "";
  return /graphql$/i.test(callee);
}

/** Collects the documents of the given directories (relative to the repository), default every sender. */
export function collectDocuments(dirs: string[] = SENDER_DIRS): Collection {
  const evaluator = new Evaluator();
  const documents: CollectedDocument[] = [];
  const unresolved: string[] = [];
  for (const dir of dirs) {
    for (const file of sourceFiles(path.join(root, dir))) {
      const sf = evaluator.source(file);
      const visit = (node: ts.Node) => {
        const literal =
          ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)
            ? node.text
            : ts.isTemplateExpression(node)
              ? node.head.text
              : undefined;
        if (
          literal !== undefined &&
          (OPERATION.test(literal) || (isGraphqlCallArgument(node) && /^\s*(#graphql\s*)?\{/.test(literal)))
        ) {
          const at = `${path.relative(root, file)}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;
          const text = evaluator.evaluate(node as ts.Expression, sf);
          if (text instanceof Error) unresolved.push(`${at}: ${text.message}`);
          else documents.push({ at, text });
          return;
        }
        // A document passed as a variable to graphql(…) is found where the variable is defined.
        ts.forEachChild(node, visit);
      };
      visit(sf);
    }
  }
  return { documents, unresolved };
}
