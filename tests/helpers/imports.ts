/** The modules a source file loads when it runs, read from its text (no module is executed to find them). */

/** Import and re-export statements with what they name, side-effect imports and dynamic imports. */
const STATEMENT =
  /\b(?:import|export)\s+([\w\s{},*$]*?)\s*\bfrom\s*["']([^"']+)["']|\bimport\s*\(?\s*["']([^"']+)["']/g;

/** The specifiers a file's code loads when it runs: type-only imports are erased and load nothing. */
export function runtimeSpecifiers(text: string): string[] {
  return [...text.matchAll(STATEMENT)].flatMap(([, clause, from, bare]) => {
    if (bare) return [bare];
    const names = clause!.trim();
    const typeOnly = /^type\s/.test(names) ||
      (/^\{[^}]*\}$/.test(names) &&
        names.slice(1, -1).split(",").every((n) => !n.trim() || /^type\s/.test(n.trim())));
    return typeOnly ? [] : [from!];
  });
}

/** Every specifier a file names, type-only imports included: what it depends on at all. */
export function allSpecifiers(text: string): string[] {
  return [...text.matchAll(STATEMENT)].map(([, , from, bare]) => (bare ?? from)!);
}
