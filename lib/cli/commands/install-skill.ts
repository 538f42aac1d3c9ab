import type { Command } from "../command.ts";
import { flag, str } from "../args.ts";
import { findHarness } from "../../harnesses/registry.ts";
import { installSkill, SKILL_NAME, skillSource, uninstallSkill } from "../../pipeline/skill.ts";
import { audit } from "../audit.ts";

export const installSkillCommand: Command = {
  usage: "session-bridge install-skill [--harness H] [--copy] [--uninstall] [--force] [--json]",
  help: `  --harness H  only this harness (installed even if its home does not exist yet)
  --copy       copy the files instead of linking them
  --uninstall  remove the skill where session-bridge put it
  --force      replace (or with --uninstall remove) a different skill of that name; it is moved to
               $SESSION_BRIDGE_HOME/backups/skills, never deleted
Puts the agent skill "${SKILL_NAME}" (how an agent hands off its own session) where each harness on this
machine looks for skills: <home>/skills/${SKILL_NAME}, the home as --<h>-home or the harness's variable says.
The files come from this binary into $SESSION_BRIDGE_HOME/skills/${SKILL_NAME}, which every link points to.
Running it again changes nothing. Exit 1 when a harness was refused.`,
  arguments: [],
  options: {
    harness: { type: "string" },
    copy: { type: "boolean" },
    uninstall: { type: "boolean" },
    force: { type: "boolean" },
  },
  run({ values }, context) {
    const { registry, homes, bridgeHome, env, json, now, output: { out, printJson } } = context;
    const named = str(values, "harness");
    const request = {
      registry,
      homes,
      bridgeHome,
      env,
      now,
      copy: flag(values, "copy"),
      force: flag(values, "force"),
      ...(named !== undefined ? { harness: findHarness(registry, named) } : {}),
    };
    const uninstall = flag(values, "uninstall");
    const lines = uninstall ? uninstallSkill(request) : installSkill(request);
    audit(context, uninstall ? "uninstall_skill" : "install_skill", {
      skill: SKILL_NAME,
      harnesses: lines,
    });
    const code = lines.some((l) => l.outcome.startsWith("refused")) ? 1 : 0;
    if (json) {
      printJson({ skill: SKILL_NAME, source: skillSource(bridgeHome), harnesses: lines }, code === 0);
      return Promise.resolve(code);
    }
    const width = Math.max(...lines.map((l) => l.harness.length));
    for (const l of lines) {
      const where = l.outcome === "not installed" ? "" : `  ${l.path}`;
      const aside = l.movedAside ? ` (the one there moved to ${l.movedAside})` : "";
      out(`${l.harness.padEnd(width)}  ${l.outcome}${where}${aside}`);
    }
    return Promise.resolve(code);
  },
};
