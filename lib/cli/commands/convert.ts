import type { Command } from "../command.ts";
import { CONVERSION_OPTIONS, flag, harnessFlag, positionals, str } from "../args.ts";
import { loadSession } from "../load.ts";
import { homeOf } from "../../harnesses/homes.ts";
import { convertSession } from "../../pipeline/convert.ts";
import { holdingSignals } from "../../io/interrupt.ts";
import { formatReport } from "../../report/report.ts";
import { InputError } from "../../errors.ts";
import { err, printJson } from "../output.ts";
import { dirname, resolve } from "node:path";
import { assertDirectory } from "../../io/paths.ts";

export const convert: Command = {
  usage:
    "session-bridge convert <session> --to H [-o FILE] [--model M] [--no-handshake] [--no-stub-open-calls] [--json]",
  help: `  --to H             target harness
  -o, --output FILE  write here (default: stdout; --json needs -o)
  --cwd DIR          working directory the rendered session records (default: the source's)
  --model M          model the rendered session continues on (default: the target's configured model)
  --force            replace FILE if it exists
  --no-handshake     do not append the resume handshake
  --stub-open-calls  give each interrupted tool call a result saying it was interrupted (the default:
                     every target otherwise hides or invents it on resume)
  --no-stub-open-calls  leave interrupted tool calls without a result
  --from H           look for <session> in this harness only`,
  options: { ...CONVERSION_OPTIONS, output: { type: "string", short: "o" }, model: { type: "string" } },
  async run(parsed, context) {
    const { homes, json, now, registry } = context;
    const [ref] = positionals(parsed, ["session"]);
    const target = harnessFlag(parsed.values, "to", registry);
    if (!target) throw new InputError("missing --to H");
    const output = str(parsed.values, "output");
    if (json && !output) throw new InputError("--json needs -o FILE (stdout carries the JSON document)");
    if (output) assertDirectory(dirname(resolve(output)), "-o");
    const { session: source } = await loadSession(ref!, parsed.values, context);
    const destination = output ? { path: resolve(output), replace: flag(parsed.values, "force") } : { fd: 1 };
    // Ctrl-C mid-write stops at the next chunk and leaves neither the file nor its temp file.
    const { options, report } = await holdingSignals(() =>
      convertSession(source, target, {
        // A same-harness conversion keeps the id, so untouched records come out byte for byte.
        ...(target.name === source.meta.harness ? { id: source.meta.id } : {}),
        ...(str(parsed.values, "cwd") ? { cwd: str(parsed.values, "cwd") } : {}),
        ...(str(parsed.values, "model") ? { model: str(parsed.values, "model") } : {}),
        handshake: !flag(parsed.values, "no-handshake"),
        stubOpenCalls: !flag(parsed.values, "no-stub-open-calls"),
        now,
        home: homeOf(homes, target),
      }, destination)
    );
    if (json) {
      printJson({ output: resolve(output!), target: { harness: target.name, id: options.id }, report });
    } else for (const l of formatReport(report)) err(l);
    return 0;
  },
};
