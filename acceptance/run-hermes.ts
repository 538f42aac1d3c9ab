// Runs the real Hermes Agent offline: a private HOME / HERMES_HOME / TMPDIR, a config.yaml pointing at a fake
// Chat Completions server on 127.0.0.1, and every network side path switched off (tirith download, lazy pip
// installs, the PyPI update check, auxiliary title generation). Shared by the fixture capture and the matrix.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";

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

/** Writes `config.yaml` and a fresh update-check stamp (so Hermes does not ask PyPI) into a Hermes home. */
export function writeHermesHome(hermesHome: string, config: YamlObject, version: string): void {
  mkdirSync(hermesHome, { recursive: true });
  writeFileSync(join(hermesHome, "config.yaml"), toYaml(config));
  writeFileSync(
    join(hermesHome, ".update_check"),
    JSON.stringify({ ts: Date.now() / 1000, behind: 0, rev: null, ver: version }),
  );
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
    HOME: home,
    TMPDIR: tmp,
    HERMES_HOME: hermesHome,
    TZ: "UTC",
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    HERMES_DISABLE_LAZY_INSTALLS: "1",
    PYTHONDONTWRITEBYTECODE: "1",
  };
}

export interface HermesRunResult {
  code: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** What `hermes chat -Q` prints on stderr as `session_id: <id>`. */
  sessionId: string | null;
  ms: number;
}

/** Runs `hermes <args>` in its own process group, SIGKILLed (the group, by our own pid) after the timeout. */
export function runHermes(
  exe: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<HermesRunResult> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(exe, args, {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout?.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    child.stderr?.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, opts.timeoutMs ?? 180_000);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      const m = /session_id:\s*(\S+)/.exec(stderr) ?? /session_id:\s*(\S+)/.exec(stdout);
      resolve({ code, timedOut, stdout, stderr, sessionId: m?.[1] ?? null, ms: Date.now() - t0 });
    });
  });
}

export function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, "SIGKILL"); // the process group we created (detached: true)
  } catch {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
