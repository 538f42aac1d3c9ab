import type { Command } from "../command.ts";
import { CONVERSION_OPTIONS, flag, harnessFlag, positionals, str } from "../args.ts";
import { loadSession } from "../load.ts";
import { harness } from "../../harnesses/index.ts";
import { convertSession } from "../../pipeline/convert.ts";
import { formatReport } from "../../report/report.ts";
import { InputError } from "../../errors.ts";
import { err, printJson } from "../output.ts";
import { dirname, resolve } from "node:path";
import { assertDirectory } from "../../io/paths.ts";

export const convert: Command = {
  name: "convert",
  summary: "render a session in another harness's format to a file; no store is touched",
  usage: "session-bridge convert <session> --to H [-o FILE] [--no-handshake] [--stub-open-calls] [--json]",
  help: `  --to H             target harness
  -o, --output FILE  write here (default: stdout; --json needs -o)
  --cwd DIR          working directory the rendered session records (default: the source's)
  --force            replace FILE if it exists
  --no-handshake     do not append the resume handshake
  --stub-open-calls  close open tool calls with synthetic interrupted results
  --from H           look for <session> in this harness only`,
  options: { ...CONVERSION_OPTIONS, output: { type: "string", short: "o" } },
  async run(parsed, { homes, json, now }) {
    const [ref] = positionals(parsed, ["session"]);
    const to = harnessFlag(parsed.values, "to");
    if (!to) throw new InputError("missing --to H");
    const output = str(parsed.values, "output");
    if (json && !output) throw new InputError("--json needs -o FILE (stdout carries the JSON document)");
    if (output) assertDirectory(dirname(resolve(output)), "-o");
    const { session: source } = await loadSession(ref!, parsed.values, homes);
    const target = harness(to);
    const destination = output ? { path: resolve(output), replace: flag(parsed.values, "force") } : { fd: 1 };
    const { options, report } = await convertSession(source, target, {
      // A same-harness conversion keeps the id, so untouched records come out byte for byte.
      ...(to === source.meta.harness ? { id: source.meta.id } : {}),
      ...(str(parsed.values, "cwd") ? { cwd: str(parsed.values, "cwd") } : {}),
      handshake: !flag(parsed.values, "no-handshake"),
      stubOpenCalls: flag(parsed.values, "stub-open-calls"),
      now,
      homes,
    }, destination);
    if (json) printJson({ output: resolve(output!), target: { harness: to, id: options.id }, report });
    else for (const l of formatReport(report)) err(l);
    return 0;
  },
};
