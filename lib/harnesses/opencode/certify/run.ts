// Runs the real OpenCode with a private HOME and XDG folders (its data folder, opencode.db, is
// `$XDG_DATA_HOME/opencode`): offline with an `opencode.json` whose only provider is the fake Chat Completions
// server on 127.0.0.1 (through @ai-sdk/openai-compatible, which the binary carries: nothing is installed at run
// time), every network side path switched off, or (real mode) with the environment the caller carries over.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnCollect, type SpawnResult } from "../../../certify-kit/spawn.ts";
import { isObject, type Json } from "../../../io/json.ts";

/** The model every offline run uses, as OpenCode names it: provider/model. */
export const FAKE_MODEL = "fake/fake-model";

/** The private folders of one OpenCode under test, all inside `root`. */
export interface OpencodeFolders {
  home: string;
  /** `$XDG_DATA_HOME`: OpenCode's data folder, the one session-bridge's home flag names, is `<data>/opencode`. */
  data: string;
  config: string;
  cache: string;
  state: string;
  tmp: string;
}

export function opencodeFolders(root: string): OpencodeFolders {
  const folders = {
    home: join(root, "home"),
    data: join(root, "data"),
    config: join(root, "config"),
    cache: join(root, "cache"),
    state: join(root, "state"),
    tmp: join(root, "tmp"),
  };
  for (const dir of Object.values(folders)) mkdirSync(dir, { recursive: true });
  return folders;
}

/** OpenCode's data folder (the harness's home, holding opencode.db) inside the private folders. */
export function opencodeDataHome(folders: OpencodeFolders): string {
  return join(folders.data, "opencode");
}

/** The folders every run gets, offline or not. */
export function opencodePrivateEnv(folders: OpencodeFolders): Record<string, string> {
  return {
    HOME: folders.home,
    TMPDIR: folders.tmp,
    XDG_DATA_HOME: folders.data,
    XDG_CONFIG_HOME: folders.config,
    XDG_CACHE_HOME: folders.cache,
    XDG_STATE_HOME: folders.state,
  };
}

/**
 * The user config of an offline run: the fake server as the one provider and its model the default. No update
 * check, no share links.
 */
export function offlineConfig(baseUrl: string): object {
  return {
    provider: {
      fake: {
        npm: "@ai-sdk/openai-compatible",
        name: "Fake",
        options: { baseURL: `${baseUrl}/v1`, apiKey: "x" },
        models: { "fake-model": { name: "Fake Model" } },
      },
    },
    model: FAKE_MODEL,
    autoupdate: false,
    share: "disabled",
  };
}

/** Writes the user config where OpenCode reads it: `$XDG_CONFIG_HOME/opencode/opencode.json`. */
export function writeOpencodeConfig(folders: OpencodeFolders, config: object): void {
  const dir = join(folders.config, "opencode");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "opencode.json"), `${JSON.stringify(config, null, 2)}\n`);
}

/**
 * Env for an offline run: nothing inherited but the user's PATH (the shell tool's commands need it). Without
 * OPENCODE_DISABLE_MODELS_FETCH every start asks models.opencode.ai for its model list; the LSP servers it would
 * download are not wanted either.
 */
export function opencodeEnv(folders: OpencodeFolders, path: string | undefined): Record<string, string> {
  return {
    PATH: path ?? "/usr/local/bin:/usr/bin:/bin",
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    ...opencodePrivateEnv(folders),
    OPENCODE_DISABLE_AUTOUPDATE: "true",
    OPENCODE_DISABLE_MODELS_FETCH: "true",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "true",
  };
}

/**
 * Runs `opencode <args>`. `prompt`, when given, goes on stdin: `opencode run` takes a message read there as it
 * is, while words given as arguments are joined with each one holding a space put in double quotes (1.18.33
 * sends `opencode run "say hello"` to the model as `"say hello"`, quotes included).
 */
export function runOpencode(
  bin: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; prompt?: string; timeoutMs?: number },
): Promise<SpawnResult> {
  return spawnCollect(bin, args, {
    cwd: opts.cwd,
    env: opts.env,
    timeoutMs: opts.timeoutMs ?? 180_000,
    ...(opts.prompt === undefined ? {} : { input: opts.prompt }),
  });
}

/** What `opencode run --format json` printed: the session it ran in, the answer, and any error it reported. */
export interface RunEvents {
  sessionId?: string;
  /** The text of the turn's last text part: the answer after any tool calls. */
  reply: string;
  error?: string;
}

/**
 * The JSON events `opencode run --format json` prints, one a line (`step_start`, `text`, `tool_use`,
 * `step_finish`, `error`), each naming its `sessionID`. A line that is no JSON object (a warning) is skipped.
 */
export function parseRunEvents(stdout: string): RunEvents {
  const events: RunEvents = { reply: "" };
  for (const line of stdout.split("\n")) {
    const event = parseObject(line);
    if (!event) continue;
    if (typeof event.sessionID === "string") events.sessionId ??= event.sessionID;
    const part = isObject(event.part) ? event.part : undefined;
    if (event.type === "text" && typeof part?.text === "string") events.reply = part.text;
    if (event.type === "error") events.error = errorText(event.error);
  }
  return events;
}

/** An error event's words: its `data.message` when it has one, else its name, else the whole value. */
function errorText(error: unknown): string {
  const object = isObject(error) ? error : {};
  if (isObject(object.data) && typeof object.data.message === "string") return object.data.message;
  if (typeof object.name === "string") return object.name;
  return JSON.stringify(error) ?? "unknown error";
}

function parseObject(line: string): Json | undefined {
  if (!line.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
