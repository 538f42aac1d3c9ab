/**
 * The one place that knows which runtime we are on. Everything else uses node built-ins that Bun and Deno
 * both provide.
 */
declare const Deno: { version: { deno: string } } | undefined;
declare const Bun: { version: string; gc(synchronous: boolean): void } | undefined;

export type RuntimeName = "bun" | "deno" | "node";

export function runtimeName(): RuntimeName {
  if (typeof Bun !== "undefined") return "bun";
  if (typeof Deno !== "undefined") return "deno";
  return "node";
}

export function runtimeVersion(): string {
  if (typeof Bun !== "undefined") return Bun.version;
  if (typeof Deno !== "undefined") return Deno.version.deno;
  return process.versions.node;
}

/** The argv that runs a TypeScript file under the current runtime (for tests and tools that spawn the CLI). */
export function scriptArgv(path: string): string[] {
  switch (runtimeName()) {
    case "deno":
      return [process.execPath, "run", "-A", path];
    default:
      return [process.execPath, path];
  }
}

/** Whether this is the single binary `bun build --compile` made (its modules live in Bun's virtual folder). */
export function isCompiledBinary(): boolean {
  return /^file:\/\/\/(?:\$bunfs|[A-Za-z]:\/~BUN)\//.test(import.meta.url);
}

/** The argv that runs this program's CLI again: the binary itself, else `mainPath` under the current runtime. */
export function selfArgv(mainPath: string): string[] {
  return isCompiledBinary() ? [process.execPath] : scriptArgv(mainPath);
}

/**
 * Collects garbage now, where the runtime lets a program ask. Bun's collector does not see the memory of the
 * strings a long read decodes, so reading a file of hundreds of megabytes would otherwise leave its dead lines
 * piling up to several times the file's size before a collection; V8 (Deno) sees them and needs no help.
 */
export function reclaimMemory(): void {
  if (typeof Bun !== "undefined") Bun.gc(true);
}

/**
 * Collects the young generation now, where the runtime lets a program ask. JavaScriptCore (Bun) lets new
 * objects pile up to about what its last collection left live before it collects them on its own, so a
 * conversion holding 150 MB of session ran 150 MB of dead lines, regex matches and rendered records above it.
 * When nearly all of them are dead, as in a pass over a session, a young collection takes about a millisecond.
 * V8 (Deno) keeps its young generation to a few megabytes on its own.
 */
export function collectYoungGarbage(): void {
  if (typeof Bun === "undefined") return;
  // node:module loads here, not at start-up: only a long conversion asks.
  const { createRequire } = process.getBuiltinModule("node:module");
  (createRequire(import.meta.url)("bun:jsc") as { edenGC(): number }).edenGC();
}

/**
 * The JavaScriptCore options a conversion runs with, read by Bun from the environment as it starts:
 * - `useFTLJIT=0`, its top JIT tier off: in a run of seconds FTL's compiles (on other cores) cost more than
 *   their code saves (a 70 MB conversion takes about 30% less CPU without it);
 * - `heapGrowthMaxIncrease=1`: on a machine of 16 GB or more JavaScriptCore lets the heap grow to up to four
 *   times what the last collection left live before the next one (twice on a smaller machine); capped at
 *   twice, a 70 MB conversion peaks near 185 MB instead of 230-260 and a 700 MB one near 180 MB instead of 255,
 *   for the same CPU (`npm run bench`; at 1.5 times the CPU grows by a tenth).
 */
export const LONG_WORK_OPTIONS: Readonly<Record<string, string>> = {
  BUN_JSC_useFTLJIT: "0",
  BUN_JSC_heapGrowthMaxIncrease: "1",
};

/**
 * Starts the binary again in place of this process, with LONG_WORK_OPTIONS, before a conversion. Bun reads
 * them only as it starts, so the process restarts itself (execve: same pid, descriptors and arguments) once;
 * every option set already, by this or by the user (whose values are kept), means no restart. Only the
 * compiled binary does it; under a script runner or Deno, nothing.
 */
export function restartForLongWork(env: NodeJS.ProcessEnv): void {
  const execve = (process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never })
    .execve;
  const missing = Object.keys(LONG_WORK_OPTIONS).some((name) => env[name] === undefined);
  if (!isCompiledBinary() || !execve || !missing) return;
  try {
    execve(process.execPath, [process.execPath, ...process.argv.slice(2)], { ...LONG_WORK_OPTIONS, ...env });
  } catch {
    // Not restarted (the system refused): the work runs as it is, only slower.
  }
}

/** A worker thread as Bun and Deno both provide it (the web's Worker; Node's typings declare none). */
export interface ModuleWorker {
  postMessage(message: unknown): void;
  terminate(): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: { message?: string; preventDefault?(): void }) => void) | null;
}

declare const Worker: (new (url: string | URL, options: { type: "module" }) => ModuleWorker) | undefined;

/**
 * Starts the module `fromRoot` (a path from the repository's root, `lib/...ts`) as a worker thread, or returns
 * undefined where this runtime has none. The compiled binary holds it as one of its build's entry points
 * (package.json's `build` names each), under Bun's virtual folder by the same path.
 */
export function startModuleWorker(fromRoot: string): ModuleWorker | undefined {
  if (typeof Worker === "undefined") return undefined;
  const url = isCompiledBinary()
    ? `file:///$bunfs/root/${fromRoot}`
    : new URL(`../${fromRoot}`, import.meta.url);
  return new Worker(url, { type: "module" });
}

/** Inside a worker thread: the side of it that talks to the thread that started it. */
export interface StarterPort {
  post(message: unknown): void;
  listen(handler: (message: unknown) => void): void;
}

export function starterPort(): StarterPort {
  const scope = globalThis as unknown as {
    postMessage(message: unknown): void;
    onmessage: ((event: { data: unknown }) => void) | null;
  };
  return {
    post: (message) => scope.postMessage(message),
    listen(handler) {
      scope.onmessage = (event) => handler(event.data);
    },
  };
}
