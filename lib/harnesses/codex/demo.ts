/** Codex in the demo's sandbox: a home as its first run leaves it (no config.toml: Codex's default provider). */
import type { DemoSeat } from "../types.ts";
import { createCodexStore } from "./first-run.ts";

export const seat: DemoSeat = { firstRun: (home) => void createCodexStore(home) };
