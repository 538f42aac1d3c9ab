/**
 * The real OpenCode binary run offline in a private root, against the kit's fake Chat Completions server: an
 * `opencode.json` in OPENCODE_CONFIG_DIR declares a provider `fake` (`@ai-sdk/openai-compatible`, the server's
 * loopback URL) whose `fake-model` is the default, and HOME and every XDG folder point into the root, so the
 * data folder (the store) is `<root>/data/opencode`. Used by the writer's tests and its golden capture.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type ChatRequest,
  startFakeChatCompletions,
} from "../lib/certify-kit/fake-servers/chat-completions.ts";
import { installHarness } from "./install-harness.ts";

/** The model the fake provider serves, as OpenCode names it (`provider/model`). */
export const FAKE_MODEL = "fake/fake-model";

export interface OpenCodeRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface OfflineOpenCode {
  root: string;
  /** The data folder: what `--opencode-home` names, holding opencode.db. */
  home: string;
  /** The environment OpenCode runs in (the root's folders, no update check). */
  env: NodeJS.ProcessEnv;
  run(args: string[], cwd: string, extraEnv?: NodeJS.ProcessEnv): Promise<OpenCodeRun>;
  /** The chat requests the model got so far (title requests included), in order. */
  requests(): ChatRequest[];
  close(): Promise<void>;
}

export async function offlineOpenCode(root: string, version?: string): Promise<OfflineOpenCode> {
  const bin = await installHarness("opencode", version);
  const dirs = Object.fromEntries(
    ["home", "data", "config", "cache", "state", "opencode-config"].map((d) => [d, join(root, d)]),
  );
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  const logPath = join(root, "requests.jsonl");
  writeFileSync(logPath, "");
  const server = await startFakeChatCompletions({ logPath });
  const config = {
    provider: {
      fake: {
        npm: "@ai-sdk/openai-compatible",
        name: "Fake",
        options: { baseURL: `${server.url}/v1`, apiKey: "x" },
        models: { "fake-model": { name: "Fake Model" } },
      },
    },
    model: FAKE_MODEL,
    autoupdate: false,
    share: "disabled",
  };
  writeFileSync(join(dirs["opencode-config"]!, "opencode.json"), JSON.stringify(config));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: dirs.home,
    XDG_DATA_HOME: dirs.data,
    XDG_CONFIG_HOME: dirs.config,
    XDG_CACHE_HOME: dirs.cache,
    XDG_STATE_HOME: dirs.state,
    OPENCODE_CONFIG_DIR: dirs["opencode-config"],
    OPENCODE_DISABLE_AUTOUPDATE: "true",
  };
  return {
    root,
    home: join(dirs.data!, "opencode"),
    env,
    // OpenCode takes its directory from PWD when it is set: the child's is the directory it runs in.
    run: (args, cwd, extraEnv = {}) => runBinary(bin, args, cwd, { ...env, PWD: cwd, ...extraEnv }),
    requests: () =>
      readFileSync(logPath, "utf8").split("\n").filter(Boolean).map((l) =>
        JSON.parse(l) as { body: ChatRequest }
      )
        .map((r) => r.body),
    close: () => server.close(),
  };
}

function runBinary(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<OpenCodeRun> {
  return new Promise((done, fail) => {
    const child = spawn(bin, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}
