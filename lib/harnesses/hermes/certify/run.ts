// Runs the real Hermes Agent with a private HOME / HERMES_HOME / TMPDIR: offline with a config.yaml pointing at a
// fake Chat Completions server on 127.0.0.1 and every network side path switched off (tirith download, lazy pip
// installs, the PyPI update check, auxiliary title generation), or (real mode) with the user's own config.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { spawnCollect, type SpawnResult } from "../../../certify-kit/spawn.ts";

export { killGroup } from "../../../certify-kit/spawn.ts";

export type Yaml = string | number | boolean | null | { [key: string]: Yaml };
export type YamlObject = { [key: string]: Yaml };

export const HERMES_MODEL = "fake-model-1";

/** The config every offline run starts from; scenarios merge their own keys over it. */
export function offlineConfig(baseUrl: string): YamlObject {
  return {
    model: {
      provider: "custom",
      base_url: `${baseUrl}/v1`,
      default: HERMES_MODEL,
      api_key: "x",
      context_length: 131072,
    },
    auxiliary: { title_generation: { enabled: false } },
    // no network: tirith would be downloaded from GitHub, lazy installs come from PyPI
    security: { tirith_enabled: false, allow_lazy_installs: false },
  };
}

export function toYaml(value: YamlObject, indent = ""): string {
  let out = "";
  for (const [k, v] of Object.entries(value)) {
    if (v !== null && typeof v === "object") out += `${indent}${k}:\n${toYaml(v, `${indent}  `)}`;
    else out += `${indent}${k}: ${JSON.stringify(v)}\n`;
  }
  return out;
}

export function mergeConfig(a: YamlObject, b: YamlObject): YamlObject {
  const out: YamlObject = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const cur = out[k];
    out[k] = cur !== null && typeof cur === "object" && v !== null && typeof v === "object"
      ? mergeConfig(cur, v)
      : v;
  }
  return out;
}

/** A fresh update-check stamp, so Hermes does not ask PyPI whether it is current. */
export function writeUpdateStamp(hermesHome: string, version: string): void {
  mkdirSync(hermesHome, { recursive: true });
  writeFileSync(
    join(hermesHome, ".update_check"),
    JSON.stringify({ ts: Date.now() / 1000, behind: 0, rev: null, ver: version }),
  );
}

/** Writes `config.yaml` and the update-check stamp into a Hermes home. */
export function writeHermesHome(hermesHome: string, config: YamlObject, version: string): void {
  writeUpdateStamp(hermesHome, version);
  writeFileSync(join(hermesHome, "config.yaml"), toYaml(config));
}

/** The private dirs every run gets, offline or not. */
export function hermesPrivateEnv(home: string, hermesHome: string, tmp: string): Record<string, string> {
  return { HOME: home, TMPDIR: tmp, HERMES_HOME: hermesHome };
}

/** Env for an offline run: nothing inherited but the venv's bin and the system PATH. */
export function hermesEnv(
  exe: string,
  home: string,
  hermesHome: string,
  tmp: string,
): Record<string, string> {
  return {
    PATH: `${dirname(exe)}:/usr/local/bin:/usr/bin:/bin`,
    ...hermesPrivateEnv(home, hermesHome, tmp),
    TZ: "UTC",
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    HERMES_DISABLE_LAZY_INSTALLS: "1",
    PYTHONDONTWRITEBYTECODE: "1",
  };
}

export interface HermesRunResult extends SpawnResult {
  /** What `hermes chat -Q` prints on stderr as `session_id: <id>`. */
  sessionId: string | null;
}

/** Runs `hermes <args>` in its own process group, SIGKILLed (the group, by our own pid) after the timeout. */
export async function runHermes(
  exe: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<HermesRunResult> {
  const r = await spawnCollect(exe, args, {
    cwd: opts.cwd,
    env: opts.env,
    timeoutMs: opts.timeoutMs ?? 180_000,
    group: true,
  });
  const m = /session_id:\s*(\S+)/.exec(r.stderr) ?? /session_id:\s*(\S+)/.exec(r.stdout);
  return { ...r, sessionId: m?.[1] ?? null };
}

/**
 * The answer `hermes chat -Q` prints: stdout without the session id line, and without the "↻ Resumed session
 * <id> "<title>" (N user messages, M total messages)" banner Hermes 0.14 prints before the answer of a resumed
 * turn (wrapped over several lines at the terminal width).
 */
export function hermesReply(stdout: string): string {
  return withoutResumeBanner(stdout.replace(/^session_id:.*$/m, "")).trim();
}

const RESUMED = "↻ Resumed session ";
/** The banner's end, "N total messages)" ending a line: from just after a digit, so each run of spaces is tried once. */
const RESUMED_END = /(?<=\d)\s+total(?:\s+messages)?\)\r?$/m;
const LINE_BREAKS = "\n\r\u2028\u2029";

/**
 * The text without its first resume banner, as `/^\s*↻ Resumed session [\s\S]*?\d+\s+total(?:\s+messages)?\)\r?$/m`
 * would remove it, in linear time (that pattern searches to the end again from every line start and every digit):
 * the first banner only whitespace separates from a line start (from the first line start in that whitespace)
 * to the first "N total messages)" ending a line after it. Without such an end after the first banner there is
 * none after a later one either.
 */
function withoutResumeBanner(text: string): string {
  for (let at = text.indexOf(RESUMED); at !== -1; at = text.indexOf(RESUMED, at + 1)) {
    let blank = at;
    while (blank > 0 && /\s/.test(text[blank - 1]!)) blank--;
    let lineStart = blank === 0 ? 0 : -1;
    for (let i = blank; lineStart === -1 && i < at; i++) {
      if (LINE_BREAKS.includes(text[i]!)) lineStart = i + 1;
    }
    if (lineStart === -1) continue;
    const rest = at + RESUMED.length;
    const end = RESUMED_END.exec(text.slice(rest));
    return end ? text.slice(0, lineStart) + text.slice(rest + end.index + end[0].length) : text;
  }
  return text;
}
