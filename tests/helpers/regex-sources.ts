/**
 * Every regular expression written in the source: each regex literal, and each `new RegExp(...)` or
 * `RegExp(...)` call, found by parsing the files with the TypeScript compiler (a text search would miss a
 * pattern split over lines and take one in a comment or string for code). A call's source is known when it is a
 * literal, or a template whose every part is a `const` of the same file with a known literal value; any other
 * (a pattern built at run time) is reported as such, so the caller can account for it by checking the built
 * pattern itself.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

export interface FoundRegex {
  /** Where it is written: `lib/x.ts:12`. */
  site: string;
  /** The file it is in, relative to the root: `lib/x.ts`. */
  file: string;
  /** The pattern's source, or null when it is built at run time (not a literal). */
  source: string | null;
  flags: string;
}

/** The `.ts` and `.tsx` files under `dir`, depth first in name order. */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (
    const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))
  ) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** A string's value when it is written as a literal, from literals and the file's known `const` strings. */
function literalText(node: ts.Node | undefined, consts: ReadonlyMap<string, string>): string | null {
  if (node === undefined) return null;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isIdentifier(node)) return consts.get(node.text) ?? null;
  // String.raw`...`: the raw text is the string.
  if (ts.isTaggedTemplateExpression(node) && node.tag.getText() === "String.raw") {
    return templateText(node.template, consts, (part) => part.rawText ?? null);
  }
  if (ts.isTemplateExpression(node)) return templateText(node, consts, (part) => part.text);
  return null;
}

function templateText(
  template: ts.TemplateLiteral,
  consts: ReadonlyMap<string, string>,
  textOf: (part: ts.TemplateLiteralLikeNode) => string | null,
): string | null {
  if (ts.isNoSubstitutionTemplateLiteral(template)) return textOf(template);
  let text = textOf(template.head);
  for (const span of template.templateSpans) {
    const value = literalText(span.expression, consts);
    const tail = textOf(span.literal);
    if (text === null || value === null || tail === null) return null;
    text += value + tail;
  }
  return text;
}

/** The file's top-level `const NAME = <literal string>` values, in order (a later one may use an earlier one). */
function constStrings(file: ts.SourceFile): Map<string, string> {
  const consts = new Map<string, string>();
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement) || !(statement.declarationList.flags & ts.NodeFlags.Const)) {
      continue;
    }
    for (const declaration of statement.declarationList.declarations) {
      const value = literalText(declaration.initializer, consts);
      if (ts.isIdentifier(declaration.name) && value !== null) consts.set(declaration.name.text, value);
    }
  }
  return consts;
}

function isRegExpCall(node: ts.Node): node is ts.NewExpression | ts.CallExpression {
  return (ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) &&
    node.expression.text === "RegExp";
}

/** The regular expressions written in every source file under `dirs` (paths relative to `root`). */
export function regexesIn(root: string, dirs: readonly string[]): FoundRegex[] {
  const found: FoundRegex[] = [];
  for (const dir of dirs) {
    for (const path of sourceFiles(join(root, dir))) {
      const text = readFileSync(path, "utf8");
      const kind = path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
      const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
      const consts = constStrings(file);
      const name = relative(root, path);
      const site = (node: ts.Node) => ({
        file: name,
        site: `${name}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}`,
      });
      const visit = (node: ts.Node): void => {
        if (ts.isRegularExpressionLiteral(node)) {
          const slash = node.text.lastIndexOf("/");
          found.push({ ...site(node), source: node.text.slice(1, slash), flags: node.text.slice(slash + 1) });
        } else if (isRegExpCall(node)) {
          const [source, flags] = node.arguments ?? [];
          const flagText = flags === undefined ? "" : literalText(flags, consts);
          const sourceText = literalText(source, consts);
          // Unknown flags make the source as unknown as a built one: the checker needs both.
          found.push({ ...site(node), source: flagText === null ? null : sourceText, flags: flagText ?? "" });
        }
        ts.forEachChild(node, visit);
      };
      visit(file);
    }
  }
  return found;
}
