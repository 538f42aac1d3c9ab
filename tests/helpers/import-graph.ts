/**
 * The import graph of a source tree, read from the files' text (no module is executed to draw it): which file
 * names which, and the loops among them. Every specifier counts, type-only imports included: a type is a
 * dependency as much as a value, and a loop of types is a loop of meaning even when the bundler erases it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { allSpecifiers } from "./imports.ts";

/** Files by their path under the root (forward slashes), each with the root files it imports. */
export type ImportGraph = Map<string, string[]>;

const SOURCE = /\.tsx?$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

const posix = (path: string) => path.split("\\").join("/");

/** The graph of every .ts and .tsx file under root, with only the edges that land on another such file. */
export function importGraph(root: string): ImportGraph {
  const files = sourceFiles(root);
  const known = new Set(files.map((file) => posix(relative(root, file))));
  return new Map(files.map((file) => {
    const from = posix(relative(root, file));
    const targets = allSpecifiers(readFileSync(file, "utf8"))
      .filter((spec) => spec.startsWith("."))
      .map((spec) => posix(relative(root, resolve(dirname(file), spec))))
      .filter((to) => known.has(to) && to !== from);
    return [from, [...new Set(targets)].sort()];
  }));
}

/** The graph with every file replaced by its unit (unitOf), edges inside one unit dropped. */
export function unitGraph(graph: ImportGraph, unitOf: (file: string) => string): ImportGraph {
  const units = new Map<string, Set<string>>();
  for (const [from, targets] of graph) {
    const unit = unitOf(from);
    const out = units.get(unit) ?? new Set<string>();
    units.set(unit, out);
    for (const to of targets) if (unitOf(to) !== unit) out.add(unitOf(to));
  }
  return new Map([...units].map(([unit, out]) => [unit, [...out].sort()]));
}

/**
 * The strongly connected components of more than one node (the loops), largest first, each sorted. Tarjan's
 * algorithm with an explicit stack, linear in nodes and edges.
 */
export function loops(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, index.size);
    low.set(start, index.get(start)!);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = graph.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const to = targets[frame.next++]!;
        if (!index.has(to)) {
          index.set(to, index.size);
          low.set(to, index.get(to)!);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1) found.push(component.sort());
    }
  }
  return found.sort((a, b) => b.length - a.length || a[0]!.localeCompare(b[0]!));
}
