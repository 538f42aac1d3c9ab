#!/usr/bin/env -S deno run -A
/** Thin entry: everything lives in lib/cli. */
import { run } from "./lib/cli/main.ts";
import { processTerminal } from "./lib/cli/terminal.ts";
import { restartForLongWork } from "./lib/runtime.ts";

process.exitCode = await run(process.argv.slice(2), process.env, {
  terminal: processTerminal(),
  beforeLongWork: () => restartForLongWork(process.env),
});
