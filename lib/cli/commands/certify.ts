import type { Command } from "../command.ts";
import { flag, str } from "../args.ts";
import { locateBinaries } from "../../certify/binaries.ts";
import {
  certifiable,
  CERTIFY_HELP,
  CERTIFY_OPTIONS,
  certifyMode,
  certifyRoutes,
} from "../certify-options.ts";
import type { Registry } from "../../harnesses/registry.ts";
import { reportTable } from "../../certify/report.ts";
import { certify as runCertify } from "../../certify/run.ts";

export const certify: Command = {
  usage: (registry) =>
    `session-bridge certify [--structure-only | --real] [--styles S,...] [--pairs A:B[:C],...] ${
      certifiable(registry).map((h) => `[--${h.integrations.certify!.binFlag} P]`).join(" ")
    } [--json]`,
  help: (registry) =>
    `Seeds sessions in each harness through its own binary the ways people make them (one-shot runs, typed
into the interactive TUI, typed and interrupted while a tool runs), hands each to another harness with this
session-bridge, checks the target's own listing shows it, resumes it there with a new typed turn and checks
that the model was sent every part of the conversation once and in order (typed prompts, assistant text, the
tool call and its output, the interrupted call and the queued words); then hands it on again (A → B → A or
A → B → C) and checks again. By default the harnesses talk to fake model servers on 127.0.0.1 in private temp
homes: nothing of yours is read or written. Interactive styles need tmux.
${CERTIFY_HELP}
${binHelp(registry)}
A harness that is not found is reported as skipped.`,
  arguments: [],
  options: {
    ...CERTIFY_OPTIONS,
  },
  harnessOptions: (registry) =>
    Object.fromEntries(
      certifiable(registry).map((h) => [h.integrations.certify!.binFlag, { type: "string" as const }]),
    ),
  async run({ values }, { json, env, registry, output }) {
    const { err, out, printJson } = output;
    const mode = certifyMode(values);
    const routes = certifyRoutes(values, mode, registry);
    const harnesses = certifiable(registry);
    const { found, missing } = await locateBinaries(
      harnesses,
      Object.fromEntries(harnesses.map((h) => [h.name, str(values, h.integrations.certify!.binFlag)])),
      env,
    );
    for (const b of found) err(`${b.id} ${b.version}: ${b.bin}`);
    for (const [id, why] of Object.entries(missing)) err(`${id}: ${why}`);
    const report = await runCertify({
      registry,
      mode,
      routes,
      binaries: found,
      missing,
      allowDrift: flag(values, "allow-drift"),
      env,
      progress: err,
    });
    if (json) {
      printJson(
        { mode, harnesses: report.harnesses, results: report.results, seconds: report.seconds },
        report.ok,
      );
    } else for (const line of reportTable(report)) out(line);
    return report.ok ? 0 : 1;
  },
};

/** One help line for the executables: the first harness's flag in full, the others by name. */
function binHelp(registry: Registry): string {
  const [first, ...rest] = certifiable(registry);
  if (!first) return "";
  const others = rest.length
    ? `; likewise ${rest.map((h) => `--${h.integrations.certify!.binFlag}`).join(", ")}`
    : "";
  return `  ${
    `--${first.integrations.certify!.binFlag} P`.padEnd(19)
  }the ${first.title} executable (default: ${first.integrations.certify!.command} on PATH)${others}`;
}
