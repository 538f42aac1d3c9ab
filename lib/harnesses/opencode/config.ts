/**
 * OpenCode's configuration, read-only, as 1.18.33 layers it (its config module, read in the binary): each layer
 * deep-merged over the ones before, so the last that names a key decides it.
 *
 *   1. the global folder `${XDG_CONFIG_HOME:-~/.config}/opencode`: config.json, opencode.json, opencode.jsonc
 *   2. the file `OPENCODE_CONFIG` names
 *   3. the project's opencode.json and opencode.jsonc from its worktree (the git root, else `/`) down to the
 *      directory, the nearest last, .jsonc after .json (unless OPENCODE_DISABLE_PROJECT_CONFIG)
 *   4. the folders it keeps commands and agents in: each `.opencode` from the directory up to the worktree (in
 *      that order), `~/.opencode`, then `OPENCODE_CONFIG_DIR`: opencode.json, opencode.jsonc in each
 *   5. the text `OPENCODE_CONFIG_CONTENT` holds
 *   6. the managed folder an administrator fills, `/etc/opencode`: opencode.json, opencode.jsonc
 * (A remote organisation's configuration, fetched at start, is not read: no network here.) Its data folder,
 * the home `--opencode-home` names, holds none of it.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { ConfigPlace, ConfiguredModel } from "../models.ts";
import { parseJsoncText, readJsoncFile } from "../../io/config-file.ts";
import type { Json } from "../../io/json.ts";
import { openCodeModels } from "./models.ts";

/** The administrator's folder on Linux (macOS and Windows have their own; session-bridge runs on Linux). */
const MANAGED_FOLDER = "/etc/opencode";

/** The variables that say where OpenCode's configuration is (HOME aside, which moves every harness's). */
export const OPENCODE_CONFIG_VARIABLES = [
  "XDG_CONFIG_HOME",
  "OPENCODE_CONFIG",
  "OPENCODE_CONFIG_DIR",
  "OPENCODE_CONFIG_CONTENT",
  "OPENCODE_DISABLE_PROJECT_CONFIG",
] as const;

/** A layer of configuration: a file to read, or a variable's text. */
type Layer = { file: string } | { variable: string; text: string };

/** OpenCode's flags are on when set to `true` or `1`, in any case. */
const flagOn = (value: string | undefined): boolean => /^(?:true|1)$/i.test(value ?? "");

/** Every layer, lowest precedence first. */
export function openCodeConfigLayers(place: ConfigPlace): Layer[] {
  const env = place.env ?? {};
  const home = env.HOME || homedir();
  const global = join(env.XDG_CONFIG_HOME || join(home, ".config"), "opencode");
  const files = (dir: string, names: readonly string[]): Layer[] =>
    names.map((n) => ({ file: join(dir, n) }));
  const project = place.cwd && !flagOn(env.OPENCODE_DISABLE_PROJECT_CONFIG) ? upToWorktree(place.cwd) : [];
  const folders = [
    ...project.map((dir) => join(dir, ".opencode")).filter((dir) => existsSync(dir)),
    join(home, ".opencode"),
    ...(env.OPENCODE_CONFIG_DIR ? [env.OPENCODE_CONFIG_DIR] : []),
  ];
  return [
    ...files(global, ["config.json", "opencode.json", "opencode.jsonc"]),
    ...(env.OPENCODE_CONFIG ? [{ file: env.OPENCODE_CONFIG }] : []),
    ...project.toReversed().flatMap((dir) => files(dir, ["opencode.json", "opencode.jsonc"])),
    ...[...new Set(folders)].flatMap((dir) => files(dir, ["opencode.json", "opencode.jsonc"])),
    ...(env.OPENCODE_CONFIG_CONTENT
      ? [{ variable: "OPENCODE_CONFIG_CONTENT", text: env.OPENCODE_CONFIG_CONTENT }]
      : []),
    ...files(MANAGED_FOLDER, ["opencode.json", "opencode.jsonc"]),
  ];
}

/** The directory and each parent up to its git worktree's root, or to `/` outside one, nearest first. */
function upToWorktree(cwd: string): string[] {
  const dirs: string[] = [];
  for (let dir = resolve(cwd);; dir = dirname(dir)) {
    dirs.push(dir);
    if (existsSync(join(dir, ".git")) || dirname(dir) === dir) return dirs;
  }
}

/** A layer's document and how the report names it; an absent file is no layer. */
function readLayer(layer: Layer): { config: Json; where: string } | undefined {
  if ("variable" in layer) {
    const config = parseJsoncText(layer.text, layer.variable);
    return config ? { config, where: layer.variable } : undefined;
  }
  const config = readJsoncFile(layer.file);
  return config ? { config, where: layer.file } : undefined;
}

/**
 * A configured model as OpenCode reads it: `{env:NAME}` replaced by the variable's value (empty when unset), as
 * it substitutes a configuration's text before parsing it; one naming a file (`{file:path}`) is not followed.
 */
function substituted(model: string, env: NodeJS.ProcessEnv): string | undefined {
  if (model.includes("{file:")) return undefined;
  // Scanned with indexOf, each brace looked at once: a pattern would try every unclosed `{env:` to the end.
  let out = "";
  let from = 0;
  for (;;) {
    const open = model.indexOf("{env:", from);
    const close = open < 0 ? -1 : model.indexOf("}", open + 5);
    if (close < 0) return out + model.slice(from);
    const name = model.slice(open + 5, close);
    out += model.slice(from, open) + (name ? env[name] ?? "" : "{env:}");
    from = close + 1;
  }
}

/**
 * The model OpenCode's configuration names for a session continued in `place.cwd` (`provider/model`), and the
 * layer that names it. A file that does not parse is bad input, as OpenCode refuses to start on one.
 */
export function configuredOpenCodeModel(_home: string, place: ConfigPlace = {}): ConfiguredModel | undefined {
  let found: ConfiguredModel | undefined;
  for (const layer of openCodeConfigLayers(place)) {
    const read = readLayer(layer);
    const named = read && typeof read.config.model === "string"
      ? substituted(read.config.model, place.env ?? {})
      : undefined;
    const model = named ? openCodeModels.map(named) : undefined;
    if (read && model) found = { model, where: `configured in ${read.where} (model)` };
  }
  return found;
}
