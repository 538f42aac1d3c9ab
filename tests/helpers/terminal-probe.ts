/**
 * Run in a fresh process by tests/startup.test.ts, its descriptors pipes: `session-bridge <argv>` through the
 * real CLI with the process's own terminal, as main.ts runs it, then one line on stderr naming the built-in
 * modules it asked for (node:tty costs a compiled binary's start-up about 5 ms).
 */
import { run } from "../../lib/cli/main.ts";
import { processTerminal } from "../../lib/cli/terminal.ts";

const asked: string[] = [];
const builtin = process.getBuiltinModule.bind(process);
process.getBuiltinModule = ((id: string) => {
  asked.push(id);
  return builtin(id);
}) as typeof process.getBuiltinModule;

const code = await run(process.argv.slice(2), {}, { terminal: processTerminal() });
process.stderr.write(`${JSON.stringify({ code, asked })}\n`);
