/**
 * What a call runs with is given at its entry, not set for the process (issue 25, "explicit context"): no
 * module under lib/ keeps state a call could leave behind for the next, except the few listed below, each with
 * the reason it is there. A new module-level `let` or `var` fails here until it is passed as a parameter
 * instead, or listed with its reason. Nor does any read the process's environment: the entries (main.ts, the
 * campaigns, acceptance, the tests) read it once and pass it down (`run(argv, env)`, a driver's `open({ env })`),
 * but for the one LazyBridge's API reads itself (listed below with its reason).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const LIB = fileURLToPath(new URL("../lib/", import.meta.url));

/** Module-level variables allowed, by file and name, each with why it is there. */
const ALLOWED: Record<string, string> = {
  "io/interrupt.ts received":
    "a signal arrives for the whole process; it is cleared as the first write holding signals starts",
  "io/interrupt.ts holders": "how many writes hold signals now: the process's signal handlers follow it",
  "io/crash-points.ts hook":
    "installed only by the crash tests' own processes, to kill them at a named point",
  "ids.ts poolAt": "where the next unused random bytes start in the pool; any bytes are as good as any other",
  "io/head-tail.ts scratch":
    "a buffer reused by synchronous reads; only the bytes each read fills are looked at",
  "schemas/drift.ts made": "counts validator sets compiled (memoized, immutable), for the start-up probe",
  "registry/registry.ts tempCounter": "makes a temp file's name unique within the process, nothing more",
  "registry/registry.ts defaultRegistry":
    "LazyBridge's API keeps a default registry per process (setDefaultSessionRegistry); only engines given no registry use it",
};

function libFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? e.name === "generated" ? [] : libFiles(join(dir, e.name))
      : /\.tsx?$/.test(e.name)
      ? [join(dir, e.name)]
      : []
  );
}

test("no module under lib/ declares a module-level let or var outside the allow-list, which gives a reason for each", () => {
  const found: string[] = [];
  for (const file of libFiles(LIB)) {
    for (const m of readFileSync(file, "utf8").matchAll(/^(?:export\s+)?(?:let|var)\s+(\w+)/gm)) {
      found.push(`${relative(LIB, file)} ${m[1]}`);
    }
  }
  assert.deepEqual(
    found.filter((f) => !(f in ALLOWED)),
    [],
    "module-level state: pass it as a parameter instead",
  );
  // An entry whose variable is gone is dropped from the list, so the list says what is there.
  assert.deepEqual(Object.keys(ALLOWED).filter((a) => !found.includes(a)), []);
});

/** `line: code` for each read of the process's environment in `text`: `process.env`, `Deno.env`, `Bun.env`. */
function environmentReads(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const found: string[] = [];
  const holdsEnvironment = (node: ts.Node) =>
    ts.isIdentifier(node) && ["process", "Deno", "Bun"].includes(node.text);
  const visit = (node: ts.Node): void => {
    const read =
      // process.env, process?.env, process["env"]
      ((ts.isPropertyAccessExpression(node) && node.name.text === "env") ||
          (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression) &&
            node.argumentExpression.text === "env")) && holdsEnvironment(node.expression) ||
      // const { env } = process
      (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name) && !!node.initializer &&
        holdsEnvironment(node.initializer) &&
        node.name.elements.some((e) => (e.propertyName ?? e.name).getText(source) === "env"));
    if (read) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push(`${line}: ${node.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Reads of the process's environment allowed under lib/, by file and code, each with why it is there. */
const ENVIRONMENT_READS: Record<string, string> = {
  "registry/registry.ts process.env":
    "LazyBridge's default_session_registry() follows LAZYBRIDGE_SESSIONS_FILE on every call; the library's default is that one, so both tools land in one file (seed 000)",
};

test("no module under lib/ reads the process's environment outside the allow-list: the entry reads it and passes it in", () => {
  const found = libFiles(LIB).flatMap((file) =>
    environmentReads(file, readFileSync(file, "utf8")).map((read) =>
      `${relative(LIB, file)} ${read.slice(read.indexOf(": ") + 2)}`
    )
  );
  assert.deepEqual(
    found.filter((f) => !(f in ENVIRONMENT_READS)),
    [],
    "take the environment as a parameter, given by the entry point",
  );
  // An entry whose read is gone is dropped from the list, so the list says what is there.
  assert.deepEqual(Object.keys(ENVIRONMENT_READS).filter((a) => !found.includes(a)), []);
});

test("the environment scan finds each way of reading it, and not a comment or a field of another name", () => {
  const reads = (text: string) => environmentReads("probe.ts", text).length;
  assert.equal(reads("const p = process.env.PATH;"), 1);
  assert.equal(reads('const p = process["env"];'), 1);
  assert.equal(reads("const { env } = process;"), 1);
  assert.equal(reads("const { env: e, argv } = process;"), 1);
  assert.equal(reads("const h = Deno.env.get('HOME'); const b = Bun.env.HOME;"), 2);
  assert.equal(reads("// process.env.PATH, as a comment says\nconst e = options.env.PATH;"), 0);
});
