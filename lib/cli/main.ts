/**
 * The CLI: global flags, one command, one exit code. Every failure becomes one line on stderr (a stack trace
 * only with SESSION_BRIDGE_DEBUG=1) and, under --json, one JSON document on stdout as well.
 */
import type { Command } from "./command.ts";
import { GLOBAL_HELP } from "./command.ts";
import { flag, homeFlags, parse } from "./args.ts";
import { resolveHomes } from "../harnesses/index.ts";
import { EXIT_INPUT, exitCodeFor, InputError, messageOf } from "../errors.ts";
import { err, out, printJson } from "./output.ts";
import { list } from "./commands/list.ts";
import { inspect } from "./commands/inspect.ts";
import { show } from "./commands/show.ts";
import { convert } from "./commands/convert.ts";
import { handoff } from "./commands/handoff.ts";
import { demo } from "./commands/demo.ts";
import { undo } from "./commands/undo.ts";
import { drift } from "./commands/drift.ts";
import { prune } from "./commands/prune.ts";
import { certify } from "./commands/certify.ts";
import { exportCommand } from "./commands/export.ts";
import { VERSION } from "../version.ts";
import { onNotice } from "../io/notices.ts";

const COMMANDS: Command[] = [
  list,
  inspect,
  show,
  convert,
  handoff,
  exportCommand,
  undo,
  prune,
  drift,
  certify,
  demo,
];

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `session-bridge ${VERSION}: move a live coding-agent session between Claude Code, Codex CLI and Hermes Agent.`,
    "",
    "Usage: session-bridge <command> [options]",
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    GLOBAL_HELP,
    "",
    "Run 'session-bridge <command> --help' for a command's options.",
  ].join("\n");
}

export async function run(argv: string[]): Promise<number> {
  const wantsJson = argv.includes("--json");
  try {
    const [name, ...rest] = argv;
    if (name === undefined || name === "--help" || name === "-h" || name === "help") {
      out(mainHelp());
      return name === undefined ? EXIT_INPUT : 0;
    }
    if (name === "--version" || name === "-V") {
      if (wantsJson) printJson({ version: VERSION });
      else out(`session-bridge ${VERSION}`);
      return 0;
    }
    const command = COMMANDS.find((c) => c.name === name);
    if (!command) throw new InputError(`unknown command ${JSON.stringify(name)} (see session-bridge --help)`);
    const parsed = parse(rest, command.options);
    if (flag(parsed.values, "help")) {
      out(`Usage: ${command.usage}\n\n${command.summary}.\n\n${command.help}\n\n${GLOBAL_HELP}`);
      return 0;
    }
    onNotice((line) => err(`session-bridge: ${line}`));
    const context = {
      homes: resolveHomes(homeFlags(parsed.values)),
      json: flag(parsed.values, "json"),
      now: new Date(),
    };
    return await command.run(parsed, context);
  } catch (error) {
    const code = exitCodeFor(error);
    if (process.env.SESSION_BRIDGE_DEBUG === "1" && error instanceof Error) {
      err(error.stack ?? messageOf(error));
    }
    err(`session-bridge: ${oneLine(messageOf(error))}`);
    if (wantsJson) printJson({ error: { message: messageOf(error), exitCode: code } }, false);
    return code;
  }
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ");
