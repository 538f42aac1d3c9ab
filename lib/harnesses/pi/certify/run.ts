// Runs the real Pi with a private HOME and agent folder (PI_CODING_AGENT_DIR: models.json, settings.json,
// auth.json, sessions/): offline with one custom provider, the fake Chat Completions server on 127.0.0.1 (api
// `openai-completions`), made the default in settings.json so a session handed into this home continues on it,
// and PI_OFFLINE (no version or package check, no telemetry, no download of fd/rg); or (real mode) with the
// environment the caller carries over.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnCollect, type SpawnResult } from "../../../certify-kit/spawn.ts";
import { jsonLine, recordOf } from "../../../io/json-line.ts";

/** The provider and model every offline run uses, as Pi names them (`--provider fake --model fake-model`). */
export const FAKE_PROVIDER = "fake";
export const FAKE_MODEL = "fake-model";

/** The private folders of one Pi under test, all inside `root`. */
export interface PiFolders {
  home: string;
  /** PI_CODING_AGENT_DIR: the folder session-bridge's `--pi-home` names. */
  agent: string;
  tmp: string;
}

export function piFolders(root: string): PiFolders {
  const folders = { home: join(root, "home"), agent: join(root, "agent"), tmp: join(root, "tmp") };
  for (const dir of Object.values(folders)) mkdirSync(dir, { recursive: true });
  return folders;
}

/** The folders every run gets, offline or not. */
export function piPrivateEnv(folders: PiFolders): Record<string, string> {
  return { HOME: folders.home, TMPDIR: folders.tmp, PI_CODING_AGENT_DIR: folders.agent };
}

/**
 * The agent folder of an offline run: models.json with the fake server as provider `fake` (a reasoning model, so
 * Pi asks for and records reasoning), and settings.json making it the default, as a user's configured model.
 */
export function writeOfflineAgent(folders: PiFolders, baseUrl: string): void {
  const provider = {
    baseUrl: `${baseUrl}/v1`,
    api: "openai-completions",
    apiKey: "fake-key",
    models: [{ id: FAKE_MODEL, reasoning: true, contextWindow: 128000, maxTokens: 16384 }],
  };
  writeJson(join(folders.agent, "models.json"), { providers: { [FAKE_PROVIDER]: provider } });
  writeJson(join(folders.agent, "settings.json"), {
    defaultProvider: FAKE_PROVIDER,
    defaultModel: FAKE_MODEL,
  });
}

/** Env for an offline run: nothing inherited but the user's PATH (the bash tool's commands need it). */
export function piEnv(folders: PiFolders, path: string | undefined): Record<string, string> {
  return {
    PATH: path ?? "/usr/local/bin:/usr/bin:/bin",
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    ...piPrivateEnv(folders),
    PI_OFFLINE: "1",
  };
}

/**
 * Runs `pi <args>`. `prompt`, when given, goes on stdin: without a terminal there Pi runs one print-mode turn
 * and takes stdin as the message, as it is (an argument starting with `@` would name a file to attach, one
 * starting with `-` a flag).
 */
export function runPi(
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

/** The flags of one non-interactive turn whose events come one JSON object a line. */
export const JSON_MODE = ["--mode", "json"];

/** What `pi --mode json` printed: the session it ran in, the answer, and the error the turn ended with. */
export interface JsonEvents {
  sessionId?: string;
  /** The text of the turn's last assistant message: the answer after any tool calls. */
  reply: string;
  error?: string;
}

/**
 * The lines `pi --mode json` prints (0.73.1): the session file's header first (`{"type":"session","id",...}`),
 * then the agent's events; each finished message is a `message_end`. A turn that fails still exits 0: its last
 * assistant message says so (`stopReason` `error` or `aborted`, with `errorMessage`).
 */
export function parseJsonEvents(stdout: string): JsonEvents {
  const events: JsonEvents = { reply: "" };
  let last: Record<string, unknown> | undefined;
  for (const line of stdout.split("\n")) {
    const event = jsonLine(line);
    if (event?.type === "session" && typeof event.id === "string") events.sessionId ??= event.id;
    const message = recordOf(event?.message);
    if (event?.type === "message_end" && message.role === "assistant") last = message;
  }
  if (last) {
    events.reply = assistantText(last);
    if (last.stopReason === "error" || last.stopReason === "aborted") {
      events.error = typeof last.errorMessage === "string" ? last.errorMessage : `turn ${last.stopReason}`;
    }
  }
  return events;
}

/** The words of an assistant message's text blocks (reasoning and tool calls left out). */
export function assistantText(message: Record<string, unknown>): string {
  const content = Array.isArray(message.content) ? message.content : [];
  return content.map(recordOf).filter((b) => b.type === "text" && typeof b.text === "string")
    .map((b) => b.text as string).join("");
}

function writeJson(path: string, value: object): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}
