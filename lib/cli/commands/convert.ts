import type { Command } from "../command.ts";
import {
  CONVERSION_OPTIONS,
  FIT_HELP,
  fitFlags,
  flag,
  harnessFlag,
  outputFlag,
  permissionsFlag,
  positionals,
  STDOUT,
  str,
} from "../args.ts";
import { storesOf } from "../load.ts";
import { convert as runConvert } from "../../pipeline/convert.ts";
import { formatReport } from "../../report/report.ts";
import { fittedHelp } from "../display.ts";
import { harnessList } from "../../harnesses/registry.ts";
import { InputError } from "../../errors.ts";
import { redactedLine } from "../redacted.ts";
import { summarizeWithFlag } from "../summarize-with.ts";

export const convert: Command = {
  usage:
    "session-bridge convert <session> --to H [-o FILE] [--model M] [--no-handshake] [--no-stub-open-calls] [--fit auto|off|TOKENS] [--context TOKENS] [--summarize-with H] [--permissions narrow|keep] [--redact] [--json]",
  help: `  --to H             target harness
  -o, --output FILE  write here (default, or -: stdout; --json needs a FILE)
  --cwd DIR          working directory the rendered session records (default: the source's)
  --model M          model the rendered session continues on (default: the target's configured model)
  --force            replace FILE if it exists
  --no-handshake     do not append the resume handshake
  --stub-open-calls  give each interrupted tool call a result saying it was interrupted (the default:
                     every target otherwise hides or invents it on resume)
  --no-stub-open-calls  leave interrupted tool calls without a result
${FIT_HELP}
  --permissions P    narrow (the default): the source's permission posture goes into another harness no
                     further than that harness allows when told nothing; keep: as the source had it, even
                     where that lets the agent do more unasked (the report says so first)
  --redact           replace every secret with a <redacted:KIND> marker (the count goes to stderr)
  --from H           look for <session> in this harness only`,
  arguments: ["session"],
  options: {
    ...CONVERSION_OPTIONS,
    output: { type: "string", short: "o" },
    model: { type: "string" },
    redact: { type: "boolean" },
  },
  async run(parsed, context) {
    const { err, printJson } = context.output;
    const { registry, json } = context;
    const { values } = parsed;
    const [ref] = positionals(parsed, ["session"]);
    const target = harnessFlag(values, "to", registry);
    if (!target) throw new InputError(`missing --to H (${harnessList(registry)})`);
    const output = outputFlag(values, json) ?? STDOUT;
    if (json && output === STDOUT) {
      throw new InputError("--json needs -o FILE: stdout carries the JSON document, not the session");
    }
    const from = harnessFlag(values, "from", registry);
    const [cwd, model] = [str(values, "cwd"), str(values, "model")];
    const converted = await runConvert({
      source: { ref: ref!, ...(from !== undefined ? { from } : {}) },
      to: target,
      output,
      force: flag(values, "force"),
      ...(cwd ? { cwd } : {}),
      ...(model ? { model } : {}),
      handshake: !flag(values, "no-handshake"),
      stubOpenCalls: !flag(values, "no-stub-open-calls"),
      permissions: permissionsFlag(values),
      ...fitFlags(values),
      ...(await summarizeWithFlag(values, context, cwd)),
      redact: flag(values, "redact"),
      ...storesOf(context),
    });
    if (json) {
      printJson({
        output: converted.output,
        target: converted.target,
        report: converted.report,
        ...(converted.redacted !== undefined ? { redacted: converted.redacted } : {}),
      });
    } else {
      err(await fittedHelp(formatReport(converted.report).join("\n"), context.output));
      if (converted.redacted !== undefined) err(redactedLine(converted.redacted));
    }
    return 0;
  },
};
