/**
 * The CLI as main.ts runs it, knowing the harnesses of the `--harness-module PATH` flags before its arguments
 * (tests/helpers/harness-material.ts): how a campaign's child processes run it over a harness not built in.
 * `cli-with-modules.ts [--harness-module PATH]... <cli args...>`.
 */
import { run } from "../../lib/cli/main.ts";
import { processTerminal } from "../../lib/cli/terminal.ts";
import { registryOfArgs } from "./harness-material.ts";

const { registry, rest } = await registryOfArgs(process.argv.slice(2));
process.exitCode = await run(rest, process.env, { registry, terminal: processTerminal() });
