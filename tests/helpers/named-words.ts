/**
 * The words a source file's code says: its identifiers and the text of its string, template and JSX literals,
 * read with TypeScript's own parser (so a comment, where a word explains an example, is no code and says
 * nothing here). An identifier is split where its case changes (`CodexEngine` says "codex engine"); a snake_case
 * one is kept whole, as the foreign format whose field it names spells it (Hermes's `codex_reasoning_items`).
 * Everything is lower case.
 */
import ts from "typescript";

/** A word said in code, with the line it is on (1-based). */
export interface SaidWord {
  text: string;
  line: number;
}

const splitIdentifier = (name: string): string =>
  name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2");

/** Every identifier and literal text in `text` (a .ts or .tsx file named `path`), in source order. */
export function wordsInCode(path: string, text: string): SaidWord[] {
  const kind = path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, kind);
  const said: SaidWord[] = [];
  const add = (node: ts.Node, words: string) =>
    said.push({
      text: words.toLowerCase(),
      line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
    });
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) add(node, splitIdentifier(node.text));
    else if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node) || ts.isJsxText(node)) {
      add(node, node.text);
    } else if (ts.isRegularExpressionLiteral(node)) add(node, node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return said;
}

/**
 * Whether `words` (lower case) says `name` as a whole word: not inside a longer word, nor inside a hyphenated
 * one. A model id (`claude-opus-4-5`, `gpt-5-codex`) names a model, not the harness whose name it contains.
 */
export function saysWord(words: string, name: string): boolean {
  const wanted = name.toLowerCase();
  for (let at = words.indexOf(wanted); at >= 0; at = words.indexOf(wanted, at + 1)) {
    const before = words[at - 1];
    const after = words[at + wanted.length];
    if (!isWordChar(before) && !isWordChar(after)) return true;
  }
  return false;
}

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[a-z0-9_-]/.test(c);
