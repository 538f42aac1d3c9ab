/**
 * A CLI run in a child process, on a terminal that shows progress at once, that sends itself a real SIGINT (as
 * Ctrl-C does) the first time its progress line on stderr shows a step starting with `marker`: so a test
 * interrupts a handoff mid-read or mid-write without guessing a moment. Run as
 * `interrupt-on-progress.ts <marker> <cli args...>`; stdout and stderr are the CLI's (progress lines included).
 */
import { writeSync } from "node:fs";
import { run } from "../../lib/cli/main.ts";
import { outputTo } from "../../lib/cli/output.ts";
import { NO_TERMINAL } from "../../lib/cli/terminal.ts";

const [marker, ...args] = process.argv.slice(2);
let sent = false;
process.exitCode = await run(args, process.env, {
  terminal: { ...NO_TERMINAL, progress: { afterMs: 0 } },
  output: outputTo((fd, text) => {
    writeSync(fd, text);
    if (fd === 2 && !sent && text.includes(`\u001b[K${marker}`)) {
      sent = true;
      process.kill(process.pid, "SIGINT");
    }
  }),
});
